#!/usr/bin/env python3
"""Figures of one `clink run` output directory, drawn with matplotlib.

    plot_run.py DIR [--out OUTDIR]

Reads DIR/timeseries.csv (header "name [unit]" per column, written by
`clink run`) and DIR/summary.json, and writes PNG files into OUTDIR (default
DIR):

    coordinates.png     x, y and phi of every body against time
    velocities.png      vx, vy and omega of every body
    accelerations.png   ax, ay and alpha of every body (when the run has them)
    reactions.png       joint reaction forces (when present)
    energies.png        kinetic, potential, ... and the energy residual
    contact_forces.png  normal and tangential contact forces (when present)
    journal_orbit.png   journal-centre orbit in each clearance joint (when present)

Called by `clink plot DIR`; prints one line per figure written.

A run that failed or was interrupted (summary.json "status") is drawn up to
where it stopped, every figure marked with the status and the reason. A
damaged run directory (summary.json missing or unreadable, files left
".incomplete" by a killed run, a truncated or non-numeric row) is reported in
one line and nothing is drawn.

Exit status: 0 figures of a finished run; 1 figures of a failed or interrupted
run (marked); 2 the run directory is damaged or missing; 3 a figure could not
be written; 4 matplotlib is not available.
"""
import csv
import json
import os
import sys

EXIT_OK, EXIT_MARKED, EXIT_DAMAGED, EXIT_IO, EXIT_NO_MATPLOTLIB = 0, 1, 2, 3, 4
FILES = ("timeseries.csv", "impacts.csv", "summary.json")
plt = None  # matplotlib.pyplot, imported by main() once the run is known to be drawable
title_color = "black"  # red for a failed or interrupted run


class Damaged(Exception):
    """the run directory cannot be drawn; the message says why"""


def read_csv(path):
    """header and columns of a CSV written by `clink run`, checked row by row"""
    try:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
    except OSError as e:
        raise Damaged(f"{path}: cannot read: {e.strerror}") from None
    except (csv.Error, UnicodeDecodeError) as e:
        raise Damaged(f"{path}: not a CSV file written by clink run ({e})") from None
    if not rows:
        raise Damaged(f"{path}: empty (no header)")
    header = rows[0]
    if not header or not header[0].startswith("t "):
        raise Damaged(f"{path}: line 1 is not a clink header (it should start with 't [s]')")
    data = {h: [] for h in header}
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise Damaged(f"{path}:{line}: {len(row)} fields, the header has {len(header)} "
                          "(truncated file?)")
        for h, v in zip(header, row):
            try:
                data[h].append(float(v))
            except ValueError:
                raise Damaged(f"{path}:{line}: column '{h}': '{v}' is not a number") from None
    if len(rows) < 2:
        raise Damaged(f"{path}: no data rows")
    return header, data


def read_summary(run):
    """summary.json of a finished run (failed and interrupted runs included)"""
    leftovers = [f + ".incomplete" for f in FILES
                 if os.path.exists(os.path.join(run, f + ".incomplete"))]
    path = os.path.join(run, "summary.json")
    if not os.path.exists(path):
        if leftovers:
            raise Damaged(f"{run}: the run did not finish (killed, or still running): only "
                          f"{', '.join(leftovers)}; rerun clink run")
        raise Damaged(f"{path}: missing: not the directory of a finished clink run")
    try:
        with open(path) as f:
            summary = json.load(f)
    except OSError as e:
        raise Damaged(f"{path}: cannot read: {e.strerror}") from None
    except ValueError as e:
        raise Damaged(f"{path}: not valid JSON ({e})") from None
    if not isinstance(summary, dict) or summary.get("status") not in ("ok", "failed",
                                                                        "interrupted"):
        raise Damaged(f"{path}: no \"status\" of ok, failed or interrupted")
    return summary


def split(column):
    """'crank.x [m]' -> ('crank', 'x', 'm')"""
    name, _, unit = column.partition(" [")
    unit = unit.rstrip("]")
    entity, _, quantity = name.rpartition(".")
    return entity, quantity, unit


def figure_by_quantity(header, data, t, quantities, title, path):
    """one panel per quantity, one line per entity having it"""
    panels = []
    for q in quantities:
        cols = [c for c in header if split(c)[1] == q and split(c)[0] != "energy"]
        if cols:
            panels.append((q, cols))
    if not panels:
        return False
    fig, axes = plt.subplots(len(panels), 1, figsize=(8, 2.6 * len(panels)), sharex=True,
                             squeeze=False)
    for ax, (q, cols) in zip(axes[:, 0], panels):
        for c in cols:
            ax.plot(t, data[c], label=split(c)[0], lw=1)
        ax.set_ylabel(f"{q} [{split(cols[0])[2]}]")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small", loc="best")
    axes[-1, 0].set_xlabel("t [s]")
    fig.suptitle(title, color=title_color)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def draw(run, out, header, data, summary):
    """every figure; the list of files written"""
    global title_color
    name = str(summary.get("model", "clink run"))
    status = summary.get("status")
    if status != "ok":
        reached = summary.get("t_end_reached")
        mark = f"{status.upper()} at t = {reached:.6g} s" if isinstance(
            reached, (int, float)) else status.upper()
        name = f"{name} [{mark}: results end there]"
        title_color = "red"
    t = data[header[0]]
    written = []

    def emit(ok, fname):
        if ok:
            written.append(os.path.join(out, fname))

    emit(figure_by_quantity(header, data, t, ["x", "y", "phi"], f"{name}: coordinates",
                            os.path.join(out, "coordinates.png")), "coordinates.png")
    emit(figure_by_quantity(header, data, t, ["vx", "vy", "omega"], f"{name}: velocities",
                            os.path.join(out, "velocities.png")), "velocities.png")
    emit(figure_by_quantity(header, data, t, ["ax", "ay", "alpha"], f"{name}: accelerations",
                            os.path.join(out, "accelerations.png")), "accelerations.png")
    emit(figure_by_quantity(header, data, t, ["Fx", "Fy", "M"], f"{name}: joint reactions",
                            os.path.join(out, "reactions.png")), "reactions.png")
    emit(figure_by_quantity(header, data, t, ["Fn", "Ft"], f"{name}: contact forces",
                            os.path.join(out, "contact_forces.png")), "contact_forces.png")

    energy = [c for c in header if split(c)[0] == "energy"]
    if energy:
        fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
        for c in energy:
            target = axes[1] if split(c)[1] == "residual" else axes[0]
            target.plot(t, data[c], label=split(c)[1], lw=1)
        axes[0].set_ylabel("energy [J]")
        axes[1].set_ylabel("residual [J]")
        axes[1].set_xlabel("t [s]")
        for ax in axes:
            ax.grid(True, alpha=0.3)
            if ax.lines:
                ax.legend(fontsize="small")
        fig.suptitle(f"{name}: energies", color=title_color)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "energies.png"), dpi=120)
        plt.close(fig)
        written.append(os.path.join(out, "energies.png"))

    orbits = [split(c)[0] for c in header if split(c)[1] == "ex"]
    if orbits:
        fig, ax = plt.subplots(figsize=(6, 6))
        for j in orbits:
            ex = data[next(c for c in header if split(c)[:2] == (j, "ex"))]
            ey = data[next(c for c in header if split(c)[:2] == (j, "ey"))]
            ax.plot(ex, ey, lw=0.8, label=j)
        ax.set_aspect("equal")
        ax.set_xlabel("journal centre x relative to bearing [m]")
        ax.set_ylabel("y [m]")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
        fig.suptitle(f"{name}: journal orbit", color=title_color)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "journal_orbit.png"), dpi=120)
        plt.close(fig)
        written.append(os.path.join(out, "journal_orbit.png"))

    return written


def main(argv):
    global plt
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else EXIT_DAMAGED
    run = argv[1]
    out = run
    if len(argv) >= 4 and argv[2] == "--out":
        out = argv[3]
    try:
        if not os.path.isdir(run):
            raise Damaged(f"{run}: not a directory")
        summary = read_summary(run)
        header, data = read_csv(os.path.join(run, "timeseries.csv"))
    except Damaged as e:
        print(f"plot_run.py: damaged run: {e}", file=sys.stderr)
        return EXIT_DAMAGED
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        print(f"plot_run.py: matplotlib is not available ({e}); install python3-matplotlib",
              file=sys.stderr)
        return EXIT_NO_MATPLOTLIB
    try:
        os.makedirs(out, exist_ok=True)
        written = draw(run, out, header, data, summary)
    except OSError as e:
        print(f"plot_run.py: {e.filename or out}: cannot write: {e.strerror}", file=sys.stderr)
        return EXIT_IO
    for w in written:
        print(w)
    if summary["status"] != "ok":
        print(f"plot_run.py: {run}: the run {summary['status']} at t = "
              f"{summary.get('t_end_reached')} s ({summary.get('message')}); figures drawn up "
              "to there and marked", file=sys.stderr)
        return EXIT_MARKED
    return EXIT_OK


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Exception as e:  # noqa: BLE001 -- the user gets one line, never a traceback
        print(f"plot_run.py: cannot draw {sys.argv[1] if len(sys.argv) > 1 else ''}: "
              f"{type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
