#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""Draw docs/figures/damping_factors.png (Alves et al. 2015, Fig. 2: damping factor
chi / (K / v) against the restitution e) from the curves written by
validation/val_damping_factors.c.

usage: damping_factors.py [RESULTS_DIR [OUTPUT.png]]
RESULTS_DIR holds damping_factors_curves.json (default build/validation-results).
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LABELS = {
    "hunt-crossley": "Hunt-Crossley, Marhefka-Orin",
    "herbert-mcwhannell": "Herbert-McWhannell",
    "lee-wang": "Lee-Wang",
    "lankarani-nikravesh": "Lankarani-Nikravesh",
    "gonthier": "Gonthier, Zhang-Sharf (approx.)",
    "gonthier-exact": "Gonthier, Zhang-Sharf (exact, Poursina and Nikravesh (2020), Eq. 18-19)",
    "zhiying-qishao": "Zhiying-Qishao",
    "flores": "Flores, Ye",
    "hu-guo": "Hu-Guo",
    "gharib-hurmuzlu": "Gharib-Hurmuzlu (as printed)",
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    results = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build", "validation-results")
    target = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "docs", "figures", "damping_factors.png")
    with open(os.path.join(results, "damping_factors_curves.json")) as f:
        data = json.load(f)
    e = data["e"]
    fig, ax = plt.subplots(figsize=(7.5, 5.0))
    styles = ["-", "--", "-.", ":"]
    for i, (name, values) in enumerate(data["factors"].items()):
        ax.plot(e, values, styles[i % len(styles)], lw=1.6, label=LABELS.get(name, name))
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 10)
    ax.set_xlabel("coefficient of restitution e")
    ax.set_ylabel(r"damping factor $\chi\,/\,(K/v^{(-)})$")
    ax.set_title("Hysteresis damping factor vs restitution (cf. Alves et al. (2015), Fig. 2)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    os.makedirs(os.path.dirname(target), exist_ok=True)
    fig.savefig(target, dpi=120)
    print("wrote", target)


if __name__ == "__main__":
    main()
