#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The demo's wear figure: the life of the worn clearance slider-crank
(models/slider_crank_wear.xml) computed by `clink wear MODEL --cycles N -o WEAR_DIR`
(docs/wear.md), three panels:
  - the bore after the life: its depth at the cell centres (the last update's bore row of
    WEAR_DIR/wear_profile.csv) drawn magnified outside the bore circle (the bearing
    radius read from MODEL), in the bearing's frame;
  - the journal orbit (journal centre - bore centre, WEAR_DIR/orbit_NNNNN.csv) of the first
    update (the new bore) and of the last (the bore worn by all updates before it),
    inside the clearance circle, with the bore worn before the last update at true scale
    (clearance + depth of the previous update's bore row);
  - the bore's worn volume and its deepest depth against cycles (WEAR_DIR/wear_updates.csv).

usage: demo_wear.py WEAR_DIR MODEL.xml OUT.png
Draws the first joint with <wear> (joint 0 of the tables); prints the updates, the
cycles, the worn volume, the deepest depth and the magnification, as read.
"""
import glob
import os
import sys
import xml.etree.ElementTree as ET


def radii(model):
    """bearing and journal radii (m) of the model's first clearance joint with <wear>"""
    for joint in ET.parse(model).getroot().iter("revolute_clearance"):
        if joint.find("wear") is not None:
            return float(joint.get("bearing_radius")), float(joint.get("journal_radius"))
    raise SystemExit(f"{model}: no revolute_clearance with <wear>")


def bore_rows(wear_dir):
    """{update: (cycles, depth array)} of the bore of joint 0 in wear_profile.csv"""
    import numpy as np
    rows = {}
    with open(os.path.join(wear_dir, "wear_profile.csv")) as f:
        next(f)
        for line in f:
            cells = line.rstrip("\n").split(",")
            if cells[2] == "0" and cells[3] == "bore":
                rows[int(cells[0])] = (int(cells[1]), np.array(cells[5:], dtype=float))
    if not rows:
        raise SystemExit(f"{wear_dir}/wear_profile.csv: no bore row of joint 0")
    return rows


def orbit(path):
    import numpy as np
    data = np.genfromtxt(path, delimiter=",", skip_header=1)
    data = data[data[:, 1] == 0]
    return data[:, 3], data[:, 4]


def draw_bore(ax, r_bore, depth):
    import numpy as np
    n = len(depth)
    th = 2 * np.pi * (np.arange(n + 1) % n + 0.5) / n
    h = depth[np.arange(n + 1) % n]
    # magnification of the 1-2-5 series that puts the deepest point within 30% of the radius
    mag = 1
    for m in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000):
        if m * h.max() <= 0.3 * r_bore:
            mag = m
    circle = np.linspace(0, 2 * np.pi, 400)
    ax.plot(1e3 * r_bore * np.cos(circle), 1e3 * r_bore * np.sin(circle), color="0.3", lw=1,
            label=f"new bore, radius {1e3 * r_bore:g} mm")
    worn = 1e3 * (r_bore + mag * h)
    ax.fill(worn * np.cos(th), worn * np.sin(th), color="#d62728", alpha=0.25, lw=0)
    ax.plot(worn * np.cos(th), worn * np.sin(th), color="#d62728", lw=1,
            label=f"worn bore, depth x {mag}")
    ax.set_aspect("equal")
    ax.set_xlabel("bearing frame x [mm]")
    ax.set_ylabel("y [mm]")
    ax.legend(loc="lower right", fontsize="small")
    return mag


def draw_orbits(ax, wear_dir, clearance, first, last, prev_depth):
    import numpy as np
    circle = np.linspace(0, 2 * np.pi, 400)
    ax.plot(1e3 * clearance * np.cos(circle), 1e3 * clearance * np.sin(circle), color="0.3",
            lw=1, label="clearance circle (new bore)")
    if prev_depth is not None:
        n = len(prev_depth)
        th = 2 * np.pi * (np.arange(n + 1) % n + 0.5) / n
        r = 1e3 * (clearance + prev_depth[np.arange(n + 1) % n])
        ax.plot(r * np.cos(th), r * np.sin(th), color="0.3", lw=1, ls="--",
                label="worn bore before the last update")
    for u, color in ((first, "#1f77b4"), (last, "#d62728")):
        ex, ey = orbit(os.path.join(wear_dir, f"orbit_{u:05d}.csv"))
        ax.plot(1e3 * ex, 1e3 * ey, color=color, lw=0.7, label=f"orbit of update {u}")
    ax.set_aspect("equal")
    ax.set_xlabel("journal centre - bore centre, x [mm]")
    ax.set_ylabel("y [mm]")
    ax.legend(loc="lower right", fontsize="x-small")


def draw_volume(ax, wear_dir):
    import numpy as np
    data = np.genfromtxt(os.path.join(wear_dir, "wear_updates.csv"), delimiter=",",
                         skip_header=1, ndmin=2)
    data = data[data[:, 3] == 0]
    cycles = np.concatenate(([0], data[:, 1]))
    ax.plot(cycles, np.concatenate(([0], 1e9 * data[:, 4])), "o-", color="#1f77b4", ms=3,
            label="worn volume of the bore")
    ax.set_xlabel("cycles")
    ax.set_ylabel("worn volume [mm^3]")
    depth = ax.twinx()
    depth.plot(cycles, np.concatenate(([0], 1e6 * data[:, 6])), "s--", color="#d62728", ms=3,
               label="deepest bore depth")
    depth.set_ylabel("deepest bore depth [um]")
    lines = ax.get_lines() + depth.get_lines()
    ax.legend(lines, [l.get_label() for l in lines], loc="upper left", fontsize="small")
    return data


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    wear_dir = argv[1]
    r_bore, r_journal = radii(argv[2])
    rows = bore_rows(wear_dir)
    updates = sorted(rows)
    orbits = sorted(int(os.path.basename(p)[6:11])
                    for p in glob.glob(os.path.join(wear_dir, "orbit_[0-9][0-9][0-9][0-9][0-9].csv")))
    if not orbits:
        raise SystemExit(f"{wear_dir}: no orbit_NNNNN.csv")
    last = updates[-1]
    cycles, depth = rows[last]
    fig, (bore, orb, vol) = plt.subplots(1, 3, figsize=(16, 5.2),
                                         gridspec_kw={"width_ratios": [1, 1, 1.3]})
    mag = draw_bore(bore, r_bore, depth)
    bore.set_title(f"bore after {cycles} cycles (deepest {1e6 * depth.max():.3g} um)")
    prev = rows.get(orbits[-1] - 1)
    draw_orbits(orb, wear_dir, r_bore - r_journal, orbits[0], orbits[-1],
                prev[1] if prev else None)
    orb.set_title(f"journal orbits in the {1e3 * (r_bore - r_journal):g} mm clearance")
    data = draw_volume(vol, wear_dir)
    vol.set_title("wear against cycles")
    fig.suptitle(f"Archard wear of the clearance slider-crank: {len(updates)} updates, "
                 f"{cycles} cycles (clink wear)")
    fig.tight_layout()
    fig.savefig(argv[3], dpi=110)
    print(f"{len(updates)} updates, {cycles} cycles: bore worn volume {data[-1, 4]:.4g} m^3, "
          f"deepest {data[-1, 6]:.4g} m (drawn x {mag}); orbits of updates {orbits[0]} and "
          f"{orbits[-1]}")
    print(argv[3])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
