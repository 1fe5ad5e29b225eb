#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink run` of a model whose method is auto names the method switches it made (docs/kernel.md,
# "What auto picks and why"): the stiff lubricated slider-crank switches from Adams to BDF in
# its first millisecond, summary.json's "method_switches" lists the time, the methods and the
# reason (what was measured), its count is "method_switch_count", the final method is BDF and
# the summary line says "auto switched adams -> bdf"; the double pendulum under auto has no
# switch (no key, no words), and an explicit method has none either.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }
models=$CLINK_SOURCE_DIR/models
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

"$CLINK" run "$models/slider_crank_lubricated_stiff.xml" -o "$tmp/stiff" --t-end 0.005 \
    --rows grid >"$tmp/stiff.out" 2>/dev/null || bad "the stiff film run failed"
grep -q "auto switched adams -> bdf at t = " "$tmp/stiff.out" &&
    ok "the summary line names the switch" || bad "summary line: $(cat "$tmp/stiff.out")"
"$py" - "$tmp/stiff/summary.json" <<'PY' && ok "summary.json lists the switch" || bad "summary.json"
import json, sys
d = json.load(open(sys.argv[1]))
sw = d["method_switches"]
assert d["method_switch_count"] == len(sw) >= 1, d.get("method_switch_count")
assert sw[0]["from"] == "adams" and sw[0]["to"] == "bdf", sw[0]
assert 0 < sw[0]["t"] < 1e-3, sw[0]
assert sw[0]["reason"].startswith("stiff: h L = "), sw[0]
assert d["method"] == sw[-1]["to"] == "bdf" and d["auto"] is True, d["method"]
PY

for m in "auto double_pendulum.xml 1" "bdf slider_crank_lubricated_stiff.xml 0.005"; do
    set -- $m
    "$CLINK" run "$models/$2" -o "$tmp/$1" --t-end "$3" --rows grid --set "settings.method=$1" \
        >"$tmp/$1.out" 2>/dev/null || bad "$2 with $1 failed"
    if grep -q "switched" "$tmp/$1.out" || grep -q "method_switch" "$tmp/$1/summary.json"; then
        bad "$2 with method $1 names a switch"
    else
        ok "$2 with method $1: no switch"
    fi
done
exit $fail
