# SPDX-License-Identifier: BSD-3-Clause
"""Figures of one `clink kinematics -o DIR` output directory, drawn with matplotlib.

    python3 -m clink.viz.kinplot DIR [--out OUTDIR] [--format png[,svg,pdf]]

Reads DIR/kinematics.csv and DIR/kinematics.json (docs/cli.md, `clink kinematics`) and
writes into OUTDIR (default DIR), in every format asked (PNG by default):

    kinematics_positions       x, y and phi of every body against the driver
    kinematics_velocities      vx, vy and omega (per unit driver rate, or at --rate)
    kinematics_accelerations   ax, ay and alpha
    transmission               each transmission angle (deg) and sigma_min / sigma_max
                               of the constraint Jacobian (log scale) against the driver
    coupler_curves             the path of every joint point that moves, in the plane
                               (equal axes)

On every figure against the driver, the dead points (kinematics.json "dead_points") are
dashed vertical lines and the driver values where assembly fails ("assembly_fails") grey
bands half a step wide each side; on the coupler curves the joint points at the dead
points are crosses, and the curves break where assembly fails (empty fields).

Called by `clink plot DIR` when DIR holds kinematics.csv; prints one line per file written.

Exit status: 0 figures written; 2 the directory is damaged or a bad option; 3 a figure could
not be written; 4 matplotlib or NumPy is not available.
"""
import json
import os
import sys

from . import plot

PROG = "clink plot"
np = None
plt = None


def parse(argv):
    o = {"out": None, "formats": ["png"], "dir": None}
    args, i = argv[1:], 0
    while i < len(args):
        a = args[i]
        if a in ("--out", "--format"):
            if i + 1 >= len(args):
                raise plot.Usage(f"{a} needs a value")
            if a == "--out":
                o["out"] = args[i + 1]
            else:
                fmts = args[i + 1].split(",")
                if any(f not in ("png", "svg", "pdf") for f in fmts):
                    raise plot.Usage(f"--format: '{args[i + 1]}' is not a list of png, svg, pdf")
                o["formats"] = list(dict.fromkeys(fmts))
            i += 2
        elif a.startswith("-"):
            raise plot.Usage(f"unknown option '{a}'")
        elif o["dir"] is not None:
            raise plot.Usage("one directory only")
        else:
            o["dir"] = a
            i += 1
    if o["dir"] is None:
        raise plot.Usage("no kinematics directory")
    return o


def read(d):
    """(header, values with NaN where assembly fails, kinematics.json)"""
    csv, js = os.path.join(d, "kinematics.csv"), os.path.join(d, "kinematics.json")
    try:
        with open(csv) as f:
            header = f.readline().rstrip("\r\n").split(",")
        values = np.genfromtxt(csv, delimiter=",", skip_header=1, ndmin=2,
                               missing_values="", filling_values=np.nan)
        with open(js) as f:
            info = json.load(f)
    except OSError as e:
        raise plot.Damaged(f"{e.filename}: cannot read: {e.strerror}") from None
    except ValueError as e:
        raise plot.Damaged(f"{d}: not the output of clink kinematics ({e})") from None
    if header[:2] != ["driver", "assembled"] or values.shape[1] != len(header):
        raise plot.Damaged(f"{csv}: not a kinematics.csv of clink kinematics")
    return header, values, info


class Figures:
    def __init__(self, d, out, formats, header, values, info):
        self.col = {h: k for k, h in enumerate(header)}
        self.v, self.info, self.out, self.formats = values, info, out, formats
        self.u = values[:, 0]
        self.bodies = [h[:-2] for h in header if h.endswith(".x") and h[:-2] + ".phi" in self.col]
        self.joints = [h[:-3] for h in header if h.endswith(".px")]
        self.title = os.path.basename(os.path.normpath(d))
        self.written = []

    def marks(self, ax):
        """dead points as dashed lines, failed assembly as grey bands"""
        step = float(np.min(np.diff(self.u))) if len(self.u) > 1 else 0.0
        step = abs(step) / 2
        for k, u in enumerate(self.info.get("assembly_fails", [])):
            ax.axvspan(u - step, u + step, color="0.85", lw=0,
                       label="assembly fails" if k == 0 else None)
        for k, u in enumerate(self.info.get("dead_points", [])):
            ax.axvline(u, color="red", ls="--", lw=1, label="dead point" if k == 0 else None)

    def against_driver(self, stem, quantities, units):
        fig, axes = plt.subplots(3, 1, figsize=(8, 8), sharex=True)
        for ax, q, unit in zip(axes, quantities, units):
            for b in self.bodies:
                ax.plot(self.u, self.v[:, self.col[f"{b}.{q}"]], label=b)
            self.marks(ax)
            ax.set_ylabel(f"{q} [{unit}]")
            ax.grid(alpha=0.3)
        axes[0].legend(fontsize=8, loc="best")
        axes[-1].set_xlabel("driver value [rad or m]")
        self.save(fig, stem)

    def transmission(self):
        fig, (a1, a2) = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
        for h, k in self.col.items():
            if h.startswith("transmission_") and h.endswith("_deg"):
                a1.plot(self.u, self.v[:, k], label=h[len("transmission_"):-4])
        a1.set_ylabel("transmission angle [deg]")
        a2.semilogy(self.u, self.v[:, self.col["sigma_ratio"]], color="black")
        a2.set_ylabel("sigma_min / sigma_max")
        for ax in (a1, a2):
            self.marks(ax)
            ax.grid(alpha=0.3)
        a1.legend(fontsize=8, loc="best")
        a2.set_xlabel("driver value [rad or m]")
        self.save(fig, "transmission")

    def coupler_curves(self):
        fig, ax = plt.subplots(figsize=(8, 6))
        dead = np.isin(self.u, np.asarray(self.info.get("dead_points", []), float))
        for j in self.joints:
            x, y = self.v[:, self.col[f"{j}.px"]], self.v[:, self.col[f"{j}.py"]]
            if not (np.nanmax(x) - np.nanmin(x) > 0 or np.nanmax(y) - np.nanmin(y) > 0):
                continue  # a point that does not move (a ground pivot)
            line, = ax.plot(x, y, label=j)
            if dead.any():
                ax.plot(x[dead], y[dead], "x", color=line.get_color(), ms=9, mew=2)
        if dead.any():
            ax.plot([], [], "kx", ms=9, mew=2, label="at a dead point")
        ax.set_aspect("equal", adjustable="datalim")
        ax.set_xlabel("x [m]")
        ax.set_ylabel("y [m]")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="best")
        self.save(fig, "coupler_curves")

    def save(self, fig, stem):
        fig.suptitle(f"{self.title}: {stem.replace('_', ' ')}")
        for fmt in self.formats:
            path = os.path.join(self.out, f"{stem}.{fmt}")
            plot.write_replacing(path, lambda tmp, fmt=fmt: fig.savefig(
                tmp, format=fmt, dpi=150 if fmt == "png" else None))
            self.written.append(path)
        plt.close(fig)


def main(argv):
    global np, plt
    o = plot.command_line(argv, PROG, parse, __doc__)
    if isinstance(o, int):
        return o
    try:
        import numpy
        np = numpy
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
        plt = pyplot
    except ImportError as e:
        print(f"{PROG}: {e}; install python3-numpy and python3-matplotlib", file=sys.stderr)
        return plot.EXIT_NO_MATPLOTLIB
    try:
        header, values, info = read(o["dir"])
    except plot.Damaged as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return plot.EXIT_DAMAGED
    out = o["out"] or o["dir"]
    f = Figures(o["dir"], out, o["formats"], header, values, info)
    try:
        os.makedirs(out, exist_ok=True)
        f.against_driver("kinematics_positions", ("x", "y", "phi"), ("m", "m", "rad"))
        f.against_driver("kinematics_velocities", ("vx", "vy", "omega"),
                         ("m/s", "m/s", "rad/s"))
        f.against_driver("kinematics_accelerations", ("ax", "ay", "alpha"),
                         ("m/s^2", "m/s^2", "rad/s^2"))
        f.transmission()
        f.coupler_curves()
    except OSError as e:
        print(f"{PROG}: {e.filename or out}: cannot write: {e.strerror}", file=sys.stderr)
        return plot.EXIT_IO
    for p in f.written:
        print(p)
    return plot.EXIT_OK


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except Exception as e:  # noqa: BLE001 -- the user gets one line, never a traceback
        print(f"{PROG}: cannot draw {sys.argv[1] if len(sys.argv) > 1 else ''}: "
              f"{type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)
