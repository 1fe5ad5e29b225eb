#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Work-precision diagrams (Hairer's) from bench_work_precision's JSON.

Usage: plot_work_precision.py WORK_PRECISION.json OUT.png

One column per problem (IFToMM A01, A02, A03 against their independent
references; the clearance slider-crank against its rtol 1e-12 run, first
10 ms): error against right-hand-side evaluations (top) and against CPU time
(bottom), one line per method, the points labelled by rtol exponent.
"""
import json
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PROBLEMS = [
    ("iftomm_a01", "error", "A01 pendulum, 2000 s: max |r - r_exact| (m)"),
    ("iftomm_a02", "error", "A02 N-four-bar, 20 s: max |B0 - B0_ref| (m)"),
    ("iftomm_a03", "error", "A03 Andrews, t = 0.03 s: max angle error (rad)"),
    ("slider_crank_clearance", "err_pos_m", "clearance slider-crank, 10 ms: max position error (m)"),
]


COLOURS = {"Adams+Baumgarte": "C0", "BDF+projection": "C1", "BDF+Baumgarte": "C2"}


def main():
    rows = json.load(open(sys.argv[1]))["rows"]
    fig, axes = plt.subplots(2, len(PROBLEMS), figsize=(4.2 * len(PROBLEMS), 7.5))
    for col, (model, key, title) in enumerate(PROBLEMS):
        mine = [r for r in rows if r["model"] == model and r.get(key) is not None]
        methods = sorted({r["method"] for r in mine})
        for method in methods:
            pts = sorted((r for r in mine if r["method"] == method and r[key] > 0),
                         key=lambda r: -r["rtol"])
            if not pts:
                continue
            err = [r[key] for r in pts]
            work = [r["rhs"] + r.get("rhs_fd", 0) for r in pts]
            cpu = [r["cpu_s"] for r in pts]
            for row, x in ((0, work), (1, cpu)):
                ax = axes[row][col]
                ax.loglog(x, err, "o-", label=method, ms=4, color=COLOURS.get(method))
                for xi, ei, r in zip(x, err, pts):
                    ax.annotate("%d" % round(-math.log10(r["rtol"])), (xi, ei),
                                fontsize=6, xytext=(3, 2), textcoords="offset points")
        axes[0][col].set_title(title, fontsize=8)
        axes[0][col].set_xlabel("right-hand sides")
        axes[1][col].set_xlabel("CPU time (s)")
        for row in (0, 1):
            axes[row][col].axhspan(1e-10, 1e-4, color="0.93", zorder=0)
            axes[row][col].grid(True, which="both", lw=0.3)
            axes[row][col].legend(fontsize=7)
        axes[0][col].set_ylabel("error")
        axes[1][col].set_ylabel("error")
    fig.suptitle("clink work-precision diagrams (labels: -log10 rtol; shaded: errors 1e-4 ... 1e-10)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
