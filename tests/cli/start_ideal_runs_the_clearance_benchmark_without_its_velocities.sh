#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# <settings start="ideal"> (docs/xml-reference.md, "Starting a clearance mechanism"):
# examples/slider_crank_clearance_ideal_start.xml is models/slider_crank_clearance.xml
# without its hand-derived initial velocities. It starts without a warning and its first
# impacts are those of the shipped file (their velocities agree to about 1e-10 m/s: the
# first impact's time to 1e-9 and speed to 1e-6, relative); with start="as_given" the same
# file warns of its journal approaching the bearing at 13 m/s and strikes it at once.
set -u
. "$CLINK_SOURCE_DIR/tests/cli/checks.bash"
ex=$CLINK_SOURCE_DIR/examples/slider_crank_clearance_ideal_start.xml
ref=$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml

expect 0 "check of the example" "$CLINK" check "$ex"
grep -q "warning" "$tmp/err" && bad "the example warns: $(cat "$tmp/err")" || ok "no warning"
expect 0 "run of the example" "$CLINK" run "$ex" -o "$tmp/ex" -q --set settings.t_end=0.002
expect 0 "run of the shipped file" "$CLINK" run "$ref" -o "$tmp/ref" -q --set settings.t_end=0.002
first() { sed -n 2p "$1/impacts.csv" | cut -d, -f"$2"; }
/usr/bin/env python3 - "$(first "$tmp/ex" 1)" "$(first "$tmp/ref" 1)" "$(first "$tmp/ex" 3)" \
    "$(first "$tmp/ref" 3)" <<'PY' && ok "the first impact is the shipped file's" ||
import sys
t, t0, v, v0 = map(float, sys.argv[1:])
print("first impact: t %r s against %r s, v %r m/s against %r m/s" % (t, t0, v, v0))
sys.exit(0 if abs(t - t0) <= 1e-9 * t0 and abs(v - v0) <= 1e-6 * v0 else 1)
PY
    bad "the first impact differs from the shipped file's"
expect 0 "check as given" "$CLINK" check "$ex" --set settings.start=as_given
says "as given, the journal's approach is warned" \
    "clearance joint 'rod_slider' starts with its journal approaching the bearing at 13.2 m/s"
expect 0 "run as given" "$CLINK" run "$ex" -o "$tmp/given" -q --set settings.start=as_given \
    --set settings.t_end=0.002
t=$(first "$tmp/given" 1)
/usr/bin/env python3 -c "import sys; sys.exit(0 if float('$t') < 1e-4 else 1)" &&
    ok "as given, the journal strikes at once (t = $t s)" || bad "as given, first impact at $t s"
exit $fail
