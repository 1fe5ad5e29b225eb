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
"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise SystemExit(f"plot_run.py: {path} is empty")
    header = rows[0]
    data = {h: [] for h in header}
    for row in rows[1:]:
        for h, v in zip(header, row):
            data[h].append(float(v))
    return header, data


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
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(argv) >= 2 else 2
    run = argv[1]
    out = run
    if len(argv) >= 4 and argv[2] == "--out":
        out = argv[3]
    os.makedirs(out, exist_ok=True)
    header, data = read_csv(os.path.join(run, "timeseries.csv"))
    name = "clink run"
    try:
        with open(os.path.join(run, "summary.json")) as f:
            name = json.load(f).get("model", name)
    except (OSError, ValueError):
        pass
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
        fig.suptitle(f"{name}: energies")
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
        fig.suptitle(f"{name}: journal orbit")
        fig.tight_layout()
        fig.savefig(os.path.join(out, "journal_orbit.png"), dpi=120)
        plt.close(fig)
        written.append(os.path.join(out, "journal_orbit.png"))

    for w in written:
        print(w)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
