#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The demo's dry against lubricated figure: the clearance slider-crank with its joint dry
(out/demo/slider_crank_clearance) and in oil (out/demo/slider_crank_lubricated), both run
by `clink run`: the journal's orbit inside the clearance circle (mm) and the slider's
acceleration against the crank angle (degrees), one figure, two panels.

usage: demo_lubricated.py DRY_RUN LUBRICATED_RUN OUT.png
Reads the runs with the viewer's reader (python/clink/viz/rundir.py); prints the largest
eccentricity ratio and the largest slider acceleration of each run, as computed.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python",
                                "clink"))
from viz import rundir  # noqa: E402  (the viewer alone, as clink plot runs it)

CLEARANCE = 0.5e-3  # m: bearing radius 10 mm, journal 9.5 mm (both models)


def series(run_dir):
    import numpy as np
    names, values, _ = rundir.read_series(run_dir)
    col = {n.split(" [")[0]: values[:, k] for k, n in enumerate(names)}
    angle = np.degrees(col["crank.phi"] - col["crank.phi"][0])
    return angle, col["rod_slider.ex"], col["rod_slider.ey"], col["slider.ax"]


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    fig, (orbit, acc) = plt.subplots(1, 2, figsize=(12, 5),
                                     gridspec_kw={"width_ratios": [1, 1.6]})
    th = np.linspace(0, 2 * np.pi, 400)
    orbit.plot(1e3 * CLEARANCE * np.cos(th), 1e3 * CLEARANCE * np.sin(th), color="0.3", lw=1)
    for run, label, color in ((argv[1], "dry", "#d62728"), (argv[2], "lubricated", "#1f77b4")):
        angle, ex, ey, ax = series(run)
        orbit.plot(1e3 * ex, 1e3 * ey, color=color, lw=0.7, label=label)
        acc.plot(angle, ax, color=color, lw=0.7, label=label)
        e_max = np.max(np.hypot(ex, ey)) / CLEARANCE
        print(f"{label}: largest e/c {e_max:.3f}, largest |slider ax| "
              f"{np.max(np.abs(ax)):.4g} m/s^2")
    orbit.set_aspect("equal")
    orbit.set_xlabel("journal centre - bearing centre, x [mm]")
    orbit.set_ylabel("y [mm]")
    orbit.set_title("journal orbit in the 0.5 mm clearance circle")
    orbit.legend(loc="upper right", fontsize="small")
    acc.set_xlabel("crank angle [deg]")
    acc.set_ylabel("slider acceleration ax [m/s^2]")
    acc.set_title("slider acceleration")
    acc.legend(loc="upper right", fontsize="small")
    fig.suptitle("clearance slider-crank at 5000 rpm: dry joint against a lubricated one")
    fig.tight_layout()
    fig.savefig(argv[3], dpi=120)
    print(argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
