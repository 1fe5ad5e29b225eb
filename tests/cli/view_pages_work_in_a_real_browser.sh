#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink view` writes one self-contained page (nothing fetched: no URL in a src or
# href) that works in a real browser, headless Chromium: for the clearance
# slider-crank (CSV and HDF5 runs) the page reports no script error; at the time set
# by the slider (#t=) the crank's colour is drawn at the crank's centre (pixels of a
# screenshot, the page's own world-to-pixel report) and the plot's cursor is a dark
# vertical line at the reported place, further right at a later time; a click on an
# impact row (#impact=K) jumps to that impact's onset. A sweep's page lists its cases,
# filters them (status!=ok keeps the crashed case) and reports no error. A 70-bead
# chain's page (a space-time map) loads without error. A missing directory exits 2.
set -u
. "$(dirname "$0")/checks.bash"
py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "skip: no chromium (scripts/install-deps installs it)"; exit 0; }
"$py" -c "import numpy, matplotlib" 2>/dev/null || { echo "skip: NumPy or matplotlib missing"; exit 0; }
size=1200,1600
chrome() { # URL [extra args]: the page's test report (the <pre id="clink-test"> text)
    local url=$1
    shift
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --window-size=$size --virtual-time-budget=4000 "$@" "$url" 2>/dev/null
}
report() { chrome "$1" --dump-dom | sed -n 's/.*<pre id="clink-test">\(.*\)<\/pre>.*/\1/p'; }

m="$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml"
"$CLINK" run "$m" -o "$tmp/run" --t-end 0.004 --quiet || bad "run"
"$CLINK" view "$tmp/run" >"$tmp/out" 2>"$tmp/err" || { bad "view: exit $?"; cat "$tmp/err"; }
page="$tmp/run/view.html"
[ -s "$page" ] && grep -q "^$page$" "$tmp/out" || bad "the page is not DIR/view.html"
grep -Eiq '(src|href) *= *"?(https?:)?//' "$page" && bad "the page fetches something"
[ "$fail" = 0 ] && ok "view wrote $(wc -c <"$page") bytes, nothing fetched"

for t in 0.002 0.003; do
    report "file://$page#test&t=$t" >"$tmp/rep$t.json"
    chrome "file://$page#t=$t" --screenshot="$tmp/shot$t.png" >/dev/null
    "$py" - "$tmp/rep$t.json" "$tmp/shot$t.png" "$t" <<'PY' || bad "page at t = $t"
import json, sys
import numpy as np
import matplotlib.image as mpimg
rep = json.load(open(sys.argv[1]))
img = mpimg.imread(sys.argv[2])[:, :, :3]
t = float(sys.argv[3])
assert rep["errors"] == [], rep["errors"]
assert abs(rep["t"] - t) < 1e-12, rep["t"]
def rgb(h):
    return np.array([int(h[k:k + 2], 16) / 255 for k in (1, 3, 5)])
x, y = rep["bodies"]["crank"]
got = img[int(round(y)), int(round(x))]
print(f"t = {t}: crank centre at pixel ({x:.0f}, {y:.0f}) is {np.round(got, 3)}, "
      f"crank {np.round(rgb(rep['colors']['crank']), 3)}")
assert np.max(abs(got - rgb(rep["colors"]["crank"]))) < 0.06, "not the crank's colour"
cx, cy = rep["cursor"]
strip = img[int(cy):int(cy) + 60, int(round(cx)) - 1:int(round(cx)) + 2]
print(f"cursor at x = {cx:.1f}: darkest pixel of its strip {strip.min():.2f}")
assert strip.min() < 0.3, "no cursor line where the page says it is"
json.dump(rep, open(sys.argv[1] + ".ok", "w"))
PY
done
"$py" - "$tmp/rep0.002.json.ok" "$tmp/rep0.003.json.ok" <<'PY' || bad "the cursor does not follow the time"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
print(f"cursor x: {a['cursor'][0]:.1f} px at 2 ms, {b['cursor'][0]:.1f} px at 3 ms")
assert b["cursor"][0] > a["cursor"][0] + 20
PY
[ "$fail" = 0 ] && ok "slider time: the crank drawn at its centre, the cursor follows"

# a click on impact row 1 jumps to its onset
report "file://$page#test&impact=1" >"$tmp/imp.json"
"$py" - "$tmp/imp.json" "$tmp/run/impacts.csv" <<'PY' && ok "a click on an impact jumps to its onset" || bad "impact click"
import csv, json, sys
rep = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
onset, dur = float(rows[1]["t [s]"]), float(rows[1]["duration [s]"])
print(f"     impact 1 at {onset:.6e} s, page at {rep['t']:.6e} s")
assert rep["errors"] == [] and rep["current_impact"] == 1
assert onset - max(dur, 1e-5) <= rep["t"] <= onset
PY

# an HDF5 run gives a page too
if "$CLINK" run "$m" -o "$tmp/h5" --t-end 0.004 --quiet --format hdf5 2>/dev/null; then
    "$CLINK" view "$tmp/h5" -o "$tmp/h5.html" >/dev/null || bad "view of an hdf5 run"
    report "file://$tmp/h5.html#test" >"$tmp/h5.json"
    grep -q '"errors":\[\]' "$tmp/h5.json" && ok "hdf5 run: page without error" || bad "hdf5 page: $(cat "$tmp/h5.json")"
fi

# a sweep: the table, filtered
cat >"$tmp/spec.xml" <<XML
<?xml version="1.0"?>
<sweep model="$m">
  <parameter path="settings.t_end" values="0.002"/>
  <parameter path="revolute_clearance[rod_slider].clearance" values="1e-4 5e-4 -1"/>
</sweep>
XML
"$CLINK" sweep "$tmp/spec.xml" -o "$tmp/sweep" -q >/dev/null 2>&1
[ -s "$tmp/sweep/sweep.csv" ] || bad "the sweep wrote no table"
"$CLINK" view "$tmp/sweep" >/dev/null || bad "view of a sweep"
nbad=$(awk -F, 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "status") s = i} NR > 1 && $s != "ok"' "$tmp/sweep/sweep.csv" | wc -l)
report "file://$tmp/sweep/sweep.html#test&filter=status!=ok" >"$tmp/sw.json"
"$py" - "$tmp/sw.json" "$nbad" <<'PY' && ok "sweep page: the filter keeps the $nbad case(s) not ok, marked" || bad "sweep page"
import json, sys
rep = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
print(f"     {rep}")
assert rep["errors"] == [] and n >= 1 and rep["rows"] == n and rep["bad"] == n
PY

# a chain: the space-time map
gen="$CLINK_SOURCE_DIR/validation/make_granular_chain.py"
if "$py" "$gen" --help >/dev/null 2>&1; then :; fi
"$CLINK" run "$CLINK_SOURCE_DIR/models/granular_chain.xml" -o "$tmp/chain" --t-end 2e-5 --quiet ||
    bad "chain run"
"$CLINK" view "$tmp/chain" -o "$tmp/chain.html" >/dev/null || bad "view of the chain"
report "file://$tmp/chain.html#test" >"$tmp/chain.json"
grep -q '"errors":\[\]' "$tmp/chain.json" && ok "chain: page without error ($(grep -o '"plots":[0-9]*' "$tmp/chain.json"))" ||
    bad "chain page: $(cat "$tmp/chain.json")"

"$CLINK" view "$tmp/none" 2>/dev/null
[ $? = 2 ] || bad "a missing directory is not exit 2"
exit $fail
