#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The films of `clink modes -o DIR` (docs/analysis.md, "Drawing the modes") on the four-bar
# with a diagonal spring: DIR/mode-1/timeseries.csv is the equilibrium pose that `clink
# equilibrium` prints plus A sin(2 pi f t) times the shape of modes.csv at f of modes.csv;
# the largest displacement of a joint point, computed here from the model's joint points,
# is the fraction asked of the bounding box's diagonal; `clink animate DIR --mode 1` draws
# the coupler's colour at the coupler's centre of the synthetic pose at a quarter period
# and not there at three quarters (the frames move); the GIF has the frames asked; `clink
# view` of the film writes its page; `clink view` of the double pendulum's modes directory
# writes each film's page and the page choosing among them, which in headless Chromium
# chooses mode 1 and loads its film, whose page reports no script error; a mode with no
# film and bad options exit 2.
set -u
. "$CLINK_SOURCE_DIR/tests/cli/checks.bash"
M=$CLINK_SOURCE_DIR/models
py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py

expect 0 "modes of the four-bar with its films" \
    "$CLINK" modes "$M/four_bar_spring.xml" -o "$tmp/m" --film-amplitude 0.08
expect 0 "equilibrium of the four-bar as JSON" "$CLINK" equilibrium "$M/four_bar_spring.xml" --json
cp "$tmp/out" "$tmp/eq.json"
[ -f "$tmp/m/mode-1/timeseries.csv" ] && [ -f "$tmp/m/mode-1/summary.json" ] &&
    ok "mode-1 film written" || bad "no mode-1/timeseries.csv and summary.json"

"$py" - "$tmp/m" "$tmp/eq.json" "$M/four_bar_spring.xml" <<'PY' || bad "the film is not pose + A sin(2 pi f t) shape"
import csv, json, math, sys
import xml.etree.ElementTree as ET
d, eq, model = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
modes = list(csv.DictReader(open(f"{d}/modes.csv")))
m = modes[0]
f = float(m["damped_frequency_hz"])
summ = json.load(open(f"{d}/mode-1/summary.json"))
amp = summ["mode"]["amplitude"]
assert "mode 1" in summ["model"] and summ["status"] == "ok", summ["model"]
pose = {b["name"]: (b["x"], b["y"], b["phi"]) for b in eq["bodies"]}
rows = list(csv.DictReader(open(f"{d}/mode-1/timeseries.csv")))
assert len(rows) == 97, len(rows)
assert abs(float(rows[-1]["t [s]"]) - 2 / f) < 1e-12 * (2 / f)
worst = 0.0
for r in rows:
    s = math.sin(2 * math.pi * f * float(r["t [s]"]))
    for b, q0 in pose.items():
        for k, ax in enumerate(("x", "y", "phi")):
            unit = "rad" if ax == "phi" else "m"
            want = q0[k] + amp * s * float(m[f"{b}.{ax}"])
            worst = max(worst, abs(float(r[f"{b}.{ax} [{unit}]"]) - want))
assert worst < 1e-7, f"film off pose + A sin shape by {worst}"
print(f"ok   {len(rows)} rows are the equilibrium pose + A sin(2 pi f t) shape to {worst:.1e}")
# the amplitude: largest joint-point displacement = 0.08 x the bounding box's diagonal
pts, disp = [], []
for j in ET.parse(model).getroot().iter("revolute"):
    for side in ("1", "2"):
        b = j.get("body" + side)
        px, py_ = map(float, j.get("point" + side).split())
        if b == "ground":
            pts.append((px, py_))
            continue
        x, y, phi = pose[b]
        c, sn = math.cos(phi), math.sin(phi)
        pts.append((x + c * px - sn * py_, y + sn * px + c * py_))
        sx, sy, sp = (float(m[f"{b}.{a}"]) for a in ("x", "y", "phi"))
        disp.append(math.hypot(sx + sp * (-sn * px - c * py_), sy + sp * (c * px - sn * py_)))
pts += [p[:2] for p in pose.values()]
size = math.hypot(max(p[0] for p in pts) - min(p[0] for p in pts),
                  max(p[1] for p in pts) - min(p[1] for p in pts))
got = amp * max(disp) / size
assert abs(got - 0.08) < 1e-9, got
print(f"ok   largest joint-point displacement {got:.12f} of the model's size {size:.6f} m")
PY

if ! "$py" -c "import matplotlib, numpy" 2>/dev/null || ! command -v ffmpeg >/dev/null ||
    ! command -v ffprobe >/dev/null; then
    echo "skip: matplotlib, NumPy or ffmpeg missing: the drawings are not checked"
    exit $fail
fi
T=$("$py" -c "import json; print(json.load(open('$tmp/m/mode-1/summary.json'))['t_end_reached'] / 2)")
for q in 1 3; do
    t=$("$py" -c "print($q * $T / 4)")
    expect 0 "animate --mode 1 frame at $q/4 period" \
        "$CLINK" animate "$tmp/m" --mode 1 --frame "$t" --png "$tmp/f$q.png" --size 640x360
done
"$py" - "$tmp" "$T" <<'PY' || bad "the frames do not move the coupler along the mode"
import csv, json, math, sys
import numpy as np
import matplotlib.image as mpimg
tmp, T = sys.argv[1], float(sys.argv[2])
m = list(csv.DictReader(open(f"{tmp}/m/modes.csv")))[0]
rows = list(csv.DictReader(open(f"{tmp}/m/mode-1/timeseries.csv")))
amp = json.load(open(f"{tmp}/m/mode-1/summary.json"))["mode"]["amplitude"]
q0 = [float(rows[0][f"coupler.{a} [m]"]) for a in ("x", "y")]
centre = lambda q: np.array([q0[0] + amp * math.sin(2 * math.pi * q / 4) * float(m["coupler.x"]),
                             q0[1] + amp * math.sin(2 * math.pi * q / 4) * float(m["coupler.y"])])
def colour(png, p):
    info = json.load(open(png + ".json"))
    c, r = np.array(info["pixel_transform"]) @ [p[0], p[1], 1.0]
    rgb = np.array([int(info["colors"]["coupler"][k:k + 2], 16) / 255 for k in (1, 3, 5)])
    return mpimg.imread(png)[int(round(r)), int(round(c)), :3], rgb
got1, rgb = colour(f"{tmp}/f1.png", centre(1))
got3, _ = colour(f"{tmp}/f3.png", centre(1))
back, _ = colour(f"{tmp}/f3.png", centre(3))
assert np.max(abs(got1 - rgb)) < 0.03, f"not the coupler at its quarter-period centre: {got1}"
assert np.max(abs(back - rgb)) < 0.03, f"not the coupler at its 3/4-period centre: {back}"
assert np.max(abs(got3 - rgb)) > 0.2, f"the coupler did not move away at 3/4 period: {got3}"
print(f"ok   coupler centre moves {np.linalg.norm(centre(1) - centre(3)):.4f} m between the frames, drawn there")
PY

expect 0 "animate --mode 1 as a GIF of 8 frames" \
    "$CLINK" animate "$tmp/m" --mode 1 --format gif --frames 8 --size 320x180
n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames \
    -of csv=p=0 "$tmp/m/mode-1/animation.gif" | head -n1)
[ "$n" = 8 ] && ok "mode-1/animation.gif has 8 frames" || bad "gif: $n frames, expected 8"
expect 0 "view of the film" "$CLINK" view "$tmp/m/mode-1"
grep -q "four_bar_spring mode 1" "$tmp/m/mode-1/view.html" && ok "the page names the mode" ||
    bad "view.html does not name the mode"

# the page of the modes directory: every film's page, and a table that plays the first mode
expect 0 "modes of the double pendulum" "$CLINK" modes "$M/double_pendulum.xml" -o "$tmp/dp"
expect 0 "view of the modes directory" "$CLINK" view "$tmp/dp"
[ -s "$tmp/dp/view.html" ] && [ -s "$tmp/dp/mode-1/view.html" ] && [ -s "$tmp/dp/mode-2/view.html" ] &&
    ok "view.html and each mode's page written" || bad "the modes' pages are missing"
[ "$(grep -c 'data-film="mode-' "$tmp/dp/view.html")" = 2 ] && ok "the page offers the two modes" ||
    bad "the page does not offer the two films"
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
    chrome() {
        timeout 120 "$browser" --headless --no-sandbox --disable-gpu --virtual-time-budget=4000 \
            --dump-dom "$1" 2>/dev/null
    }
    chrome "file://$tmp/dp/view.html" >"$tmp/dom"
    grep -q 'class="film chosen"' "$tmp/dom" && grep -q 'src="mode-1/view.html"' "$tmp/dom" &&
        ok "in Chromium the page chose mode 1 and loads its film" ||
        bad "the page did not choose mode 1 in Chromium"
    chrome "file://$tmp/dp/mode-1/view.html#test&t=0.1" |
        sed -n 's/.*<pre id="clink-test">\(.*\)<\/pre>.*/\1/p' >"$tmp/rep.json"
    grep -q '"errors":\[\]' "$tmp/rep.json" && ok "mode 1's page runs without a script error" ||
        bad "mode 1's page: $(head -c 300 "$tmp/rep.json")"
else
    echo "skip: no chromium: the pages are not opened"
fi

expect 2 "animate --mode of a mode with no film" "$CLINK" animate "$tmp/m" --mode 7
says "the refusal names the missing film" "mode-7: no such film"
expect 2 "animate --mode 0" "$CLINK" animate "$tmp/m" --mode 0
expect 2 "modes --film-amplitude 0.9" "$CLINK" modes "$M/four_bar_spring.xml" --film-amplitude 0.9
expect 2 "modes --film-amplitude x" "$CLINK" modes "$M/four_bar_spring.xml" --film-amplitude x
exit $fail
