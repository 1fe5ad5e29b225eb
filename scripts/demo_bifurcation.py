#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The demo's bifurcation figure as a PNG: the samples of SWEEP_DIR/bifurcation.csv,
written by `clink bifurcation SWEEP_DIR COLUMN` (docs/nonlinear.md) over a `clink sweep`
of the ball on a vibrating table (examples/bouncing_ball_bifurcation.xml): each swept
value (its first column, drawn in mm when it is an amplitude in m, in rpm when it is a
motor's rate in rad/s) against its Poincare samples of COLUMN (the second column; in mm
when it is an eccentricity, NAME.e, in m), one dot per sample. `clink bifurcation` draws the
same points in SWEEP_DIR/bifurcation.svg; this is the same diagram for viewers without SVG.

usage: demo_bifurcation.py SWEEP_DIR OUT.png
Prints the number of values and samples, as read (`clink bifurcation` prints the distinct
points per value).
"""
import os
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    path = os.path.join(argv[1], "bifurcation.csv")
    with open(path) as f:
        parameter, column = f.readline().rstrip("\n").split(",")[:2]
    data = np.genfromtxt(path, delimiter=",", skip_header=1, ndmin=2)
    if data.shape[0] == 0:
        raise SystemExit(f"{path}: no samples")
    values = np.unique(data[:, 0])
    scale, unit = (1e3, " [mm]") if parameter.endswith("amplitude") else (1.0, "")
    if parameter.endswith("linear.rate"):  # a motor's speed: rad/s drawn in rpm
        scale, unit = 30.0 / np.pi, " [rpm]"
    yscale, yunit = (1e3, " [mm]") if column.endswith(".e") else (1.0, "")
    fig, ax = plt.subplots(figsize=(9, 5.5))
    ax.plot(scale * data[:, 0], yscale * data[:, 1], ".", color="#1f77b4", ms=2)
    ax.set_xlabel(parameter + unit)
    ax.set_ylabel(column + yunit + " at the Poincare section")
    ax.set_title(f"bifurcation diagram: {len(values)} values, {data.shape[0]} samples "
                 "(clink sweep, clink bifurcation)")
    fig.tight_layout()
    fig.savefig(argv[2], dpi=120)
    print(f"{len(values)} values of {parameter} from {values[0]:g} to {values[-1]:g}, "
          f"{data.shape[0]} samples of {column}")
    print(argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
