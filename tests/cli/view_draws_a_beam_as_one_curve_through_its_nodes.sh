#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink view` draws a flexible beam as `clink animate` does, one curve through its nodes, in
# headless Chromium: the cantilever of models/cantilever_beam.xml 60 ms after its tip load
# (its tip 86 mm down): the page reports no script error, the beam with its nine nodes in
# order, one colour for them all; a screenshot has the beam's colour at each node (the
# page's own world-to-pixel report) and along the curve, and the background 10 px across the
# beam from each node (a node drawn as a body, a block, would be there). The flexible
# slider-crank's page reports no error and the rod in one colour.
set -u
. "$(dirname "$0")/checks.bash"
py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "skip: no chromium (scripts/install-deps installs it)"; exit 0; }
"$py" -c "import numpy, matplotlib" 2>/dev/null || { echo "skip: NumPy or matplotlib missing"; exit 0; }
chrome() { # URL [extra args]
    local url=$1
    shift
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size=1200,1600 --virtual-time-budget=4000 "$@" "$url" 2>/dev/null
}
report() { chrome "$1" --dump-dom | sed -n 's/.*<pre id="clink-test">\(.*\)<\/pre>.*/\1/p'; }

"$CLINK" run "$CLINK_SOURCE_DIR/models/cantilever_beam.xml" -o "$tmp/run" --t-end 0.06 \
    --output-step 1e-3 --quiet || bad "run"
"$CLINK" view "$tmp/run" >/dev/null 2>"$tmp/err" || { bad "view: exit $?"; cat "$tmp/err"; }
report "file://$tmp/run/view.html#test&t=0.06" >"$tmp/rep.json"
chrome "file://$tmp/run/view.html#t=0.06" --screenshot="$tmp/shot.png" >/dev/null
"$py" - "$tmp/rep.json" "$tmp/shot.png" <<'PY' || bad "the beam on the page"
import json, math, sys
import numpy as np
import matplotlib.image as mpimg
rep = json.load(open(sys.argv[1]))
img = mpimg.imread(sys.argv[2])[:, :, :3]
assert rep["errors"] == [], rep["errors"]
assert abs(rep["t"] - 0.06) < 1e-12, rep["t"]
beam = rep["beams"]["cantilever"]
nodes = [f"cantilever.{i}" for i in range(9)]
assert beam["nodes"] == nodes, beam["nodes"]
assert all(rep["colors"][n] == beam["color"] for n in nodes), "a node has its own colour"
rgb = np.array([int(beam["color"][k:k + 2], 16) / 255 for k in (1, 3, 5)])
px = lambda p: img[int(round(p[1])), int(round(p[0]))]
on = [np.max(abs(px(rep["bodies"][n]) - rgb)) for n in nodes]
on += [np.max(abs(px(p) - rgb)) for p in beam["curve"]]
off = []
for i, n in enumerate(nodes):  # across the beam: normal to the curve's chord at the node
    a, b = rep["bodies"][nodes[max(i - 1, 0)]], rep["bodies"][nodes[min(i + 1, 8)]]
    d = np.array(b) - np.array(a)
    u = np.array([-d[1], d[0]]) / np.hypot(*d)
    for s in (1, -1):
        off.append(np.min(px(np.array(rep["bodies"][n]) + 10 * s * u)))
print(f"beam colour {np.round(rgb, 3)}: largest gap at the nodes and {len(beam['curve'])} curve "
      f"points {max(on):.3f}; darkest channel 10 px across the beam {min(off):.3f}")
assert max(on) < 0.06, "not the beam's colour along its curve"
assert min(off) > 0.9, "something drawn across the beam beside a node"
PY
[ "$fail" = 0 ] && ok "the page draws the cantilever as one curve through its nine nodes"

"$CLINK" run "$CLINK_SOURCE_DIR/models/slider_crank_flexible_rod.xml" -o "$tmp/sc" --t-end 0.002 \
    --quiet || bad "slider-crank run"
"$CLINK" view "$tmp/sc" >/dev/null 2>"$tmp/err" || { bad "view: exit $?"; cat "$tmp/err"; }
report "file://$tmp/sc/view.html#test&t=0.001" >"$tmp/sc.json"
"$py" - "$tmp/sc.json" <<'PY' && ok "the flexible slider-crank's page: the rod in one colour, no error" ||
import json, sys
rep = json.load(open(sys.argv[1]))
assert rep["errors"] == [], rep["errors"]
rod = rep["beams"]["rod"]
assert rod["nodes"] == [f"rod.{i}" for i in range(9)]
assert len({rep["colors"][n] for n in rod["nodes"]}) == 1
assert rep["colors"]["crank"] != rod["color"] != rep["colors"]["slider"]
PY
    bad "the flexible slider-crank's page"
exit $fail
