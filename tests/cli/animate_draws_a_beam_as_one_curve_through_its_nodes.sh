#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink animate` draws a flexible beam as one curve through its nodes: on the cantilever of
# models/cantilever_beam.xml, 60 ms after its tip load (its tip 86 mm down), the frame's
# report names the beam and its nine nodes in order (the scene carried it from the model);
# the beam's colour is drawn at each node and at the middle of each element's cubic (the
# nodes' positions and angles from timeseries.csv), and not 12 px across the beam from a
# node (where a node drawn as a body, a block, would be); every node has the beam's colour.
# The flexible slider-crank's rod is drawn in one colour through its nodes to its journal
# disc, magnified 40x about the bearing. A film of the
# cantilever decodes with the frames asked.
set -u
. "$(dirname "$0")/checks.bash"
py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py
if ! "$py" -c "import matplotlib, numpy" 2>/dev/null || ! command -v ffprobe >/dev/null ||
    ! command -v ffmpeg >/dev/null; then
    echo "skip: matplotlib, NumPy or ffmpeg missing"
    exit 0
fi

"$CLINK" run "$CLINK_SOURCE_DIR/models/cantilever_beam.xml" -o "$tmp/run" --t-end 0.06 \
    --output-step 1e-3 --quiet || bad "run"
"$CLINK" animate "$tmp/run" --frame 0.06 --png "$tmp/f.png" --size 640x360 >/dev/null \
    2>"$tmp/err" || { bad "frame: exit $?"; cat "$tmp/err"; }
"$py" - "$tmp/run/timeseries.csv" "$tmp/f.png" <<'PY' || bad "the beam's frame"
import json, math, sys
import numpy as np
import matplotlib.image as mpimg
csv, png = sys.argv[1], sys.argv[2]
head = open(csv).readline().strip().split(",")
row = np.loadtxt(csv, delimiter=",", skiprows=1)[-1]
assert abs(row[0] - 0.06) < 1e-12, row[0]
info = json.load(open(png + ".json"))
beam = info["beams"]["cantilever"]
assert beam["nodes"] == [f"cantilever.{i}" for i in range(9)], beam["nodes"]
rgb = np.array([int(beam["color"][k:k + 2], 16) / 255 for k in (1, 3, 5)])
assert all(info["colors"][n] == beam["color"] for n in beam["nodes"]), "a node has its own colour"
A, img = np.array(info["pixel_transform"]), mpimg.imread(png)[:, :, :3]
def at(p, off=(0.0, 0.0)):
    c, r = A @ [p[0], p[1], 1.0]
    return img[int(round(r + off[1])), int(round(c + off[0]))]
node = [np.array([row[head.index(f"cantilever.{i}.{q} [{u}]")] for q, u in
                  (("x", "m"), ("y", "m"), ("phi", "rad"))]) for i in range(9)]
print(f"tip at ({node[8][0]:.4f}, {node[8][1]:.4f}) m; beam colour {np.round(rgb, 3)}")
assert node[8][1] < -0.015, "the beam is not bent enough for the check"
worst_on, worst_off = 0.0, 1.0
for i in range(9):
    worst_on = max(worst_on, np.max(abs(at(node[i]) - rgb)))
    # 12 px across the beam (its line is about 11 px wide): the background
    n = np.array([-math.sin(node[i][2]), math.cos(node[i][2])])
    for s in (1, -1):
        worst_off = min(worst_off, np.min(at(node[i], (12 * s * n[0], -12 * s * n[1]))))
    if i < 8:
        a, b = node[i], node[i + 1]
        c = math.hypot(b[0] - a[0], b[1] - a[1])
        ta, tb = (c * np.array([math.cos(p[2]), math.sin(p[2])]) for p in (a, b))
        mid = 0.5 * (a[:2] + b[:2]) + (ta - tb) / 8.0  # the cubic at s = 1/2
        worst_on = max(worst_on, np.max(abs(at(mid) - rgb)))
print(f"largest gap from the beam's colour at nodes and mid-elements {worst_on:.3f}; "
      f"darkest channel 12 px across the beam {worst_off:.3f}")
assert worst_on < 0.03, "not the beam's colour along its curve"
assert worst_off > 0.9, "something drawn across the beam beside a node"
PY
[ "$fail" = 0 ] && ok "the cantilever drawn as one curve through its nine nodes"

# the flexible slider-crank: the rod in one colour through its nodes, its end node's journal
# a disc of that colour at the bearing centre plus 40 times the eccentricity
"$CLINK" run "$CLINK_SOURCE_DIR/models/slider_crank_flexible_rod.xml" -o "$tmp/sc" --t-end 0.002 \
    --quiet || bad "slider-crank run"
"$CLINK" animate "$tmp/sc" --frame 0.001 --png "$tmp/sc.png" --size 640x360 \
    --clearance-scale 40 >/dev/null 2>"$tmp/err" || { bad "slider-crank frame: exit $?"; cat "$tmp/err"; }
"$py" - "$tmp/sc/timeseries.csv" "$tmp/sc.png" <<'PY' || bad "the flexible rod's frame"
import json, sys
import numpy as np
import matplotlib.image as mpimg
csv, png = sys.argv[1], sys.argv[2]
head = open(csv).readline().strip().split(",")
rows = np.loadtxt(csv, delimiter=",", skiprows=1)
row = rows[np.argmin(abs(rows[:, 0] - 0.001))]
col = lambda n: row[head.index(n)]
info = json.load(open(png + ".json"))
assert info["beams"]["rod"]["nodes"] == [f"rod.{i}" for i in range(9)]
A, img = np.array(info["pixel_transform"]), mpimg.imread(png)[:, :, :3]
rgb = np.array([int(info["beams"]["rod"]["color"][k:k + 2], 16) / 255 for k in (1, 3, 5)])
def at(p):
    c, r = A @ [p[0], p[1], 1.0]
    return img[int(round(r)), int(round(c))]
cb = np.array([col("slider.x [m]"), col("slider.y [m]")])
disc = cb + 40 * np.array([col("rod_slider.ex [m]"), col("rod_slider.ey [m]")])
nodes = [np.array([col(f"rod.{i}.x [m]"), col(f"rod.{i}.y [m]")]) for i in (1, 3, 5)]
gaps = [np.max(abs(at(p) - rgb)) for p in nodes + [disc]]
print(f"rod colour {np.round(rgb, 3)}: gaps at rod.1, rod.3, rod.5 and the magnified journal "
      f"{np.round(gaps, 3)}")
assert max(gaps) < 0.03
PY
[ "$fail" = 0 ] && ok "the flexible rod in one colour, its journal magnified 40x"

# a film of the beam
"$CLINK" animate "$tmp/run" -o "$tmp/film" --frames 4 --fps 4 --size 160x90 --format mp4 \
    >/dev/null 2>"$tmp/err" || { bad "film: exit $?"; cat "$tmp/err"; }
frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames \
    -of csv=p=0 "$tmp/film/animation.mp4" | head -n1)
[ "$frames" = 4 ] && ok "a film of the beam: 4 frames" || bad "film: $frames frames, expected 4"
exit $fail
