#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Figures like Wang, Liu and Liu (2022), Figs. 4-7 from the loops val_wang_liu_tables writes.

usage: plot_wang_liu.py RESULTS_DIR [FIGURE_DIR]

RESULTS_DIR holds wang_liu_loop_<law>_<v>.csv (t, delta, delta_dot, F) written
by validation/val_wang_liu_tables (build/validation-results); the figures go to
FIGURE_DIR (default docs/figures):
  wang_liu_fig4.png / fig6.png  Ma-Liu loading-unloading loop and the Wang-Liu
                                dashpot loop at 4 / 8 m/s (Wang, Liu and Liu 2022, Figs. 4, 6)
  wang_liu_fig5.png / fig7.png  (a) force-deformation loops of all models,
                                (b) relative velocity histories (Figs. 5, 7)
  wang_liu_fig3.png             Ma-Liu restitution at 4 m/s over xi and psi (Fig. 3)
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LAWS = [
    ("ma-liu", "Ma-Liu", dict(color="k", lw=2.0)),
    ("hunt-crossley", "Hunt-Crossley", dict(color="tab:gray", ls="--")),
    ("lankarani-nikravesh", "Lankarani-Nikravesh", dict(color="tab:blue")),
    ("flores", "Flores et al.", dict(color="tab:green")),
    ("wang-liu", "new dashpot (Wang-Liu)", dict(color="tab:red", ls="-.")),
]


def load(resdir, law, v):
    path = os.path.join(resdir, "wang_liu_loop_%s_%g.csv" % (law, v))
    t, d, dd, f = [], [], [], []
    with open(path) as fh:
        rd = csv.reader(fh)
        next(rd)
        for row in rd:
            t.append(float(row[0]))
            d.append(float(row[1]))
            dd.append(float(row[2]))
            f.append(float(row[3]))
    return t, d, dd, f


def main():
    resdir = sys.argv[1] if len(sys.argv) > 1 else "build/validation-results"
    figdir = sys.argv[2] if len(sys.argv) > 2 else "docs/figures"
    os.makedirs(figdir, exist_ok=True)
    for v, (fa, fb), phase in ((4, (4, 5), "elastoplastic"), (8, (6, 7), "plastic")):
        # Fig. 4 / 6: Ma-Liu loop against the new dashpot
        fig, ax = plt.subplots(figsize=(6, 4.5))
        t, d, dd, f = load(resdir, "ma-liu", v)
        ax.plot([x * 1e3 for x in d], [y * 1e-3 for y in f], "k", lw=2,
                label="Ma-Liu (loading, then unloading to $\\delta_r$)")
        t, d, dd, f = load(resdir, "wang-liu", v)
        ax.plot([x * 1e3 for x in d], [y * 1e-3 for y in f], "r", label="new dashpot, Eq. 18")
        ax.set_xlabel("deformation $\\delta$ (mm)")
        ax.set_ylabel("contact force F (kN)")
        ax.set_title("%g m/s (%s phase), cf. Wang, Liu and Liu (2022), Fig. %d" % (v, phase, fa))
        ax.legend()
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(os.path.join(figdir, "wang_liu_fig%d.png" % fa), dpi=120)
        plt.close(fig)

        # Fig. 5 / 7: all models, loops and velocity histories
        fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.5))
        for law, label, style in LAWS:
            t, d, dd, f = load(resdir, law, v)
            a.plot([x * 1e3 for x in d], [y * 1e-3 for y in f], label=label, **style)
            b.plot([x * 1e6 for x in t], dd, label=label, **style)
        a.set_xlabel("deformation $\\delta$ (mm)")
        a.set_ylabel("contact force F (kN)")
        a.set_title("(a) force-deformation, %g m/s" % v)
        a.grid(alpha=0.3)
        a.legend(fontsize=8)
        b.set_xlabel("time ($\\mu$s)")
        b.set_ylabel("relative velocity $\\dot\\delta$ (m/s)")
        b.set_title("(b) velocity histories, %g m/s" % v)
        b.grid(alpha=0.3)
        fig.suptitle("cf. Wang, Liu and Liu (2022), Fig. %d" % fb)
        fig.tight_layout()
        fig.savefig(os.path.join(figdir, "wang_liu_fig%d.png" % fb), dpi=120)
        plt.close(fig)
    # Fig. 3: restitution against xi (one line per psi) and against psi (one per xi)
    grid = {}
    with open(os.path.join(resdir, "wang_liu_fig3.csv")) as fh:
        rd = csv.reader(fh)
        next(rd)
        for row in rd:
            grid[(float(row[0]), float(row[1]))] = float(row[2])
    psis = sorted({k[0] for k in grid})
    xis = sorted({k[1] for k in grid})
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.5))
    for ps in psis:
        a.plot(xis, [grid[(ps, x)] for x in xis], "o-", label="$\\psi$ = %.1f" % ps)
    for x in xis:
        b.plot(psis, [grid[(ps, x)] for ps in psis], "o-", label="$\\xi$ = %g" % x)
    a.set_xlabel("$\\xi$")
    b.set_xlabel("$\\psi$")
    for ax in (a, b):
        ax.set_ylabel("restitution (Stronge, Eq. 8)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Ma-Liu restitution at 4 m/s, cf. Wang, Liu and Liu (2022), Fig. 3")
    fig.tight_layout()
    fig.savefig(os.path.join(figdir, "wang_liu_fig3.png"), dpi=120)
    plt.close(fig)
    print("figures written to %s" % figdir)


if __name__ == "__main__":
    main()
