#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink run --set PATH=VALUE` (docs/xml-reference.md, "Overrides by path") gives
# byte for byte the outputs of the file edited by hand with the same value (sed on a
# copy: the journal radius of the clearance slider-crank, a law parameter of the two
# spheres), records the effective values in summary.json, puts runs with different
# overrides into different default directories (out/NAME@PATH=VALUE,...) so that
# they never overwrite each other, and refuses a path that names nothing, a
# non-number and a value out of range with the path and the reason, exit 2, nothing
# written; `clink check --set` refuses what run refuses.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }
models=$CLINK_SOURCE_DIR/models
cd "$tmp" || exit 1

# the clearance slider-crank: --set journal_radius against the edited file
sed 's/journal_radius="0.0095"/journal_radius="0.0098"/' "$models/slider_crank_clearance.xml" \
    >edited.xml
grep -q 'journal_radius="0.0098"' edited.xml || bad "sed did not edit the copy"
"$CLINK" run edited.xml -o edited --t-end 0.004 --no-timing --quiet || bad "edited run failed"
"$CLINK" run "$models/slider_crank_clearance.xml" --t-end 0.004 --no-timing --quiet \
    --set 'revolute_clearance[rod_slider].journal_radius=9.8e-3' || bad "--set run failed"
dir='out/slider_crank_clearance@revolute_clearance[rod_slider].journal_radius=0.0098'
if [ -f "$dir/summary.json" ]; then ok "default directory named after the override"; else
    bad "no $dir"; ls out; fi
for f in timeseries.csv impacts.csv; do
    if cmp -s "edited/$f" "$dir/$f"; then ok "$f equals the edited file's"; else bad "$f differs"; fi
done
grep -q '"revolute_clearance\[rod_slider\].journal_radius": 0.0098' "$dir/summary.json" &&
    ok "summary.json records the effective value" || bad "summary.json: no override"
grep -q '"overrides"' edited/summary.json && bad "a run without overrides records some"

# a law parameter by path, through the clearance rule's sibling: the two spheres' e
sed 's/K="5.5e9" e="0.7"/K="5.5e9" e="0.5"/' "$models/two_spheres.xml" >spheres.xml
"$CLINK" run spheres.xml -o s1 --no-timing --quiet || bad "edited spheres failed"
"$CLINK" run "$models/two_spheres.xml" -o s2 --set 'pair[spheres].law.e=0.5' --no-timing \
    --quiet || bad "--set spheres failed"
cmp -s s1/impacts.csv s2/impacts.csv && ok "law parameter by path equals the edited file" ||
    bad "impacts differ with law.e"

# two overrides, two directories; the same override written differently, the same one
"$CLINK" run "$models/two_spheres.xml" --set 'law.e=0.6' --t-end 1e-3 --quiet || bad "e=0.6"
"$CLINK" run "$models/two_spheres.xml" --set 'law.e=0.8' --t-end 1e-3 --quiet || bad "e=0.8"
"$CLINK" run "$models/two_spheres.xml" --set 'law.e=8e-1' --t-end 1e-3 --quiet || bad "e=8e-1"
n=$(ls -d out/two_spheres@* | wc -l)
[ "$n" = 2 ] && ok "different overrides, different directories ($n)" || bad "$n directories"

# errors: exit 2, the path and the reason, nothing written
expect_refusal() { # what pattern args...
    local what=$1 pat=$2
    shift 2
    rm -rf refused
    "$CLINK" "$@" >out.txt 2>err.txt
    local rc=$?
    if [ $rc = 2 ] && grep -q -- "$pat" err.txt && [ ! -e refused ]; then ok "$what"; else
        bad "$what: exit $rc, stderr: $(cat err.txt)"; fi
}
sc=$models/slider_crank_clearance.xml
expect_refusal "a path naming nothing" "override 'revolute_clearance\[nope\].clearance=1e-4': names no element" \
    run "$sc" -o refused --set 'revolute_clearance[nope].clearance=1e-4'
expect_refusal "a non-number" "override 'settings.rtol=abc': 'abc' is not a number" \
    run "$sc" -o refused --set settings.rtol=abc
expect_refusal "a value out of range" ":17: .*(override 'settings.rtol=-1')" \
    run "$sc" -o refused --set settings.rtol=-1
expect_refusal "an ambiguous path" "add \[NAME\]" run "$sc" -o refused --set body.mass=1
expect_refusal "check refuses the same" "(override 'revolute_clearance\[rod_slider\].clearance=-1e-4')" \
    check "$sc" --set 'revolute_clearance[rod_slider].clearance=-1e-4'
"$CLINK" check "$sc" --set 'revolute_clearance[rod_slider].clearance=2e-4' >check.txt &&
    ok "check accepts a valid override" || bad "check refused a valid override"
grep -q 'override *revolute_clearance\[rod_slider\].clearance = 0.0002 (the file: not given)' \
    check.txt && ok "check lists the override" || bad "check output: $(cat check.txt)"
exit $fail
