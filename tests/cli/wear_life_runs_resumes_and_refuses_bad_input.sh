#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink wear` (docs/wear.md) on the shipped models/slider_crank_wear.xml: 20000 cycles write
# the updates, the profiles, an orbit per update, the summary and the journal; the factor of
# every update keeps its depth within --fraction of the clearance (0.5 mm); a run cut after
# its first update and resumed from its journal ends with the same journal and tables, bit
# for bit, as the run that was not cut. Bad input is refused: a fraction of 1 or more (exit 2), a
# missing --cycles (exit 2), a model without <wear> (exit 1, naming the file), a resume with
# other options (exit 1). (The life of a guide: wear_life_of_a_guide_runs_resumes_and_refuses_bad_input.sh.)
# The summary gives the share of the journal's wear its fed-back pin takes (pin_scale).
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }
m="$CLINK_SOURCE_DIR/models/slider_crank_wear.xml"

"$CLINK" wear "$m" --cycles 20000 -o "$tmp/a" -q >/dev/null || bad "clink wear 20000 cycles"
for f in wear_updates.csv wear_profile.csv orbit_00000.csv wear_summary.json wear.journal; do
    [ -s "$tmp/a/$f" ] && ok "wrote $f" || bad "no $f"
done
grep -q '"cycles": 20000' "$tmp/a/wear_summary.json" && ok "summary: 20000 cycles" ||
    bad "summary cycles"
# every update adds at most 2% of the clearance (1e-5 m) to the deepest point
awk -F, 'NR > 1 && $10 > 1.0000001e-5 { bad = 1 } NR > 1 { n++ } END { exit (bad || n < 2) }' \
    "$tmp/a/wear_updates.csv" && ok "each update adds <= 0.02 of the clearance" ||
    bad "an update added more than the fraction"

# cut after the first update, resumed: the same journal
"$CLINK" wear "$m" --cycles 20000 -o "$tmp/b" -q >/dev/null || bad "second run"
head -n 2 "$tmp/b/wear.journal" >"$tmp/j" && mv "$tmp/j" "$tmp/b/wear.journal"
"$CLINK" wear "$m" --cycles 20000 -o "$tmp/b" -q --resume >/dev/null || bad "resume"
cmp -s "$tmp/a/wear.journal" "$tmp/b/wear.journal" && cmp -s "$tmp/a/wear_updates.csv" "$tmp/b/wear_updates.csv" &&
    cmp -s "$tmp/a/wear_profile.csv" "$tmp/b/wear_profile.csv" && ok "resumed journal and tables identical" ||
    bad "resumed journal or tables differ"

# refusals
"$CLINK" wear "$m" --cycles 10 -o "$tmp/c" --fraction 1 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "fraction" "$tmp/err" && ok "fraction 1 refused" || bad "fraction 1"
"$CLINK" wear "$m" -o "$tmp/c" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--cycles" "$tmp/err" && ok "missing --cycles refused" ||
    bad "missing --cycles"
"$CLINK" wear "$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml" --cycles 10 -o "$tmp/c" \
    2>"$tmp/err"
[ $? -eq 1 ] && grep -q "slider_crank_clearance.xml: no clearance joint has <wear>" "$tmp/err" &&
    ok "model without wear refused" || bad "model without wear: $(cat "$tmp/err")"
grep -q '"pin_scale": ' "$tmp/a/wear_summary.json" && ok "summary: the pin's share" ||
    bad "summary without pin_scale"
"$CLINK" wear "$m" --cycles 30000 -o "$tmp/a" -q --resume 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "cannot resume" "$tmp/err" && ok "resume with other options refused" ||
    bad "resume with other options"
exit $fail
