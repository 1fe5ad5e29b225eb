#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The simulator's physical-sanity findings reach the run's outcome: a ball on a
# contact law too soft for its weight sinks by 0.29 of its radius (a warning:
# exit 0, status "ok", the finding listed under "warnings" and on stderr) or
# through its whole radius (implausible: exit 1, status "failed", the finding as
# the message). The default ball drop has no finding and an empty list.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }
model=$CLINK_SOURCE_DIR/models/ball_drop.xml
law='<law name="gonthier-exact" e="0.8"/>'
grep -q "$law" "$model" || { echo "FAIL the ball drop no longer has $law"; exit 1; }

soft() { sed "s|$law|<law name=\"hunt-crossley\" K=\"$1\" e=\"0.8\"/>|" "$model" >"$tmp/$2.xml"; }

"$CLINK" run "$model" -o "$tmp/plain" --t-end 1 --quiet
[ $? = 0 ] && ok "the shipped ball drop runs" || bad "the shipped ball drop failed"
grep -q '"warnings": \[\]' "$tmp/plain/summary.json" && ok "no finding, empty warnings" ||
    bad "the shipped ball drop has warnings"

soft 3e4 warn
"$CLINK" run "$tmp/warn.xml" -o "$tmp/warn" --t-end 1 >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st = 0 ] && ok "a deep penetration is a warning (exit 0)" || bad "warning case: exit $st"
grep -q '"status": "ok"' "$tmp/warn/summary.json" && ok "warning case: status ok" ||
    bad "warning case: status not ok"
# (after the warning that hunt-crossley's rule does not reach e = 0.8)
sed -n '/"warnings": \[/,/^  \],\?$/p' "$tmp/warn/summary.json" | grep -q "penetrates" &&
    ok "the finding is listed under warnings" || bad "no penetration warning in the summary"
grep -q "warning: .*penetrates" "$tmp/err" && ok "and printed on stderr" ||
    bad "the warning is not on stderr"

soft 300 sink
"$CLINK" run "$tmp/sink.xml" -o "$tmp/sink" --t-end 1 --quiet 2>"$tmp/err"
st=$?
[ $st = 1 ] && ok "a shape pressed through is implausible (exit 1)" || bad "implausible case: exit $st"
grep -q '"status": "failed"' "$tmp/sink/summary.json" && ok "implausible case: status failed" ||
    bad "implausible case: status not failed"
# the finding's own time, "implausible" once (once "implausible result: implausible at t = ...")
grep -q '"message": "implausible result at t = [0-9.e+-]* s: contact '"'"'floor'"'"' penetrates' \
    "$tmp/sink/summary.json" && ok "the finding is the message" ||
    bad "the message does not name the finding"
grep -q "implausible.*implausible" "$tmp/err" && bad "implausible twice: $(cat "$tmp/err")" ||
    ok "implausible said once"
exit $fail
