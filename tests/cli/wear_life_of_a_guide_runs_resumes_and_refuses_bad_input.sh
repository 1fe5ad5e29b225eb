#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink wear` on a translational clearance joint's guide (docs/wear.md, "Life simulation of a
# guide"): the shipped models/slider_crank_translational_wear.xml over 12000 cycles writes the
# guide's updates, its profiles (rows guide_lower and guide_upper, the header saying where
# the cells are), the slider's orbit in its guide per update, the summary and the journal,
# no journal orbit or wear_updates.csv (no revolute joint); every update
# adds at most --fraction (0.02) of the 1 mm clearance; the deepest point grows. A run cut
# after its first update (the journal shortened, a half-written line left at its end) and a
# run killed mid-way, each resumed from its journal, end with the same journal and tables,
# bit for bit, as the run that was not cut. A model with a worn bore and a worn guide (the
# clearance slider-crank of models/slider_crank_wear.xml on a clearance guide) runs both.
# Bad input is refused: a <wear> with a negative k (FILE:LINE), a guide grid coarser than
# the knots (argument named), a guide worn through its wall, one cycle wearing more than the
# clearance.
set -u
fail=0
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }
m="$CLINK_SOURCE_DIR/models/slider_crank_translational_wear.xml"
N=12000

"$CLINK" wear "$m" --cycles $N -o "$tmp/a" -q >/dev/null || bad "clink wear $N cycles"
for f in wear_guide_updates.csv wear_profile.csv wear_summary.json wear.journal; do
    [ -s "$tmp/a/$f" ] && ok "wrote $f" || bad "no $f"
done
[ ! -e "$tmp/a/orbit_00000.csv" ] && [ ! -e "$tmp/a/wear_updates.csv" ] &&
    ok "no journal orbit or revolute table without a revolute joint" || bad "orbit or wear_updates.csv written"
[ "$(head -n 1 "$tmp/a/guide_orbit_00000.csv")" = "update,joint,t [s],x [m],y [m],angle [rad]" ] &&
    [ "$(wc -l <"$tmp/a/guide_orbit_00000.csv")" -gt 400 ] && ok "the slider's orbit in its guide" ||
    bad "guide_orbit_00000.csv"
grep -q "\"cycles\": $N" "$tmp/a/wear_summary.json" && grep -q '"guides": \[' "$tmp/a/wear_summary.json" &&
    ok "summary: $N cycles, the guide" || bad "summary"
head -n 1 "$tmp/a/wear_profile.csv" | grep -q "guide_lower and guide_upper at x = guide_length" &&
    ok "profile header says where the guide's cells are" || bad "profile header"
[ "$(grep -c ',guide_lower,300,' "$tmp/a/wear_profile.csv")" -ge 2 ] &&
    [ "$(grep -c ',guide_upper,300,' "$tmp/a/wear_profile.csv")" -ge 2 ] &&
    ok "profile rows of both surfaces" || bad "profile rows"
# every update adds at most 2% of the clearance (2e-5 m) at any cell; the depth grows
awk -F, 'NR > 1 && $13 > 2.0000001e-5 { bad = 1 } NR > 1 && $9 < last { bad = 1 }
         NR > 1 { n++; last = $9 } END { exit (bad || n < 3 || last <= 0) }' \
    "$tmp/a/wear_guide_updates.csv" && ok "each update adds <= 0.02 of the clearance, depth grows" ||
    bad "an update added more than the fraction, or the depth did not grow"

# cut after the first update, with half a line after it: resumed, the same journal and tables
"$CLINK" wear "$m" --cycles $N -o "$tmp/b" -q >/dev/null || bad "second run"
{ head -n 2 "$tmp/b/wear.journal"; sed -n 3p "$tmp/b/wear.journal" | head -c 200; } >"$tmp/j"
mv "$tmp/j" "$tmp/b/wear.journal"
"$CLINK" wear "$m" --cycles $N -o "$tmp/b" -q --resume >/dev/null || bad "resume"
for f in wear.journal wear_guide_updates.csv wear_profile.csv wear_summary.json; do
    cmp -s "$tmp/a/$f" "$tmp/b/$f" && ok "cut and resumed: $f identical" || bad "cut and resumed: $f differs"
done

# killed once its journal has two updates, then resumed
"$CLINK" wear "$m" --cycles $N -o "$tmp/k" -q >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do
    [ "$(wc -l <"$tmp/k/wear.journal" 2>/dev/null || echo 0)" -ge 3 ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pid=
"$CLINK" wear "$m" --cycles $N -o "$tmp/k" -q --resume >/dev/null || bad "resume after a kill"
for f in wear.journal wear_guide_updates.csv wear_profile.csv; do
    cmp -s "$tmp/a/$f" "$tmp/k/$f" && ok "killed and resumed: $f identical" ||
        bad "killed and resumed: $f differs"
done

# a worn bore and a worn guide in one model: both run, both tabled
sed -e 's#<translational name="guide" body1="ground" point1="0 0" body2="slider" point2="0 0" axis="1 0"/>#<translational_clearance name="guide" guide="ground" guide_point="0.12 0" axis="1 0" slider="slider" slider_point="0 0" length="0.04" height="0.02" clearance="0.0005" guide_length="0.2"><law name="lankarani-nikravesh" K="1e10" n="1.5" e="0.9"/><wear kd="1e-14" length="0.01" grid="200" wall="0.002"/></translational_clearance>#' \
    "$CLINK_SOURCE_DIR/models/slider_crank_wear.xml" >"$tmp/mixed.xml"
"$CLINK" wear "$tmp/mixed.xml" --cycles 3000 -o "$tmp/x" -q >/dev/null 2>"$tmp/err" &&
    [ "$(wc -l <"$tmp/x/wear_updates.csv")" -ge 3 ] &&
    [ "$(wc -l <"$tmp/x/wear_updates.csv")" -eq "$(wc -l <"$tmp/x/wear_guide_updates.csv")" ] &&
    grep -q ',bore,' "$tmp/x/wear_profile.csv" && grep -q ',guide_lower,' "$tmp/x/wear_profile.csv" &&
    ok "bore and guide worn in one model" || bad "mixed model: $(cat "$tmp/err")"

# refusals
sed 's/<wear k="2e-4"/<wear k="-2e-4"/' "$m" >"$tmp/neg.xml"
line=$(grep -n '<wear k="-2e-4"' "$tmp/neg.xml" | cut -d: -f1)
"$CLINK" wear "$tmp/neg.xml" --cycles 10 -o "$tmp/c" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "neg.xml:$line: .*<wear> k = -0.0002 is out of range" "$tmp/err" &&
    ok "negative k refused at FILE:LINE" || bad "negative k: $(cat "$tmp/err")"
"$CLINK" wear "$m" --cycles 10 -o "$tmp/c" --set 'translational_clearance[guide].wear.grid=20' \
    2>"$tmp/err"
[ $? -eq 1 ] && grep -q "grid of 20 cells is coarser than the 36 knots" "$tmp/err" &&
    ok "grid coarser than the knots refused" || bad "coarse grid: $(cat "$tmp/err")"
"$CLINK" wear "$m" --cycles 100000 -o "$tmp/c" -q --set 'translational_clearance[guide].wear.wall=3e-5' \
    2>"$tmp/err"
[ $? -eq 1 ] && grep -q "its guide is worn through: depth .* reaches the wall thickness 3e-05 m" "$tmp/err" &&
    ok "guide worn through its wall refused" || bad "worn through: $(cat "$tmp/err")"
"$CLINK" wear "$m" --cycles 10 -o "$tmp/c" -q --set 'translational_clearance[guide].wear.k=100' \
    2>"$tmp/err"
[ $? -eq 1 ] && grep -q "one update of 1 cycles wears its guide by .* more than the clearance" "$tmp/err" &&
    ok "one cycle wearing more than the clearance refused" || bad "overrun: $(cat "$tmp/err")"
exit $fail
