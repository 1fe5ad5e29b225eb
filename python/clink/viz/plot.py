# SPDX-License-Identifier: BSD-3-Clause
"""Figures of one `clink run` output directory, drawn with matplotlib.

    python3 -m clink.viz.plot DIR [--out OUTDIR] [--scene SCENE.json] [--against auto|angle|time]
                              [--format png[,svg,pdf]]

Reads DIR/timeseries.csv (header "name [unit]" per column, written by
`clink run`; a text column such as a grid/event row marker is carried along and
never plotted), or DIR/results.h5 of a run written with `--format hdf5` (the same
columns, read by rundir.py), and DIR/summary.json, and writes into OUTDIR (default DIR), in
every format asked (PNG by default):

    coordinates         x, y and phi of every body
    velocities          vx, vy and omega of every body
    accelerations       ax, ay and alpha of every body (when the run has them)
    reactions           joint reaction forces and driver efforts (when present)
    beams               curvature, bending moment, axial and shear force at the
                        middle of every beam element (when the model has beams)
    energies            kinetic, potential, ... and the energy residual
    contact_forces      normal and tangential contact forces (when present); with
                        more than 8 contacts, the 5 contacts of largest peak force,
                        under a space-time map of the normal force (contact index
                        along the chain against the abscissa) when the contacts
                        join the bodies in one chain
    journal_orbit       journal-centre orbit of each clearance joint inside its
                        clearance circle, in mm, with rings of eccentricity ratio
                        e/c = 0.25, 0.5, 0.75

The abscissa is the crank angle in degrees (the driven relative angle of the
first rotational driver, read from SCENE, the scene file `clink plot` writes
from the run's model) when there is one and --against is auto or angle, the time
otherwise. Up to 30 series per panel get distinct colour and line-style
pairs and a legend; more are drawn in a colour map of their index with a colour
bar instead.

Called by `clink plot DIR`; prints one line per file written.

A run that failed or was interrupted (summary.json "status") is drawn up to
where it stopped, every figure marked with the status and the reason. A
damaged run directory (summary.json missing or unreadable, files left
".incomplete" by a killed run, a truncated or non-numeric row) is reported in
one line and nothing is drawn.

Exit status: 0 figures of a finished run; 1 figures of a failed or interrupted
run (marked); 2 the run directory is damaged or missing, or a bad option; 3 a
figure could not be written; 4 matplotlib or NumPy is not available.
"""
import json
import os
import sys

from .rundir import Damaged, read_csv, read_series, read_summary  # noqa: F401 (read_csv: for callers)

EXIT_OK, EXIT_MARKED, EXIT_DAMAGED, EXIT_IO, EXIT_NO_MATPLOTLIB = 0, 1, 2, 3, 4
PROG = "clink plot"  # the messages' prefix
MAX_LEGEND = 30  # series per panel drawn with distinct styles and a legend
MANY_CONTACTS = 8  # above this, contact forces are a space-time map and the largest few
LARGEST = 5
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
          "#7f7f7f", "#bcbd22", "#17becf"]
DASHES = ["-", "--", ":"]
np = None
plt = None  # matplotlib.pyplot, imported by main() once the run is known to be drawable


class Usage(Exception):
    """a bad option"""


class InputClash(Exception):
    """an output that is one of the command's inputs (the same file, however spelled)"""


# the files of a run directory that are its data (docs/outputs.md), never to be replaced
RUN_FILES = ("summary.json", "timeseries.csv", "impacts.csv", "results.h5", "kinematics.csv")


def run_inputs(run_dir, summary, scene=None, scene_path=None):
    """{(device, inode): description} of the files an output must never replace: the run's
    data files, its model (the scene's "source" and summary.json's) and the scene file"""
    inputs = {}

    def add(path, what):
        try:
            st = os.stat(path)
        except (OSError, TypeError, ValueError):
            return
        inputs.setdefault((st.st_dev, st.st_ino), f"{what} {path}")
    for name in RUN_FILES:
        add(os.path.join(run_dir, name), "the run's file")
    for src in ((scene or {}).get("source"), (summary or {}).get("source")):
        if isinstance(src, str) and src:
            add(src, "the run's model")
    if scene_path:
        add(scene_path, "the scene file")
    return inputs


def refuse_input(path, inputs):
    """raises InputClash when the file at path is one of inputs (run_inputs)"""
    try:
        st = os.stat(path)
    except OSError:
        return
    what = (inputs or {}).get((st.st_dev, st.st_ino))
    if what is not None:
        raise InputClash(f"{path} is {what}: refused (writing there would replace it); "
                         "name another file")


def style(i):
    """colour and line style of series i (i < 30: all pairs distinct)"""
    return COLORS[i % len(COLORS)], DASHES[(i // len(COLORS)) % len(DASHES)]


def split(column):
    """'crank.x [m]' -> ('crank', 'x', 'm')"""
    name, _, unit = column.partition(" [")
    unit = unit.rstrip("]")
    entity, _, quantity = name.rpartition(".")
    return entity, quantity, unit


class Run:
    """the columns of a run and the abscissa chosen for its figures"""

    def __init__(self, names, values, summary, scene, against, formats, out):
        self.names, self.values = names, values
        self.col = {n: k for k, n in enumerate(names)}
        self.parts = [split(n) for n in names]
        self.summary, self.scene, self.formats, self.out = summary, scene, formats, out
        self.inputs = {}  # the files no figure may replace (run_inputs)
        self.t = values[:, 0]
        self.title_color = "black"
        self.title = str(summary.get("model", "clink run"))
        status = summary.get("status")
        if status != "ok":
            reached = summary.get("t_end_reached")
            mark = (f"{status.upper()} at t = {reached:.6g} s"
                    if isinstance(reached, (int, float)) else status.upper())
            self.title = f"{self.title} [{mark}: results end there]"
            self.title_color = "red"
        self.x, self.xlabel, self.angle = self.t, "t [s]", False
        crank = self.crank_angle() if against != "time" else None
        if crank is not None:
            self.x, self.xlabel = crank
            self.angle = True
        self.written = []

    def column(self, entity, quantity):
        for k, p in enumerate(self.parts):
            if p[0] == entity and p[1] == quantity:
                return self.values[:, k]
        return None

    def crank_angle(self):
        """(angle in degrees from its initial value, label), or None"""
        if not self.scene:
            return None
        joints = {j["name"]: j for j in self.scene.get("joints", [])}
        for d in self.scene.get("drivers", []):
            if d.get("target") == "joint_angle" and d.get("joint") in joints:
                j = joints[d["joint"]]
                a, b = j["body_a"], j["body_b"]
            elif d.get("target") == "body_coordinate" and d.get("coordinate") == 2:
                a, b = "ground", d.get("body")
            else:
                continue
            phi_b = self.column(b, "phi")
            phi_a = self.column(a, "phi") if a != "ground" else 0.0
            if phi_b is None or (a != "ground" and phi_a is None):
                continue
            rel = np.degrees(phi_b - phi_a)
            angle = rel - rel[0] if rel[-1] >= rel[0] else rel[0] - rel
            label = (f"crank angle [deg] (driver {d['name']}: {b} relative to {a}, "
                     "from its initial value)")
            return angle, label
        return None

    def set_xaxis(self, ax):
        ax.set_xlabel(self.xlabel)
        if self.angle:
            span = float(np.nanmax(self.x) - np.nanmin(self.x)) if self.x.size else 0.0
            step = 90 if span <= 720 else 180 if span <= 2160 else 360 * max(1, int(span // 3600))
            ax.xaxis.set_major_locator(plt.MultipleLocator(step))

    def save(self, fig, stem):
        fig.suptitle(f"{self.title}: {stem.replace('_', ' ')}", color=self.title_color)
        for fmt in self.formats:
            path = os.path.join(self.out, f"{stem}.{fmt}")
            write_replacing(path, lambda tmp, fmt=fmt: fig.savefig(
                tmp, format=fmt, dpi=150 if fmt == "png" else None), self.inputs)
            self.written.append(path)
        plt.close(fig)


def write_replacing(path, write, inputs=None):
    """write(tmp) writes the file under the temporary name path.incomplete, which is then
    renamed to path: a previous file at path stays whole until the new one is complete,
    and a failed write (OSError, raised) leaves it as it was and no temporary file. A path
    that is one of inputs (run_inputs) is refused before anything is written (InputClash)"""
    refuse_input(path, inputs)
    tmp = path + ".incomplete"
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.remove(tmp)
        except OSError:
            pass
        if isinstance(e, OSError) and e.filename in (None, tmp):
            e.filename = path  # the user's name, never the temporary one
        raise


def stacked(rows, height, ratios=None, width=9.0):
    """a figure of rows panels sharing the abscissa, with fixed margins in inches (the
    right one for legends and colour bars): no layout engine to pay for"""
    total = sum(height) if isinstance(height, list) else height * rows
    fig_h = total + 1.1
    fig, axes = plt.subplots(rows, 1, figsize=(width, fig_h), sharex=True, squeeze=False,
                             gridspec_kw={"height_ratios": ratios} if ratios else None)
    fig.subplots_adjust(left=1.15 / width, right=1 - 2.2 / width, bottom=0.6 / fig_h,
                        top=1 - 0.5 / fig_h, hspace=0.3 / (total / rows))
    return fig, axes


def side_colorbar(fig, ax, mappable, label):
    """a colour bar in the right margin of ax, leaving the panel's width alone"""
    cax = ax.inset_axes([1.02, 0.0, 0.025, 1.0])
    bar = fig.colorbar(mappable, cax=cax)
    bar.set_label(label, fontsize="small")
    return bar


def lines(run, ax, ks, legend_title, shift=False):
    """columns ks against the abscissa: distinct styles and a legend, or a colour map
    (minus their first value when shift)"""
    if len(ks) <= MAX_LEGEND:
        for i, k in enumerate(ks):
            color, dash = style(i)
            ax.plot(run.x, run.values[:, k], color=color, ls=dash, lw=1,
                    label=run.parts[k][0] or run.parts[k][1])
        ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  ncol=1 if len(ks) <= 15 else 2, title=legend_title,
                  title_fontsize="x-small", frameon=False)
        return
    # one collection, not one artist per series: 70 beads draw in a fraction of the time
    from matplotlib.collections import LineCollection
    segs = np.stack([np.column_stack([run.x, run.values[:, k] - (run.values[0, k] if shift
                                                                  else 0.0)]) for k in ks])
    coll = LineCollection(segs, cmap="viridis", linewidths=0.6)
    coll.set_array(np.arange(len(ks), dtype=float))
    ax.add_collection(coll)
    ax.autoscale_view()
    side_colorbar(ax.figure, ax, coll, f"{legend_title} index [-] (column order, {len(ks)})")


def figure_by_quantity(run, quantities, stem, legend_title):
    """one panel per quantity, one line per entity having it; all-zero panels left out"""
    panels, zero = [], []
    for q in quantities:
        ks = [k for k, p in enumerate(run.parts)
              if p[1] == q and p[0] not in ("energy", "constraint")]
        if ks and not np.any(run.values[:, ks]):
            zero.append(q)
        elif ks:
            panels.append((q, ks))
    if not panels:
        return
    fig, axes = stacked(len(panels), 2.4)
    for ax, (q, ks) in zip(axes[:, 0], panels):
        # many bodies side by side: their displacements, not their positions
        shift = len(ks) > MAX_LEGEND and q in ("x", "y", "phi")
        lines(run, ax, ks, legend_title, shift)
        ax.set_ylabel(f"{q} - {q}(0) [{run.parts[ks[0]][2]}]" if shift
                      else f"{q} [{run.parts[ks[0]][2]}]")
        ax.grid(True, alpha=0.3)
    run.set_xaxis(axes[-1, 0])
    if zero:
        axes[-1, 0].annotate(f"zero throughout, not drawn: {', '.join(zero)}", (0, 0),
                             xycoords="figure fraction", xytext=(4, 4),
                             textcoords="offset points", fontsize="x-small", color="0.4")
    run.save(fig, stem)


def beam_elements(run):
    """the beam elements of the run: the entities with a curvature column"""
    return {p[0] for p in run.parts if p[1] == "kappa"}


def beams(run):
    """each beam element's curvature, bending moment, axial and shear force at its middle
    (docs/flexible.md, "Outputs"), one panel per quantity, one line per element"""
    elements = beam_elements(run)
    if not elements:
        return
    names = {"kappa": "curvature", "M": "bending moment", "N": "axial force",
             "Q": "shear force"}
    panels = [(q, [k for k, p in enumerate(run.parts) if p[1] == q and p[0] in elements])
              for q in names]
    fig, axes = stacked(len(panels), 2.4)
    for ax, (q, ks) in zip(axes[:, 0], panels):
        lines(run, ax, ks, "beam element")
        ax.set_ylabel(f"{names[q]} {q} [{run.parts[ks[0]][2]}]")
        ax.grid(True, alpha=0.3)
    run.set_xaxis(axes[-1, 0])
    run.save(fig, "beams")


def reactions(run):
    """joint reactions and driver efforts, one panel per unit; a joint whose moment is
    zero throughout (a revolute joint transmits none) is left out of the moment panel,
    and the panel is left out when no joint has one"""
    panels, zero = [], []
    beams = beam_elements(run)  # their M is a section's, drawn in beams.png
    for q in ("Fx", "Fy", "M", "F"):
        ks = [k for k, p in enumerate(run.parts) if p[1] == q and p[0] not in beams]
        if q == "M":
            moving = [k for k in ks if np.any(run.values[:, k])]
            zero += [run.parts[k][0] for k in ks if k not in moving]
            ks = moving
        if ks:
            panels.append((q, ks))
    if not panels:
        return
    fig, axes = stacked(len(panels), 2.4)
    for ax, (q, ks) in zip(axes[:, 0], panels):
        lines(run, ax, ks, "joint" if q != "F" else "driver")
        label = "driver effort" if q == "F" else q
        ax.set_ylabel(f"{label} [{run.parts[ks[0]][2]}]")
        ax.grid(True, alpha=0.3)
    run.set_xaxis(axes[-1, 0])
    if zero:
        axes[-1, 0].annotate(f"moment zero throughout, not drawn: {', '.join(zero)}", (0, 0),
                             xycoords="figure fraction", xytext=(4, 4),
                             textcoords="offset points", fontsize="x-small", color="0.4")
    run.save(fig, "reactions")


def chain_order(run, contacts):
    """contacts (entity names) ordered along a chain of bodies and the y label, or None
    when they do not join the bodies in one chain"""
    pairs = {c["name"]: (c["body_a"], c["body_b"]) for c in (run.scene or {}).get("contacts", [])}
    if not all(c in pairs for c in contacts):
        return None
    touching = {}
    for c in contacts:
        for b in pairs[c]:
            touching.setdefault(b, []).append(c)
    ends = [b for b, cs in touching.items() if len(cs) == 1]
    if len(ends) != 2 or any(len(cs) > 2 for cs in touching.values()):
        return None
    start = min(ends, key=lambda b: contacts.index(touching[b][0]))
    order, body, seen = [], start, set()
    while True:
        nxt = [c for c in touching[body] if c not in seen]
        if not nxt:
            break
        seen.add(nxt[0])
        order.append(nxt[0])
        a, b = pairs[nxt[0]]
        body = b if a == body else a
    if len(order) != len(contacts):
        return None
    return order, f"contact index along the chain [-] (0: {start} side)"


def contact_forces(run):
    """normal and tangential forces; a space-time map and the largest few for many contacts"""
    fn = [k for k, p in enumerate(run.parts) if p[1] == "Fn"]
    ft = [k for k, p in enumerate(run.parts) if p[1] == "Ft" and np.any(run.values[:, k] != 0)]
    if not fn:
        return
    if len(fn) <= MANY_CONTACTS:
        panels = [("Fn", fn)] + ([("Ft", ft)] if ft else [])
        fig, axes = stacked(len(panels), 2.6)
        for ax, (q, ks) in zip(axes[:, 0], panels):
            lines(run, ax, ks, "contact")
            word = "normal" if q == "Fn" else "tangential"
            ax.set_ylabel(f"{word} force {q} [N]")
            ax.grid(True, alpha=0.3)
        run.set_xaxis(axes[-1, 0])
        run.save(fig, "contact_forces")
        return
    names = [run.parts[k][0] for k in fn]
    chain = chain_order(run, names)
    if chain is not None:
        # the standard figure of a chain: force along the chain against the abscissa
        order, ylabel = chain
        ks = [fn[names.index(c)] for c in order]
        force = run.values[:, ks].T
        fig, axes = stacked(2, [3.9, 2.6], ratios=[3, 2])
        axes = axes[:, 0]
        vmax = float(np.max(force)) if force.size and np.max(force) > 0 else 1.0
        mesh = axes[0].pcolormesh(run.x, np.arange(len(ks)), force, shading="nearest",
                                  cmap="inferno", vmin=0.0, vmax=vmax, rasterized=True)
        side_colorbar(fig, axes[0], mesh, "normal force Fn [N]")
        axes[0].set_ylabel(ylabel)
        ax = axes[1]
    else:
        fig, axes = stacked(1, 3.2)
        ax = axes[0, 0]
    peaks = np.max(run.values[:, fn], axis=0)
    top = [fn[i] for i in np.argsort(-peaks, kind="stable")[:LARGEST]]
    for i, k in enumerate(top):
        color, dash = style(i)
        ax.plot(run.x, run.values[:, k], color=color, ls=dash, lw=1,
                label=f"{run.parts[k][0]} (peak {np.max(run.values[:, k]):.4g} N)")
    ax.set_ylabel("normal force Fn [N]")
    ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0),
              title=f"{LARGEST} largest of {len(fn)}", title_fontsize="x-small", frameon=False)
    ax.grid(True, alpha=0.3)
    run.set_xaxis(ax)
    run.save(fig, "contact_forces")


def energies(run):
    ks = [k for k, p in enumerate(run.parts) if p[0] == "energy"]
    if not ks:
        return
    fig, axes = stacked(2, [3.0, 2.0], ratios=[3, 2])
    axes = axes[:, 0]
    main_ks = [k for k in ks if run.parts[k][1] != "residual"]
    for i, k in enumerate(main_ks):
        color, dash = style(i)
        axes[0].plot(run.x, run.values[:, k], color=color, ls=dash, lw=1, label=run.parts[k][1])
    for k in ks:
        if run.parts[k][1] == "residual":
            axes[1].plot(run.x, run.values[:, k], color="k", lw=1, label="residual")
    axes[0].set_ylabel("energy [J]")
    axes[1].set_ylabel("energy residual [J]")
    for ax in axes:
        ax.grid(True, alpha=0.3)
        if ax.lines:
            ax.legend(fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0),
                      frameon=False)
    run.set_xaxis(axes[1])
    run.save(fig, "energies")


def clearance_of(run, joint, ex, ey):
    """radial clearance c = R_bearing - R_journal, m: from the scene, else |e| - delta"""
    for c in (run.scene or {}).get("clearance_joints", []):
        if c.get("name") == joint:
            return float(c["bearing_radius"]) - float(c["journal_radius"]), "model"
    delta = run.column(joint, "delta")
    if delta is None:
        return None, None
    return float(np.median(np.hypot(ex, ey) - delta)), "|e| - delta"


def journal_orbit(run):
    joints = [p[0] for p in run.parts if p[1] == "ex"]
    if not joints:
        return
    n = len(joints)
    fig, axes = plt.subplots(1, n, figsize=(6.2 * n, 6.2), squeeze=False, layout="constrained")
    for ax, j in zip(axes[0], joints):
        ex, ey = run.column(j, "ex"), run.column(j, "ey")
        c, origin = clearance_of(run, j, ex, ey)
        ax.plot(ex * 1e3, ey * 1e3, lw=0.7, color=COLORS[0], label="journal centre")
        ax.plot(ex[:1] * 1e3, ey[:1] * 1e3, "o", color=COLORS[1], ms=4, label="start")
        if c is not None and c > 0:
            s = np.linspace(0, 2 * np.pi, 361)
            ax.plot(c * 1e3 * np.cos(s), c * 1e3 * np.sin(s), color="k", lw=1.2,
                    label=f"clearance circle, c = {c * 1e3:.4g} mm ({origin})")
            for r in (0.25, 0.5, 0.75):
                ax.plot(r * c * 1e3 * np.cos(s), r * c * 1e3 * np.sin(s), color="0.6", lw=0.6,
                        ls=":")
                ax.annotate(f"e/c = {r:g}", (r * c * 1e3 * np.cos(np.pi / 4),
                                             r * c * 1e3 * np.sin(np.pi / 4)),
                            fontsize="x-small", color="0.4")
            lim = 1.15 * max(c, float(np.max(np.hypot(ex, ey)))) * 1e3
            ax.set_xlim(-lim, lim)
            ax.set_ylim(-lim, lim)
        ax.set_aspect("equal")
        ax.set_xlabel(f"{j}: journal centre x relative to the bearing centre [mm]")
        ax.set_ylabel("y [mm]")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="x-small", loc="lower left")
    run.save(fig, "journal_orbit")


def draw(run):
    """every figure; the list of files written"""
    figure_by_quantity(run, ["x", "y", "phi"], "coordinates", "body")
    figure_by_quantity(run, ["vx", "vy", "omega"], "velocities", "body")
    figure_by_quantity(run, ["ax", "ay", "alpha"], "accelerations", "body")
    reactions(run)
    beams(run)
    contact_forces(run)
    energies(run)
    journal_orbit(run)
    return run.written


def parse(argv):
    opts = {"out": None, "scene": None, "against": "auto", "formats": ["png"]}
    args = argv[1:]
    run = None
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--out", "--scene", "--against", "--format"):
            if i + 1 >= len(args):
                raise Usage(f"{a} needs a value")
            v = args[i + 1]
            i += 2
            if a == "--against":
                if v not in ("auto", "angle", "time"):
                    raise Usage(f"--against: '{v}' is not auto, angle or time")
                opts["against"] = v
            elif a == "--format":
                fmts = v.split(",")
                bad = [f for f in fmts if f not in ("png", "svg", "pdf")]
                if bad or not v:
                    raise Usage(f"--format: '{v}' is not a list of png, svg, pdf")
                opts["formats"] = list(dict.fromkeys(fmts))
            else:
                opts[a[2:]] = v
        elif a.startswith("-"):
            raise Usage(f"unknown option '{a}'")
        elif run is not None:
            raise Usage("one run directory only")
        else:
            run = a
            i += 1
    if run is None:
        raise Usage("no run directory")
    opts["run"] = run
    return opts


def command_line(argv, prog, parse_fn, doc):
    """a script's options from its command line, or its exit status (help shown, bad usage)"""
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(doc)
        return EXIT_OK
    try:
        return parse_fn(argv)
    except Usage as e:
        print(f"{prog}: {e} (see {prog} --help)", file=sys.stderr)
        return EXIT_DAMAGED


def read_run(run_dir, prog):
    """(summary, names, values) of a run directory, or None once the damage is reported"""
    try:
        if not os.path.isdir(run_dir):
            raise Damaged(f"{run_dir}: not a directory")
        summary = read_summary(run_dir)
        names, values, _labels = read_series(run_dir)
    except Damaged as e:
        print(f"{prog}: damaged run: {e}", file=sys.stderr)
        return None
    return summary, names, values


def main(argv):
    global np, plt
    opts = command_line(argv, PROG, parse, __doc__)
    if isinstance(opts, int):
        return opts
    run_dir = opts["run"]
    out = opts["out"] or run_dir
    try:
        import numpy
        np = numpy
    except ImportError as e:
        print(f"{PROG}: NumPy is not available ({e}); install python3-numpy",
              file=sys.stderr)
        return EXIT_NO_MATPLOTLIB
    run_read = read_run(run_dir, PROG)
    if run_read is None:
        return EXIT_DAMAGED
    summary, names, values = run_read
    scene = None
    if opts["scene"]:
        try:
            with open(opts["scene"]) as f:
                scene = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{PROG}: {opts['scene']}: not a scene file ({e})", file=sys.stderr)
            return EXIT_DAMAGED
    try:
        import matplotlib
        matplotlib.use("Agg")
        matplotlib.rcParams["svg.fonttype"] = "none"  # SVG text stays text (editable)
        matplotlib.rcParams["pdf.fonttype"] = 42  # TrueType in PDF, as journals ask
        import matplotlib.pyplot as pyplot
        plt = pyplot
    except ImportError as e:
        print(f"{PROG}: matplotlib is not available ({e}); install python3-matplotlib",
              file=sys.stderr)
        return EXIT_NO_MATPLOTLIB
    run = Run(names, values, summary, scene, opts["against"], opts["formats"], out)
    run.inputs = run_inputs(run_dir, summary, scene, opts["scene"])
    if scene is None and opts["against"] == "auto":
        print(f"{PROG}: note: no scene file (the run's model was not found): figures "
              "against time", file=sys.stderr)
    if opts["against"] == "angle" and not run.angle:
        print(f"{PROG}: --against angle: the model of {run_dir} has no rotational driver"
              + ("" if scene else " (or its model file was not found)"), file=sys.stderr)
        return EXIT_DAMAGED
    try:
        os.makedirs(out, exist_ok=True)
        written = draw(run)
    except InputClash as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return EXIT_DAMAGED
    except OSError as e:
        print(f"{PROG}: {e.filename or out}: cannot write: {e.strerror}", file=sys.stderr)
        return EXIT_IO
    for w in written:
        print(w)
    if summary["status"] != "ok":
        print(f"{PROG}: {run_dir}: the run {summary['status']} at t = "
              f"{summary.get('t_end_reached')} s ({summary.get('message')}); figures drawn up "
              "to there and marked", file=sys.stderr)
        return EXIT_MARKED
    return EXIT_OK


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Exception as e:  # noqa: BLE001 -- the user gets one line, never a traceback
        print(f"{PROG}: cannot draw {sys.argv[1] if len(sys.argv) > 1 else ''}: "
              f"{type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
