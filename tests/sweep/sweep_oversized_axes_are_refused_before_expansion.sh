#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A sweep specification of a few lines whose ranges or random axes would exceed
# the sweep's limits (10,000,000 cases; 20,000,000 values of ranges and random
# axes in all) is refused before their values are generated: exit 2 with
# "FILE:LINE: N cases: more than 10000000" (or "N values ... in all") within a
# few seconds. Before the check, the specification below spent minutes and
# hundreds of megabytes generating ten million values, only to be refused after
# (found by the sweep reader's fuzz target's review, docs/development.md).
set -euo pipefail
. "${CLINK_SOURCE_DIR:?}/tests/sweep/scratch.bash"
. "$CLINK_SOURCE_DIR/tests/sweep/refused.bash"
model="$CLINK_SOURCE_DIR/models/slider_crank.xml"

# 3 x 10^7 cases: the range of ten million values is refused before it is generated
printf '<?xml version="1.0"?>\n<sweep model="%s">\n  <parameter path="body[crank].mass" values="1 2 3"/>\n  <parameter path="body[rod].mass" from="1" to="2" count="10000000"/>\n</sweep>\n' "$model" > spec.xml
expect 4 "30000000 cases: more than 10000000"

# the same in a zip
printf '<?xml version="1.0"?>\n<sweep model="%s">\n  <parameter path="body[crank].mass" values="1 2"/>\n  <zip>\n    <parameter path="body[rod].mass" from="1" to="2" count="10000000"/>\n    <parameter path="body[rod].inertia" from="1" to="2" count="10000000"/>\n  </zip>\n</sweep>\n' "$model" > spec.xml
expect 5 "20000000 cases: more than 10000000"

# 10^7 random cases of three parameters: 3 x 10^7 values
printf '<?xml version="1.0"?>\n<sweep model="%s">\n  <random count="10000000" seed="1">\n    <parameter path="body[crank].mass" from="1" to="2"/>\n    <parameter path="body[rod].mass" from="1" to="2"/>\n    <parameter path="body[slider].mass" from="1" to="2"/>\n  </random>\n</sweep>\n' "$model" > spec.xml
expect 3 "30000000 values of ranges and random axes: more than 20000000 in all"

# within the limits, a range after a list still expands (2 x 5 cases, run to 1 ms)
printf '<?xml version="1.0"?>\n<sweep model="%s">\n  <parameter path="settings.t_end" values="0.001"/>\n  <parameter path="body[crank].mass" values="1 2"/>\n  <parameter path="body[rod].mass" from="1" to="2" count="5"/>\n</sweep>\n' "$model" > spec.xml
"$CLINK" sweep spec.xml -o out -j 1 --quiet > /dev/null 2> err.txt || fail "a small sweep failed: $(cat err.txt)"
[ "$(tail -n +2 out/sweep.csv | wc -l)" -eq 10 ] || fail "expected 10 cases: $(cat out/sweep.csv)"
echo "ok"
