#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Figures of the slider-crank with a revolute clearance joint (5000 rpm,
clearance 0.5 mm) as the clearance-joint literature draws them, from the CSV
file of validation/val_slider_crank_clearance.c: two crank revolutions after
the transient (0.024-0.048 s), crank angle measured from the start of that
window, with and without friction, beside the ideal mechanism.

  slider_crank_acceleration.png  slider acceleration, ideal joint dashed
  slider_crank_orbit.png         journal-centre orbit inside the clearance circle
  slider_crank_force.png         contact force (ideal joint reaction dashed)
  slider_crank_moment.png        crank driving moment, ideal joint dashed

usage: plot_slider_crank.py RESULTS_DIR OUT_DIR
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

T0, T1 = 0.024, 0.048  # the literature's window: two revolutions at 5000 rpm
CLEARANCE_MM = 0.5
RUNS = [("friction", "with friction (mu = 0.01)"), ("frictionless", "frictionless")]


def read(path):
    """Columns per run: t, angle [deg], ax, ex, ey, force, moment."""
    runs = {}
    with open(path) as f:
        r = csv.reader(f)
        next(r)
        for row in r:
            t = float(row[1])
            if T0 - 1e-9 <= t <= T1 + 1e-9:
                runs.setdefault(row[0], []).append([float(x) for x in row[1:]])
    cols = {}
    for name, rows in runs.items():
        cols[name] = list(zip(*rows))
    return cols


def angle(c):
    """Crank angle from the start of the window, degrees (0 to 720)."""
    a0 = c[1][0] - (c[0][0] - T0) * 5000 * 360 / 60
    return [a - a0 for a in c[1]]


def against_angle(data, column, ylabel, title, ideal_label, out, scale=1.0):
    fig, axes = plt.subplots(2, 1, figsize=(8, 6.5), sharex=True)
    ideal = data["ideal"]
    for ax, (name, label) in zip(axes, RUNS):
        c = data[name]
        ax.plot(angle(c), [scale * y for y in c[column]], lw=0.7, color="tab:blue",
                label="clearance joint, " + label)
        ax.plot(angle(ideal), [scale * y for y in ideal[column]], "k--", lw=1.0,
                label=ideal_label)
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small", loc="best")
    axes[1].set_xlabel("crank angle from t = 0.024 s [deg]")
    axes[1].set_xlim(0, 720)
    axes[1].set_xticks(range(0, 721, 90))
    fig.suptitle(title, fontsize="medium")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    data = read(os.path.join(src, "slider_crank_clearance.csv"))
    sub = "\nslider-crank, 5000 rpm, clearance 0.5 mm, 0.024-0.048 s (computed by clink)"

    against_angle(data, 2, "slider acceleration [m/s$^2$]",
                  "Slider acceleration" + sub, "ideal joint",
                  os.path.join(out, "slider_crank_acceleration.png"))
    against_angle(data, 5, "contact force [kN]", "Contact force in the clearance joint" + sub,
                  "ideal joint: reaction force", os.path.join(out, "slider_crank_force.png"),
                  scale=1e-3)
    against_angle(data, 6, "crank driving moment [N m]", "Crank driving moment" + sub,
                  "ideal joint", os.path.join(out, "slider_crank_moment.png"))

    fig, axes = plt.subplots(1, 2, figsize=(10, 5.2))
    circ = [2 * math.pi * i / 360 for i in range(361)]
    for ax, (name, label) in zip(axes, RUNS):
        c = data[name]
        ax.plot([CLEARANCE_MM * math.cos(a) for a in circ],
                [CLEARANCE_MM * math.sin(a) for a in circ], "k--", lw=1.0,
                label="clearance circle (0.5 mm)")
        ax.plot([1e3 * x for x in c[3]], [1e3 * y for y in c[4]], lw=0.6, color="tab:blue",
                label="journal centre")
        ax.set_aspect("equal")
        lim = 1.15 * CLEARANCE_MM
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.set_xlabel("eccentricity x [mm]")
        ax.set_ylabel("eccentricity y [mm]")
        ax.set_title(label, fontsize="medium")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small", loc="lower right")
    fig.suptitle("Journal-centre orbit relative to the bearing centre" + sub, fontsize="medium")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "slider_crank_orbit.png"), dpi=110)
    plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
