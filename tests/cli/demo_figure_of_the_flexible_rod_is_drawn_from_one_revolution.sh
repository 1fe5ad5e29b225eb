#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The demo's flexible-rod figure (scripts/demo): the clearance slider-crank with its rigid rod
# and with a flexible rod of 8 beam elements, each run by `clink run` over one crank
# revolution (0.012 s), drawn by scripts/demo_flexible.py: a non-empty PNG; the rows it
# drew are those of each run's timeseries.csv, both to 360 degrees; the mid-point deflection
# it prints is the largest distance of rod.4 from the chord rod.0 - rod.8 recomputed here from
# the flexible run's table, and is not zero (the rod bends). Skipped without matplotlib and
# NumPy.
source "$(dirname "$0")/checks.bash"
py=${CLINK_PYTHON:-/usr/bin/python3}
"$py" -c "import matplotlib, numpy" 2>/dev/null || { echo "skip: matplotlib or NumPy missing"; exit 0; }
expect 0 "clink run, rigid rod, one revolution" "$CLINK" run \
    "$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml" --t-end 0.012 -o "$tmp/rigid" -q
expect 0 "clink run, flexible rod" "$CLINK" run \
    "$CLINK_SOURCE_DIR/models/slider_crank_flexible_rod.xml" -o "$tmp/flex" -q
expect 0 "demo_flexible.py" "$py" "$CLINK_SOURCE_DIR/scripts/demo_flexible.py" "$tmp/rigid" \
    "$tmp/flex" "$tmp/flex.png"
cat "$tmp/out"
[ -s "$tmp/flex.png" ] && [ "$(head -c 8 "$tmp/flex.png" | tail -c 7)" = "$(printf 'PNG\r\n\032\n')" ] &&
    [ "$(wc -c <"$tmp/flex.png")" -gt 10000 ] && ok "flex.png is a PNG" || bad "flex.png missing, empty or not a PNG"
for run in rigid flex; do
    n=$(($(wc -l <"$tmp/$run/timeseries.csv") - 1))
    grep -q ": $n rows to 36[0-9]\.[0-9] deg," "$tmp/out" && ok "$run: its $n rows drawn over a revolution" ||
        bad "$run: not its $n rows, or not to 360 degrees"
done
"$py" - "$tmp/flex/timeseries.csv" "$tmp/out" <<'PY' && ok "printed deflection is the table's" || bad "printed deflection differs from the table's"
import csv, math, re, sys
rows = list(csv.reader(open(sys.argv[1])))
col = {h.split(" [")[0]: k for k, h in enumerate(rows[0])}
w = 0.0
for r in rows[1:]:
    a = [float(r[col[f"rod.{i}.{c}"]]) for i in (0, 4, 8) for c in "xy"]
    dx, dy = a[4] - a[0], a[5] - a[1]
    w = max(w, abs((a[2] - a[0]) * dy - (a[3] - a[1]) * dx) / math.hypot(dx, dy))
m = re.search(r"largest \|mid-point deflection\| ([0-9.e+-]+) m", open(sys.argv[2]).read())
sys.exit(0 if m and w > 0 and abs(float(m.group(1)) / w - 1) < 1e-3 else 1)
PY
expect 2 "demo_flexible.py without arguments" "$py" "$CLINK_SOURCE_DIR/scripts/demo_flexible.py"
exit $fail
