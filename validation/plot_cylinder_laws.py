#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Figures of the conformal cylinder laws (validation/val_cylinder_laws.c):

  cylinder_laws_curves.png  force against penetration of every law for a steel journal
                            in a 10 mm bearing, L = 20 mm, clearances 10, 100 and 500 um
                            (the independent evaluation of ref_cylinder_laws.py), with
                            Hertz's sphere law (journal stiffness) dashed
  cylinder_laws_orbit.png   the journal-centre orbit of the clearance slider-crank
                            (0.024-0.048 s) with Hertz (lankarani-nikravesh), Johnson and
                            Pereira, inside the clearance circle

usage: plot_cylinder_laws.py RESULTS_DIR OUT_DIR
"""
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LAWS = ["johnson-cylinder", "radzimovsky", "goldsmith", "esdu-78035",
        "dubowsky-freudenstein", "lankarani-flores-cylinder", "pereira",
        "liu-zhang-wang", "bai-zhao"]
CLEARANCES = (10.0, 100.0, 500.0)
E, NU, RB = 2.07e11, 0.29, 10e-3


def curves(res, out):
    ref = {}
    with open(os.path.join(res, "cylinder_laws_ref.csv")) as f:
        for key, val in csv.reader(f):
            ref[key] = float(val)
    es = 1.0 / (2.0 * (1.0 - NU * NU) / E)
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2))
    for ax, c in zip(axes, CLEARANCES):
        for law in LAWS:
            pre = f"{law}.{c:g}."
            pts = sorted((float(k[len(pre):]), v) for k, v in ref.items()
                         if k.startswith(pre) and not k.endswith("limit"))
            if pts:
                ax.plot([p[0] for p in pts], [p[1] / 1e3 for p in pts], marker="o", ms=3,
                        label=law)
        rj = RB - c * 1e-6
        k = 4.0 / 3.0 * es * math.sqrt(rj * RB / (c * 1e-6))
        ds = [0.1 * 1.1 ** i for i in range(60) if 0.1 * 1.1 ** i <= 20]
        ax.plot(ds, [k * (d * 1e-6) ** 1.5 / 1e3 for d in ds], "k--", label="hertz (sphere)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"clearance {c:g} um")
        ax.set_xlabel("penetration [um]")
    axes[0].set_ylabel("force [kN]")
    axes[2].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "cylinder_laws_curves.png"), dpi=110)
    plt.close(fig)


def orbit(res, out):
    runs = {}
    with open(os.path.join(res, "cylinder_laws_orbit.csv")) as f:
        r = csv.reader(f)
        next(r)
        for row in r:
            t = float(row[1])
            if 0.024 <= t <= 0.048:
                runs.setdefault(row[0], []).append((float(row[2]), float(row[3])))
    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    th = [2 * math.pi * i / 360 for i in range(361)]
    ax.plot([0.5 * math.cos(a) for a in th], [0.5 * math.sin(a) for a in th], "k:",
            label="clearance")
    for law in ("lankarani-nikravesh", "johnson-cylinder", "pereira"):
        if law in runs:
            ax.plot([p[0] * 1e3 for p in runs[law]], [p[1] * 1e3 for p in runs[law]], lw=0.7,
                    label=law)
    ax.set_aspect("equal")
    ax.set_xlabel("ex [mm]")
    ax.set_ylabel("ey [mm]")
    ax.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "cylinder_laws_orbit.png"), dpi=110)
    plt.close(fig)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    curves(sys.argv[1], sys.argv[2])
    orbit(sys.argv[1], sys.argv[2])


if __name__ == "__main__":
    main()
