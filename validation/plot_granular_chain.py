#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Figures of the granular chain (Wang, Liu and Liu 2022, Sect. 5.2) from the CSV files of
validation/val_granular_chain.c:
  granular_chain_sensors.png  forces at the sensor beads 9 ... 63 of the elastic,
                              dashpot and Ma-Liu chains, one panel per sensor
                              (as Wang, Liu and Liu (2022), Fig. 11, without the experiment);
  granular_chain_wave.png     the contact forces along the chain at the crest of
                              contact 30 beside Nesterenko's long-wave profile,
                              and the wave speed against F_m^(1/6) at three
                              striker speeds beside Nesterenko's line.

usage: plot_granular_chain.py RESULTS_DIR OUT_DIR
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path) as f:
        r = csv.reader(f)
        head = next(r)
        return head, [row for row in r]


def main():
    src, out = sys.argv[1], sys.argv[2]
    head, rows = read(os.path.join(src, "granular_chain_sensors.csv"))
    sensors = head[2:]
    series = {}
    for row in rows:
        s = series.setdefault(row[0], [[] for _ in range(len(head) - 1)])
        for i, x in enumerate(row[1:]):
            s[i].append(float(x))
    style = {"hertz": ("elastic Hertz", "0.6", "-"),
             "dashpot": ("new dashpot (wang-liu-flores, e 0.65)", "tab:blue", "-"),
             "ma-liu": ("Ma-Liu", "k", "--")}
    fig, axes = plt.subplots(len(sensors), 1, figsize=(7, 10), sharex=True)
    for j, ax in enumerate(axes):
        for tag, (label, color, ls) in style.items():
            t = [x * 1e3 for x in series[tag][0]]
            ax.plot(t, series[tag][j + 1], color=color, ls=ls, lw=1.0, label=label)
        ax.set_ylabel(sensors[j].replace(" [N]", "") + "\n(N)", fontsize=8)
        ax.tick_params(labelsize=8)
    axes[0].legend(fontsize=7, loc="upper right")
    axes[-1].set_xlabel("t (ms)")
    fig.suptitle("Granular chain, 70 beads, striker 1.77 m/s: force at the sensor beads\n"
                 "(mean of the bead's two contact forces)", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "granular_chain_sensors.png"), dpi=110)

    _, prof = read(os.path.join(src, "granular_chain_profile.csv"))
    _, speed = read(os.path.join(src, "granular_chain_speed.csv"))
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    k = [int(r[0]) for r in prof]
    a.plot(k, [float(r[1]) for r in prof], "o", color="tab:blue", label="clink, contact forces")
    fine = [20 + i * 0.05 for i in range(401)]
    fm = max(float(r[2]) for r in prof)
    import math
    nest = []
    for x in fine:
        arg = math.sqrt(10.0) * (x - 30) / 5.0
        nest.append(fm * math.cos(arg) ** 6 if abs(arg) < math.pi / 2 else 0.0)
    a.plot(fine, nest, "k-", lw=1, label="Nesterenko, F_m cos^6(sqrt(10) x / 5a)")
    a.set_xlabel("contact (bead diameters)")
    a.set_ylabel("contact force (N)")
    a.set_title("the wave at the crest of contact 30", fontsize=10)
    a.legend(fontsize=8)
    f16 = [float(r[1]) ** (1 / 6) for r in speed]
    b.plot(f16, [float(r[2]) for r in speed], "o", color="tab:blue", label="clink (fitted speed)")
    b.plot(f16, [float(r[3]) for r in speed], "k-", lw=1, label="Nesterenko's long-wave speed")
    for r, x in zip(speed, f16):
        b.annotate("%s m/s" % r[0], (x, float(r[2])), textcoords="offset points", xytext=(5, -12),
                   fontsize=8)
    b.set_xlabel("F_m^(1/6) (N^(1/6))")
    b.set_ylabel("wave speed (m/s)")
    b.set_title("speed against F_m^(1/6)", fontsize=10)
    b.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "granular_chain_wave.png"), dpi=110)


if __name__ == "__main__":
    main()
