#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Figures of the two-pendulum impact (Poursina and Nikravesh 2020, Sect. 6) from the CSV files of
validation/val_double_pendulum.c: the angular rates of both rods for the three
treatments (as Poursina and Nikravesh (2020), Fig. 11) and the force-penetration loop of the first
impact of the two continuous laws (as Fig. 12).

usage: plot_double_pendulum.py RESULTS_DIR OUT_DIR
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    rows = {}
    with open(path) as f:
        r = csv.reader(f)
        next(r)
        for row in r:
            rows.setdefault(row[0], []).append([float(x) for x in row[1:]])
    return rows


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    rates = read(os.path.join(src, "double_pendulum_rates.csv"))
    fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    for name, rows in rates.items():
        t = [r[0] for r in rows]
        axes[0].plot(t, [r[1] for r in rows], lw=1, label=name)
        axes[1].plot(t, [r[2] for r in rows], lw=1, label=name)
    axes[0].set_ylabel("rod 1 angular rate [rad/s]")
    axes[1].set_ylabel("rod 2 angular rate [rad/s]")
    axes[1].set_xlabel("t [s]")
    for ax in axes:
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize="small")
    fig.suptitle("Two-pendulum impact (Poursina and Nikravesh 2020, Sect. 6): three treatments, computed by clink")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "double_pendulum_rates.png"), dpi=110)
    loop = read(os.path.join(src, "double_pendulum_loop.csv"))
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for name, rows in loop.items():
        ax.plot([1e3 * r[1] for r in rows], [r[2] for r in rows], lw=1, label=name)
    ax.set_xlabel("penetration [mm]")
    ax.set_ylabel("normal force [N]")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    fig.suptitle("First impact: force against penetration (as Poursina and Nikravesh (2020), Fig. 12)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "double_pendulum_loop.png"), dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
