#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A sweep specification that breaks the schema or a rule the schema cannot say is
# refused before anything runs: exit 2, "FILE:LINE: what is wrong", no output directory.
set -euo pipefail
. "${CLINK_SOURCE_DIR:?}/tests/sweep/scratch.bash"
. "$CLINK_SOURCE_DIR/tests/sweep/refused.bash"
model="$CLINK_SOURCE_DIR/models/slider_crank.xml"

printf '<?xml version="1.0"?>\n<sweep model="%s">\n  <parameter path="settings.t_end" values="0.1" from="1" to="2" count="3"/>\n</sweep>\n' "$model" > spec.xml
expect 3 "a list of values or a range"

printf '<?xml version="1.0"?>\n<sweep model="%s">\n  <zip>\n    <parameter path="body[crank].mass" values="1 2"/>\n    <parameter path="body[rod].mass" values="1 2 3"/>\n  </zip>\n</sweep>\n' "$model" > spec.xml
expect 3 "equal length"

printf '<?xml version="1.0"?>\n<sweep model="%s">\n\n  <parameter path="body[crank].mass" from="0" to="1" count="4" scale="log"/>\n</sweep>\n' "$model" > spec.xml
expect 4 "log range needs from > 0"

printf '<?xml version="1.0"?>\n<sweep model="%s">\n  <parameter path="body[crank].mass" values="1"/>\n  <grid/>\n</sweep>\n' "$model" > spec.xml
expect 4 "grid"

printf '<?xml version="1.0"?>\n<sweep model="%s">\n  <random count="3" seed="1">\n    <parameter path="body[crank].mass" from="1"/>\n  </random>\n</sweep>\n' "$model" > spec.xml
expect 4 "to"

printf '<?xml version="1.0"?>\n<sweep model="%s">\n  <parameter path="body[crank].mass" from="1" to="2"/>\n</sweep>\n' "$model" > spec.xml
expect 3 "needs values"

printf '<?xml version="1.0"?>\n<sweep model="%s">\n  <parameter path="body[crank].mass" values="1"/>\n  <parameter path="body[crank].mass" values="2"/>\n</sweep>\n' "$model" > spec.xml
expect 4 "given twice"

printf '<?xml version="1.0"?>\n<sweep model="%s">\n  <parameter path="body[crank].mass" values="1"/>\n  <collect quantities="impacts speed"/>\n</sweep>\n' "$model" > spec.xml
expect 4 "speed"

printf '<?xml version="1.0"?>\n<sweep model="%s">\n  <parameter path="body[crank].mass" values="1"\n</sweep>\n' "$model" > spec.xml
expect 4 ""

# a missing model file: exit 2 with the reason
printf '<?xml version="1.0"?>\n<sweep model="nowhere.xml">\n  <parameter path="body[crank].mass" values="1"/>\n</sweep>\n' > spec.xml
set +e
"$CLINK" sweep spec.xml -o out 2> err.txt; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "nowhere.xml: cannot read" err.txt || fail "missing model: exit $rc: $(cat err.txt)"

# options: -j out of range, no -o
set +e
"$CLINK" sweep spec.xml -o out -j 0 2> err.txt; rc=$?
set -e
[ $rc -eq 2 ] || fail "-j 0 accepted"
set +e
"$CLINK" sweep spec.xml 2> err.txt; rc=$?
set -e
[ $rc -eq 2 ] && grep -q -- "-o DIR" err.txt || fail "missing -o accepted"

# the grid: lists, ranges, zip and random expand to the expected cases and values
cat > spec.xml <<XML
<?xml version="1.0"?>
<sweep model="$model" keep_outputs="true">
  <parameter path="settings.t_end" values="0.001"/>
  <parameter path="body[crank].mass" from="0.1" to="1000" count="5" scale="log"/>
  <zip>
    <parameter path="body[rod].mass" from="0.2" to="0.4" count="3"/>
    <parameter path="body[rod].inertia"><value>1e-4</value><value>2e-4</value><value>3e-4</value></parameter>
  </zip>
  <random count="4" seed="12345">
    <parameter path="body[slider].mass" from="0.1" to="10" scale="log"/>
  </random>
  <collect quantities="steps"/>
</sweep>
XML
"$CLINK" sweep spec.xml -o grid -q
python3 - grid/sweep.csv <<'PY'
import csv, math, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 5 * 3 * 4, len(rows)
assert list(rows[0].keys()) == ["case", "settings.t_end", "body[crank].mass", "body[rod].mass",
    "body[rod].inertia", "body[slider].mass", "status", "t_failed", "cause", "steps",
    "wall_time"], list(rows[0].keys())
crank = sorted({float(r["body[crank].mass"]) for r in rows})
for a, b in zip(crank, [0.1, 1, 10, 100, 1000]):
    assert abs(a - b) <= 1e-12 * b, (a, b)
# first axis slowest: case k = ((i_crank * 3) + i_zip) * 4 + i_random
for r in rows:
    k = int(r["case"])
    assert float(r["body[crank].mass"]) == crank[k // 12]
    j = (k // 4) % 3
    assert abs(float(r["body[rod].mass"]) - (0.2 + 0.1 * j)) < 1e-15, r
    assert float(r["body[rod].inertia"]) == [1e-4, 2e-4, 3e-4][j]
    assert r["status"] == "ok", r
    assert int(r["steps"]) > 0
rnd = [float(r["body[slider].mass"]) for r in rows[:4]]
assert len(set(rnd)) == 4 and all(0.1 <= x <= 10 for x in rnd), rnd
assert [float(r["body[slider].mass"]) for r in rows[4:8]] == rnd
print("grid ok")
PY
# keep_outputs: every case's run directory, its summary.json naming its overrides
[ "$(ls grid/cases | wc -l)" -eq 60 ] || fail "keep_outputs: $(ls grid/cases | wc -l) case directories"
for k in 000000 000059; do
    [ -s grid/cases/$k/timeseries.csv ] || fail "no timeseries.csv in case $k"
    grep -q '"status": "ok"' grid/cases/$k/summary.json || fail "case $k summary"
    grep -q '"body\[slider\].mass"' grid/cases/$k/summary.json || fail "case $k overrides"
done
echo "ok: specification errors refused with FILE:LINE; the grid expands as documented"
