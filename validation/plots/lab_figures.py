#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Figures of the contact-law laboratory's validation cases (docs/contact-laws.md
sections 1-3), drawn from the CSV files the validation programs write:

  feng_alpha.png        Feng (2026), Fig. 1: alpha vs e (Eq. 14 lines, calibrated circles)
  feng_delta_max.png    Feng (2026), Fig. 3: delta_max vs e (Eq. 15 lines, integrated circles)
  feng_fig4.png         Feng (2026), Fig. 4: tau(alpha)/tau(0) vs alpha_eff
  feng_portraits.png    Feng (2026), Fig. 5: phase portraits, p = 3/2
  alves_loops.png       Alves et al. (2015), Fig. 3: force-indentation loops, two spheres
  alves_portraits.png   Alves et al. (2015), Fig. 4: phase portraits, two spheres
  poursina_fig8.png     Poursina and Nikravesh (2020), Fig. 8: largest |e_out - e| over 300 random sets

usage: lab_figures.py [RESULTS_DIR [FIGURE_DIR]]
(defaults build/validation-results and docs/figures)
"""
import csv
import os
import sys
from collections import OrderedDict, defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path) as f:
        r = csv.reader(f)
        head = next(r)
        rows = [row for row in r]
    return head, rows


def feng(res, figs):
    _, rows = read(os.path.join(res, "feng_alpha.csv"))
    by = defaultdict(list)
    for p, e, a14, acal in rows:
        by[float(p)].append((float(e), float(a14), float(acal)))
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for p, pts in sorted(by.items()):
        pts.sort()
        line, = ax.plot([x[0] for x in pts], [x[1] for x in pts], label=f"p = {p:g} (Eq. 14)")
        ax.plot([x[0] for x in pts], [x[2] for x in pts], "o", color=line.get_color(), mfc="none")
    ax.set_xlabel("restitution e")
    ax.set_ylabel("damping alpha")
    ax.set_title("Feng Fig. 1: lines Eq. 14, circles calibrated by clink")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "feng_alpha.png"), dpi=110)
    plt.close(fig)

    _, rows = read(os.path.join(res, "feng_grid.csv"))
    by = defaultdict(list)
    for row in rows:
        p, e = float(row[0]), float(row[1])
        if p in (1.0, 1.5, 2.0):
            by[p].append((e, float(row[2]), float(row[3])))
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for p, pts in sorted(by.items()):
        pts.sort()
        line, = ax.plot([x[0] for x in pts], [x[1] for x in pts], label=f"p = {p:g} (Eq. 15)")
        ax.plot([x[0] for x in pts], [x[2] for x in pts], "o", color=line.get_color(), mfc="none")
    ax.set_xlabel("restitution e")
    ax.set_ylabel("delta_max [m]  (m = 1 kg, K = 1e6, v0 = 1 m/s)")
    ax.set_title("Feng Fig. 3: lines Eq. 15, circles integrated by clink")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "feng_delta_max.png"), dpi=110)
    plt.close(fig)

    _, rows = read(os.path.join(res, "feng_fig4.csv"))
    by = defaultdict(list)
    for p, a, ratio, lsd in rows:
        by[float(p)].append((float(a), float(ratio), float(lsd)))
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    allpts = sorted(x for pts in by.values() for x in pts)
    ax.plot([x[0] for x in allpts], [x[2] for x in allpts], "k-", label="1/sqrt(1 - alpha_eff^2)")
    for p, pts in sorted(by.items()):
        pts.sort()
        ax.plot([x[0] for x in pts], [x[1] for x in pts], "o", mfc="none", label=f"p = {p:g}")
    ax.set_xlabel("alpha_eff")
    ax.set_ylabel("tau(alpha) / tau(0)")
    ax.set_title("Feng Fig. 4: collision time ratio (integrated by clink)")
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "feng_fig4.png"), dpi=110)
    plt.close(fig)

    _, rows = read(os.path.join(res, "feng_portraits.csv"))
    by = OrderedDict()
    for e, t, d, dd, F in rows:
        by.setdefault(e, []).append((float(d), float(dd)))
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for e, pts in by.items():
        ax.plot([x[0] * 1e3 for x in pts], [x[1] for x in pts], label=f"e = {e}")
    ax.set_xlabel("delta [mm]")
    ax.set_ylabel("v / v0")
    ax.set_title("Feng Fig. 5: phase portraits, p = 3/2")
    ax.axhline(0, color="k", lw=0.5)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "feng_portraits.png"), dpi=110)
    plt.close(fig)


def alves(res, figs):
    _, rows = read(os.path.join(res, "alves_spheres_loops.csv"))
    by = OrderedDict()
    for law, t, d, dd, F in rows:
        by.setdefault(law, []).append((float(t), float(d), float(dd), float(F)))
    laws = [k for k in by if k != "hertz"]
    hertz = by.get("hertz", [])
    for kind, fname, title in (("loop", "alves_loops.png", "Alves Fig. 3: force vs indentation"),
                               ("phase", "alves_portraits.png", "Alves Fig. 4: phase portraits")):
        n = len(laws)
        cols = 4
        rowsn = (n + cols - 1) // cols
        fig, axs = plt.subplots(rowsn, cols, figsize=(13, 3.0 * rowsn), squeeze=False)
        for i, law in enumerate(laws):
            ax = axs[i // cols][i % cols]
            pts = by[law]
            if kind == "loop":
                ax.plot([x[1] * 1e6 for x in hertz], [x[3] for x in hertz], color="0.7", lw=1,
                        label="hertz")
                ax.plot([x[1] * 1e6 for x in pts], [x[3] for x in pts], label=law)
                ax.set_xlabel("indentation [um]")
                ax.set_ylabel("force [N]")
            else:
                ax.plot([x[1] * 1e6 for x in hertz], [x[2] for x in hertz], color="0.7", lw=1,
                        label="hertz")
                ax.plot([x[1] * 1e6 for x in pts], [x[2] for x in pts], label=law)
                ax.axhline(-0.2, color="r", lw=0.5, ls="--")
                ax.set_xlabel("indentation [um]")
                ax.set_ylabel("indentation velocity [m/s]")
            ax.set_title(law, fontsize=10)
            ax.grid(alpha=0.3)
        for j in range(len(laws), rowsn * cols):
            axs[j // cols][j % cols].axis("off")
        fig.suptitle(title + " (two aluminium spheres, cr = 0.7; grey: Hertz)")
        fig.tight_layout()
        fig.savefig(os.path.join(figs, fname), dpi=100)
        plt.close(fig)


def poursina(res, figs):
    _, rows = read(os.path.join(res, "poursina_fig8.csv"))
    pts = [(float(e), float(err)) for e, err in rows if float(e) < 1.0]
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    ax.loglog([p[0] for p in pts], [p[1] for p in pts], "o-")
    ax.set_xlabel("target restitution e")
    ax.set_ylabel("max |e_out - e| over 300 random sets")
    ax.set_title("Poursina-Nikravesh Fig. 8: accuracy of c_opt (Eq. 49)")
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    fig.savefig(os.path.join(figs, "poursina_fig8.png"), dpi=110)
    plt.close(fig)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    res = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "validation-results")
    figs = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "docs", "figures")
    os.makedirs(figs, exist_ok=True)
    feng(res, figs)
    alves(res, figs)
    poursina(res, figs)


if __name__ == "__main__":
    main()
