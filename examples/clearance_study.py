#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Clearance-size study of the slider-crank with a revolute clearance joint
(models/slider_crank_clearance.xml: the benchmark of Flores, Ambrosio, Claro and
Lankarani, crank at 5000 rpm, Lankarani-Nikravesh contact with restitution 0.9,
Coulomb friction 0.01).

For each radial clearance c (the bearing radius stays 10 mm; the journal radius
becomes 10 mm - c, through the override revolute_clearance[rod_slider].clearance)
the mechanism is simulated with clink and three figures are taken from the
arrays: the peak slider acceleration |a_x|, the number of impacts in the
clearance joint, and the largest journal eccentricity |e| (journal centre -
bearing centre; |e| > c is penetration). Writes a table (CSV) and a figure of
the three against c; prints the table.

    python3 examples/clearance_study.py [--t-end 0.048] [--out out/clearance_study]
                                        [--sizes 0.02,0.05,0.1,0.25,0.5,1.0] [--no-figure]

Needs the package clink (docs/python.md: PYTHONPATH=python and
CLINK_LIBRARY=build/libclink.so in a build tree) and NumPy; matplotlib for the figure.
"""

import argparse
import csv
import os
import sys

import numpy as np

import clink

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(os.path.dirname(HERE), "models", "slider_crank_clearance.xml")
SIZES_MM = (0.02, 0.05, 0.1, 0.25, 0.5, 1.0)
JOINT = "rod_slider"


def one(clearance, t_end, model=MODEL):
    """The figures of one clearance (m) over [0, t_end] s: a dict."""
    m = clink.load(model, set={"revolute_clearance[%s].clearance" % JOINT: clearance,
                               "settings.t_end": t_end})
    r = m.simulate()
    slider = r.body("slider")
    ecc = r.contacts[JOINT].eccentricity
    impacts = r.impacts[r.impacts["name"] == JOINT]
    m.close()
    return {
        "clearance_m": clearance,
        "peak_slider_acceleration_m_s2": float(np.max(np.abs(r.a[:, slider, 0]))),
        "impacts": int(len(impacts)),
        "max_eccentricity_m": float(np.max(np.hypot(ecc[:, 0], ecc[:, 1]))),
        "steps": r.summary["steps"],
        "status": r.summary["status"],
    }


def study(sizes_mm=SIZES_MM, t_end=0.048, model=MODEL):
    return [one(c * 1e-3, t_end, model) for c in sizes_mm]


def write_table(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        for row in rows:
            w.writerow({k: repr(v) if isinstance(v, float) else v for k, v in row.items()})


def draw(rows, path, t_end):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    c = np.array([r["clearance_m"] for r in rows]) * 1e3
    fig, ax = plt.subplots(1, 3, figsize=(12, 3.6))
    ax[0].plot(c, [r["peak_slider_acceleration_m_s2"] / 1e3 for r in rows], "o-")
    ax[0].set_ylabel("peak slider acceleration |a_x| (km/s$^2$)")
    ax[1].plot(c, [r["impacts"] for r in rows], "o-")
    ax[1].set_ylabel("impacts in the clearance joint")
    ax[2].plot(c, [r["max_eccentricity_m"] * 1e3 for r in rows], "o-", label="max |e|")
    ax[2].plot(c, c, "k--", lw=0.8, label="|e| = c")
    ax[2].set_ylabel("max journal eccentricity (mm)")
    ax[2].legend()
    for a in ax:
        a.set_xscale("log")
        a.set_xlabel("radial clearance c (mm)")
        a.grid(True, which="both", alpha=0.3)
    fig.suptitle("Slider-crank with a revolute clearance joint, 5000 rpm, %g s" % t_end)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--t-end", type=float, default=0.048, help="simulated time, s")
    ap.add_argument("--out", default="out/clearance_study", help="output directory")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES_MM)),
                    help="radial clearances, mm, comma-separated")
    ap.add_argument("--no-figure", action="store_true", help="write the table only")
    a = ap.parse_args(argv)
    sizes = [float(x) for x in a.sizes.split(",")]
    os.makedirs(a.out, exist_ok=True)
    rows = study(sizes, a.t_end)
    write_table(rows, os.path.join(a.out, "clearance_study.csv"))
    if not a.no_figure:
        draw(rows, os.path.join(a.out, "clearance_study.png"), a.t_end)
    print("%10s %14s %8s %14s %8s" % ("c [mm]", "peak |ax| [m/s2]", "impacts", "max |e| [mm]",
                                      "status"))
    for r in rows:
        print("%10.3f %16.6g %8d %14.6f %8s" % (r["clearance_m"] * 1e3,
                                                r["peak_slider_acceleration_m_s2"],
                                                r["impacts"], r["max_eccentricity_m"] * 1e3,
                                                r["status"]))
    return 0 if all(r["status"] == "ok" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
