#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The demo's figures of the session's two studies (scripts/demo), drawn from small runs:
# `clink wear models/slider_crank_wear.xml --cycles 20000` (three updates) drawn by
# scripts/demo_wear.py: a non-empty PNG, and the worn volume and deepest depth it prints
# are those of wear_summary.json (the figure read the bore rows of joint 0); a sweep of the
# ball on a vibrating table over three amplitudes gathered by `clink bifurcation` (its SVG)
# and drawn by scripts/demo_bifurcation.py: a non-empty PNG of every sample of
# bifurcation.csv. Skipped without matplotlib and NumPy.
source "$(dirname "$0")/checks.bash"
py=${CLINK_PYTHON:-/usr/bin/python3}
"$py" -c "import matplotlib, numpy" 2>/dev/null || { echo "skip: matplotlib or NumPy missing"; exit 0; }
png() { # file: a PNG of some size
    [ -s "$1" ] && [ "$(head -c 8 "$1" | tail -c 7)" = "$(printf 'PNG\r\n\032\n')" ] &&
        [ "$(wc -c <"$1")" -gt 10000 ]
}

# the wear figure
expect 0 "clink wear 20000 cycles" "$CLINK" wear "$CLINK_SOURCE_DIR/models/slider_crank_wear.xml" \
    --cycles 20000 -o "$tmp/wear" -q
expect 0 "demo_wear.py" "$py" "$CLINK_SOURCE_DIR/scripts/demo_wear.py" "$tmp/wear" \
    "$CLINK_SOURCE_DIR/models/slider_crank_wear.xml" "$tmp/wear.png"
cat "$tmp/out"
png "$tmp/wear.png" && ok "wear.png is a PNG" || bad "wear.png missing, empty or not a PNG"
u=$(($(wc -l <"$tmp/wear/wear_updates.csv") - 1))
[ "$u" -ge 2 ] && grep -q "^$u updates, 20000 cycles: .* orbits of updates 0 and $((u - 1))$" "$tmp/out" &&
    ok "the $u updates of wear_updates.csv drawn" || bad "not the $u updates of wear_updates.csv"
"$py" - "$tmp/wear/wear_summary.json" "$tmp/out" <<'PY' && ok "printed volume and depth are the summary's" || bad "printed volume or depth differ from wear_summary.json"
import json, re, sys
j = json.load(open(sys.argv[1]))["joints"][0]
m = re.search(r"volume ([0-9.e+-]+) m\^3, deepest ([0-9.e+-]+) m", open(sys.argv[2]).read())
ok = m and abs(float(m.group(1)) / j["volume_bore"] - 1) < 1e-3 and \
    abs(float(m.group(2)) / j["depth_max_bore"] - 1) < 1e-3
sys.exit(0 if ok else 1)
PY
expect 2 "demo_wear.py without arguments" "$py" "$CLINK_SOURCE_DIR/scripts/demo_wear.py"

# the bifurcation figure
cat >"$tmp/bif.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<sweep model="$CLINK_SOURCE_DIR/models/bouncing_ball_table.xml" keep_outputs="true">
  <parameter path="driver[shaker].harmonic.amplitude" values="0.0140 0.0156 0.0169"/>
  <parameter path="settings.t_end" values="30"/>
  <parameter path="settings.output_step" values="0.2"/>
  <parameter path="poincare[strobe].start" values="20.1"/>
</sweep>
XML
expect 0 "clink sweep, three amplitudes" "$CLINK" sweep "$tmp/bif.xml" -o "$tmp/sw" -j 2 -q
expect 0 "clink bifurcation" "$CLINK" bifurcation "$tmp/sw" ball.y
head -c 4 "$tmp/sw/bifurcation.svg" | grep -q '<svg' && ok "bifurcation.svg" || bad "no bifurcation.svg"
expect 0 "demo_bifurcation.py" "$py" "$CLINK_SOURCE_DIR/scripts/demo_bifurcation.py" "$tmp/sw" \
    "$tmp/bif.png"
cat "$tmp/out"
png "$tmp/bif.png" && ok "bifurcation PNG" || bad "bifurcation PNG missing, empty or not a PNG"
n=$(($(wc -l <"$tmp/sw/bifurcation.csv") - 1))
grep -q "^3 values of driver\[shaker\].harmonic.amplitude from 0.014 to 0.0169, $n samples of ball.y" \
    "$tmp/out" && ok "every one of the $n samples drawn" || bad "values or samples drawn"
exit $fail
