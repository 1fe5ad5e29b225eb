#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The demo's flexible-rod figure: the clearance slider-crank with its rigid connecting rod
(models/slider_crank_clearance.xml) beside the same mechanism with the rod a steel beam of 8
elements (models/slider_crank_flexible_rod.xml, docs/flexible.md), both run by `clink run`,
three panels:
  - the journal's orbit in the clearance circle (mm, rod_slider.ex and .ey);
  - the slider's acceleration against the crank angle (degrees);
  - the rod's mid-point deflection against the crank angle: the distance of the middle node
    rod.4 from the chord rod.0 - rod.8 (um); the rigid rod's is zero.
The rigid run is drawn over the flexible run's time span only (one revolution when run
with the shipped flexible model).

usage: demo_flexible.py RIGID_RUN FLEXIBLE_RUN OUT.png
Reads the runs with the viewer's reader (python/clink/viz/rundir.py); prints, as computed,
the largest eccentricity ratio and the largest |slider ax| of each run and the flexible rod's
largest mid-point deflection.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python",
                                "clink"))
from viz import rundir  # noqa: E402  (the viewer alone, as clink plot runs it)

CLEARANCE = 0.5e-3  # m: bearing radius 10 mm, journal 9.5 mm (both models)


def columns(run_dir, t_end=None):
    """{column name without its unit: values} of a run, cut at t_end (s) when given"""
    names, values, _ = rundir.read_series(run_dir)
    col = {n.split(" [")[0]: values[:, k] for k, n in enumerate(names)}
    if t_end is not None:
        keep = col["t"] <= t_end * (1 + 1e-12)
        col = {n: v[keep] for n, v in col.items()}
    return col


def deflection(col):
    """distance of rod.4 from the chord rod.0 - rod.8, m"""
    import numpy as np
    ax, ay, bx, by = col["rod.0.x"], col["rod.0.y"], col["rod.8.x"], col["rod.8.y"]
    cx, cy = col["rod.4.x"], col["rod.4.y"]
    dx, dy = bx - ax, by - ay
    return ((cx - ax) * dy - (cy - ay) * dx) / np.hypot(dx, dy)


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    flex = columns(argv[2])
    rigid = columns(argv[1], flex["t"][-1])
    fig, (orbit, acc, mid) = plt.subplots(1, 3, figsize=(17, 5),
                                          gridspec_kw={"width_ratios": [1, 1.5, 1.5]})
    th = np.linspace(0, 2 * np.pi, 400)
    orbit.plot(1e3 * CLEARANCE * np.cos(th), 1e3 * CLEARANCE * np.sin(th), color="0.3", lw=1)
    for col, label, color in ((rigid, "rigid rod", "#1f77b4"),
                              (flex, "flexible rod (8 beam elements)", "#d62728")):
        angle = np.degrees(col["crank.phi"] - col["crank.phi"][0])
        ex, ey, sax = col["rod_slider.ex"], col["rod_slider.ey"], col["slider.ax"]
        orbit.plot(1e3 * ex, 1e3 * ey, color=color, lw=0.7, label=label)
        acc.plot(angle, sax, color=color, lw=0.7, label=label)
        print(f"{label}: {len(angle)} rows to {angle[-1]:.1f} deg, largest e/c "
              f"{np.max(np.hypot(ex, ey)) / CLEARANCE:.3f}, largest |slider ax| "
              f"{np.max(np.abs(sax)):.4g} m/s^2")
    angle = np.degrees(flex["crank.phi"] - flex["crank.phi"][0])
    w = deflection(flex)
    mid.plot(angle, 1e6 * w, color="#d62728", lw=0.7, label="flexible rod")
    mid.axhline(0.0, color="#1f77b4", lw=0.7, label="rigid rod")
    print(f"flexible rod: largest |mid-point deflection| {np.max(np.abs(w)):.4g} m")
    orbit.set_aspect("equal")
    orbit.set_xlabel("journal centre - bearing centre, x [mm]")
    orbit.set_ylabel("y [mm]")
    orbit.set_title("journal orbit in the 0.5 mm clearance circle")
    orbit.legend(loc="center", fontsize="x-small")
    acc.set_xlabel("crank angle [deg]")
    acc.set_ylabel("slider acceleration ax [m/s^2]")
    acc.set_title("slider acceleration")
    acc.legend(loc="upper right", fontsize="small")
    mid.set_xlabel("crank angle [deg]")
    mid.set_ylabel("rod.4 from the chord rod.0 - rod.8 [um]")
    mid.set_title("rod mid-point deflection")
    mid.legend(loc="upper right", fontsize="small")
    fig.suptitle("clearance slider-crank at 5000 rpm: rigid against flexible connecting rod")
    fig.tight_layout()
    fig.savefig(argv[3], dpi=110)
    print(argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
