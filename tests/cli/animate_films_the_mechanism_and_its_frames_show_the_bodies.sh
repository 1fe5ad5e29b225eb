#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink animate` on a short run of the clearance slider-crank: ffprobe decodes
# the MP4 and the GIF (frame count, duration at the frame rate asked); a single
# frame drawn at t = 0 and at a quarter turn has the crank's colour at the
# crank's centre of mass read from timeseries.csv (and not where the crank is
# not); --slow-impacts adds frames; a run whose model file moved is refused
# with exit 2 naming --model, which then works; a new run into the directory
# removes the old film; a failed run is filmed and exits 1; bad options exit 2.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }
py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py
if ! "$py" -c "import matplotlib, numpy" 2>/dev/null || ! command -v ffprobe >/dev/null ||
    ! command -v ffmpeg >/dev/null; then
    echo "skip: matplotlib, NumPy or ffmpeg missing"
    exit 0
fi

cp "$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml" "$tmp/sc.xml"
"$CLINK" run "$tmp/sc.xml" -o "$tmp/run" --t-end 0.004 --output-step 1e-4 --quiet || bad "run"

# the films: 12 frames at 6 fps are 2 s
"$CLINK" animate "$tmp/run" -o "$tmp/film" --frames 12 --fps 6 --size 320x180 >"$tmp/out" 2>"$tmp/err" ||
    { bad "animate: exit $?"; cat "$tmp/err"; }
probe() { # file entry
    ffprobe -v error -count_frames -select_streams v:0 -show_entries "$2" -of csv=p=0 "$1" | head -n1
}
frames=$(probe "$tmp/film/animation.mp4" stream=nb_read_frames)
duration=$(probe "$tmp/film/animation.mp4" format=duration)
size=$(probe "$tmp/film/animation.mp4" stream=width,height)
[ "$frames" = 12 ] || bad "mp4: $frames frames, expected 12"
"$py" -c "import sys; sys.exit(abs(float('$duration') - 2.0) > 1e-3)" || bad "mp4: $duration s, expected 2"
[ "$size" = "320,180" ] || bad "mp4: size $size, expected 320,180"
gif=$(probe "$tmp/film/animation.gif" stream=nb_read_frames)
[ "$gif" = 12 ] || bad "gif: $gif frames, expected 12"
ls "$tmp/film" | grep -q incomplete && bad "temporary files left"
[ "$fail" = 0 ] && ok "mp4 and gif: 12 frames, 2 s, 320x180"

# --slow-impacts 5: more frames through the impacts of impacts.csv
"$CLINK" animate "$tmp/run" -o "$tmp/slow" --frames 12 --fps 6 --size 320x180 --slow-impacts 5 \
    --format mp4 >/dev/null 2>"$tmp/err" || { bad "slow: exit $?"; cat "$tmp/err"; }
slow=$(probe "$tmp/slow/animation.mp4" stream=nb_read_frames)
[ -n "$slow" ] && [ "$slow" -gt 12 ] || bad "--slow-impacts 5: $slow frames, expected more than 12"
[ -e "$tmp/slow/animation.gif" ] && bad "--format mp4 wrote a gif"
[ "$fail" = 0 ] && ok "--slow-impacts 5: $slow frames instead of 12"

# the frame times: 11 frames over 1 s, an impact at 0.50-0.52 s slowed 4x: the window
# widened by half a frame (0.45-0.57 s) holds frames 4x closer than those outside
"$py" - "$CLINK_SOURCE_DIR/python/clink" <<'PY' || bad "frame times"
import sys
import numpy as np
sys.path.insert(0, sys.argv[1])  # the viewer alone, as `clink animate` runs it
from viz import animate as animate_run
animate_run.np = np
t, slowed = animate_run.frame_times(0.0, 1.0, 11, [(0.5, 0.52)], 4.0)
d = np.diff(t)
inside = d[slowed[1:] & slowed[:-1]]
outside = d[~slowed[1:] & ~slowed[:-1]]
print(f"{len(t)} frames; spacing outside {outside.min():.4f}-{outside.max():.4f} s, inside "
      f"{inside.min():.4f}-{inside.max():.4f} s")
assert t[0] == 0.0 and t[-1] == 1.0 and np.all(d > 0)
assert np.allclose(inside, outside.mean() / 4, rtol=1e-9), "inside is not 4x denser"
assert np.all(abs(outside - 0.1) < 0.005), "outside spacing moved"
assert np.all((t[slowed] >= 0.45 - 1e-12) & (t[slowed] <= 0.57 + 1e-12))
t1, s1 = animate_run.frame_times(0.0, 1.0, 11, [(0.5, 0.52)], 1.0)
assert np.allclose(t1, np.linspace(0, 1, 11)) and not s1.any(), "not even without slowing"
PY

# a frame's pixels: the crank's colour at the crank's centre of mass
for t in 0 0.003; do
    "$CLINK" animate "$tmp/run" --frame "$t" --png "$tmp/f$t.png" --size 640x360 >/dev/null 2>"$tmp/err" ||
        { bad "frame $t: exit $?"; cat "$tmp/err"; }
    "$py" - "$tmp/run/timeseries.csv" "$tmp/f$t.png" "$t" <<'PY' || bad "frame $t: pixels"
import json, sys
import numpy as np
import matplotlib.image as mpimg
csv, png, t = sys.argv[1], sys.argv[2], float(sys.argv[3])
head = open(csv).readline().strip().split(",")
rows = np.loadtxt(csv, delimiter=",", skiprows=1)
row = rows[np.argmin(abs(rows[:, 0] - t))]
assert abs(row[0] - t) < 1e-12, row[0]
x, y = row[head.index("crank.x [m]")], row[head.index("crank.y [m]")]
info = json.load(open(png + ".json"))
A = np.array(info["pixel_transform"])
img = mpimg.imread(png)[:, :, :3]
assert img.shape[:2] == (360, 640), img.shape
def colour_at(px, py):
    c, r = A @ [px, py, 1.0]
    return img[int(round(r)), int(round(c))]
crank = np.array([int(info["colors"]["crank"][k:k + 2], 16) / 255 for k in (1, 3, 5)])
got = colour_at(x, y)
print(f"t = {t}: crank centre ({x:.4f}, {y:.4f}) m drawn {np.round(got, 3)}, crank colour {np.round(crank, 3)}")
assert np.max(abs(got - crank)) < 0.03, "not the crank's colour at the crank's centre"
# a point of the crank circle a quarter turn away from its centre is not the crank
ox, oy = -(y - 0.0), (x - 0.0)
other = colour_at(ox, oy)
assert np.max(abs(other - crank)) > 0.2, f"crank colour where the crank is not: {other}"
PY
done
[ "$fail" = 0 ] && ok "frames at t = 0 and a quarter turn: crank colour at the crank's centre"

# the rod is drawn through its magnified journal: at 40x the clearance, the rod's colour
# just outside the journal's disc on the line to the crank tip, not only at the rod's
# true end (the disc centre is the bearing centre + 40 x the eccentricity)
"$CLINK" animate "$tmp/run" --frame 0.003 --png "$tmp/bent.png" --size 640x360 \
    --clearance-scale 40 >/dev/null 2>"$tmp/err" || { bad "frame at 40x: exit $?"; cat "$tmp/err"; }
"$py" - "$tmp/run/timeseries.csv" "$tmp/bent.png" <<'PY' || bad "the rod is not drawn to its magnified journal"
import json, sys
import numpy as np
import matplotlib.image as mpimg
csv, png = sys.argv[1], sys.argv[2]
head = open(csv).readline().strip().split(",")
rows = np.loadtxt(csv, delimiter=",", skiprows=1)
row = rows[np.argmin(abs(rows[:, 0] - 0.003))]
col = lambda n: row[head.index(n)]
info = json.load(open(png + ".json"))
A, img = np.array(info["pixel_transform"]), mpimg.imread(png)[:, :, :3]
rgb = lambda b: np.array([int(info["colors"][b][k:k + 2], 16) / 255 for k in (1, 3, 5)])
def colour_at(p):
    c, r = A @ [p[0], p[1], 1.0]
    return img[int(round(r)), int(round(c))]
cb = np.array([col("slider.x [m]"), col("slider.y [m]")])       # bearing point (0, 0)
e = np.array([col("rod_slider.ex [m]"), col("rod_slider.ey [m]")])
tip = 2 * np.array([col("crank.x [m]"), col("crank.y [m]")])    # the crank's far end
disc = cb + 40 * e
u = (tip - disc) / np.linalg.norm(tip - disc)
q = disc + 1.4 * 0.0095 * u                                     # outside the disc, on the rod
shift = 39 * np.linalg.norm(e) * A[0, 0]
print(f"|e| = {np.linalg.norm(e) * 1e3:.3f} mm: the magnified end is {shift:.0f} px from the true one")
assert shift > 12, "the eccentricity is too small at this time for the check to tell"
got = colour_at(q)
print(f"colour beside the magnified journal {np.round(got, 3)}, rod {np.round(rgb('rod'), 3)}")
assert np.max(abs(got - rgb("rod"))) < 0.03
PY
[ "$fail" = 0 ] && ok "the rod is drawn through its journal magnified 40x"

# the model moved: refused with exit 2 naming --model; --model works
mv "$tmp/sc.xml" "$tmp/moved.xml"
"$CLINK" animate "$tmp/run" --frame 0 --png "$tmp/m.png" 2>"$tmp/err"
[ $? = 2 ] || bad "moved model: not exit 2"
grep -q -- "--model" "$tmp/err" || { bad "moved model: message lacks --model"; cat "$tmp/err"; }
"$CLINK" animate "$tmp/run" --frame 0 --png "$tmp/m.png" --model "$tmp/moved.xml" >/dev/null 2>&1 ||
    bad "--model: exit $?"
[ -s "$tmp/m.png" ] || bad "--model: no frame"
[ "$fail" = 0 ] && ok "moved model refused with exit 2, drawn with --model"

# a new run into the directory removes the film of the old one
"$CLINK" animate "$tmp/run" --frames 2 --size 64x64 --model "$tmp/moved.xml" >/dev/null 2>&1 || bad "film in DIR"
[ -s "$tmp/run/animation.mp4" ] && [ -s "$tmp/run/animation.gif" ] || bad "no film in DIR"
"$CLINK" run "$tmp/moved.xml" -o "$tmp/run" --t-end 0.004 --output-step 1e-4 --quiet || bad "rerun"
[ -e "$tmp/run/animation.mp4" ] || [ -e "$tmp/run/animation.gif" ] && bad "the old film survived a new run"
[ "$fail" = 0 ] && ok "a new run removes the old film"

# a failed run is filmed up to its failure, marked, with exit 1
"$CLINK" run "$CLINK_SOURCE_DIR/tests/cli/data/unreachable_slider.xml" -o "$tmp/failed" --quiet 2>/dev/null
"$CLINK" animate "$tmp/failed" --frames 3 --size 64x64 --format mp4 >/dev/null 2>"$tmp/err"
[ $? = 1 ] || bad "failed run: not exit 1"
grep -q "the run failed at t = " "$tmp/err" || { bad "failed run: no message"; cat "$tmp/err"; }
[ "$(probe "$tmp/failed/animation.mp4" stream=nb_read_frames)" = 3 ] || bad "failed run: no 3-frame film"
[ "$fail" = 0 ] && ok "a failed run is filmed, marked, exit 1"

# a polygon drawn as its outline: the box of models/box_drop.xml at t = 0 (tilted by 0.3 rad
# at (0, 0.2) m) has its colour near a corner inside it and not just outside its long side
"$CLINK" run "$CLINK_SOURCE_DIR/models/box_drop.xml" -o "$tmp/box" --t-end 0.01 --output-step 1e-3 \
    --quiet || bad "box run"
"$CLINK" animate "$tmp/box" --frame 0 --png "$tmp/box.png" --size 640x360 >/dev/null 2>"$tmp/err" ||
    { bad "box frame: exit $?"; cat "$tmp/err"; }
"$py" - "$tmp/box.png" <<'PY' || bad "box frame: pixels"
import json, math, sys
import numpy as np
import matplotlib.image as mpimg
png = sys.argv[1]
info = json.load(open(png + ".json"))
A = np.array(info["pixel_transform"])
img = mpimg.imread(png)[:, :, :3]
box = np.array([int(info["colors"]["box"][k:k + 2], 16) / 255 for k in (1, 3, 5)])
def at(u, v):  # body point (u, v) of the box at x = 0, y = 0.2, phi = 0.3
    c, s = math.cos(0.3), math.sin(0.3)
    col, row = A @ [c * u - s * v, 0.2 + s * u + c * v, 1.0]
    return img[int(round(row)), int(round(col))]
inside, outside = at(0.17, -0.07), at(0.0, 0.13)
print(f"box colour {np.round(box, 3)}: near a corner inside {np.round(inside, 3)}, "
      f"outside its side {np.round(outside, 3)}")
assert np.max(abs(inside - box)) < 0.03, "not the box's colour inside the polygon"
assert np.max(abs(outside - box)) > 0.2, "the box's colour outside the polygon"
PY
[ "$fail" = 0 ] && ok "a polygon is drawn as its outline"

# bad options
for args in "--fps 0" "--fps x" "--size 321x180" "--frames 0" "--slow-impacts 0.5" \
    "--format avi" "--frame 0" "--bogus 1"; do
    # shellcheck disable=SC2086
    "$CLINK" animate "$tmp/run" $args >/dev/null 2>"$tmp/err"
    [ $? = 2 ] || bad "animate $args: not exit 2"
    [ "$(wc -l <"$tmp/err")" = 1 ] || bad "animate $args: message is not one line"
done
"$CLINK" animate "$tmp/nowhere" 2>/dev/null
[ $? = 2 ] || bad "missing run directory: not exit 2"
[ "$fail" = 0 ] && ok "bad options and a missing run refused with exit 2"
exit $fail
