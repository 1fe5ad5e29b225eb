#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The clearance slider-crank's bifurcation diagram against crank speed (docs/nonlinear.md):
# a sweep of models/slider_crank_clearance_bifurcation.xml over three speeds (zipped with
# t_end: 30.5 revolutions each), gathered by `clink bifurcation --settle 20 --eccentricity
# rod:0.06,0:slider:0,0`: the first 20 crossings of each case are left out (10 samples per
# speed), and each sample is the distance between the journal's centre (the rod's point
# (0.06, 0)) and the bearing's (the slider's centre), which awk recomputes here from the
# case's poincare.csv columns (rod.x, rod.y, rod.phi, slider.x, slider.y) to 1e-12 m; the
# eccentricity lies within the radial clearance plus a penetration (0.5 mm, at most 0.55
# mm); a malformed --eccentricity and a body without columns are refused (exit 2).
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
cat >"$tmp/bif.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<sweep model="$CLINK_SOURCE_DIR/models/slider_crank_clearance_bifurcation.xml" keep_outputs="true">
  <zip>
    <parameter path="driver[motor].linear.rate" values="104.72 314.159 523.599"/>
    <parameter path="settings.t_end" values="1.8300 0.61000 0.36600"/>
  </zip>
  <parameter path="settings.output_step" values="0.01"/>
</sweep>
XML
"$CLINK" sweep "$tmp/bif.xml" -o "$tmp/sw" -j 2 >/dev/null 2>"$tmp/err" || { bad "sweep"; cat "$tmp/err"; }
"$CLINK" bifurcation "$tmp/sw" rod_slider.e --settle 20 --eccentricity rod:0.06,0:slider:0,0 \
    >"$tmp/log" || bad "bifurcation"
cat "$tmp/log"
[ "$(grep -c ": 10 samples" "$tmp/log")" = 3 ] || bad "not 10 samples for each of 3 speeds"
head -1 "$tmp/sw/bifurcation.csv" | grep -qxF 'driver[motor].linear.rate,rod_slider.e' ||
    bad "bifurcation.csv header"
# the samples recomputed from the cases' poincare.csv (count > 20, in case order)
for k in 0 1 2; do
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { split($i, a, " "); c[a[1]] = i } next }
        $c["count"] > 20 { p = $c["rod.phi"]
            ex = $c["rod.x"] + 0.06 * cos(p) - $c["slider.x"]
            ey = $c["rod.y"] + 0.06 * sin(p) - $c["slider.y"]
            printf "%.17g\n", sqrt(ex * ex + ey * ey) }' "$tmp/sw/cases/00000$k/poincare.csv"
done >"$tmp/awk"
tail -n +2 "$tmp/sw/bifurcation.csv" | cut -d, -f2 >"$tmp/clink"
paste -d' ' "$tmp/clink" "$tmp/awk" | awk 'NF != 2 || ($1 - $2 > 1e-12 || $2 - $1 > 1e-12) { bad = 1 }
    $1 < 0 || $1 > 5.5e-4 { bad = 1 } END { exit bad || NR != 30 }' ||
    bad "eccentricity differs from the columns' or lies outside [0, 0.55 mm]"
"$CLINK" bifurcation "$tmp/sw" e --eccentricity rod:0.06:slider:0,0 >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "expected BODY:X,Y:BODY:X,Y" "$tmp/err" || bad "malformed spec: $(cat "$tmp/err")"
"$CLINK" bifurcation "$tmp/sw" e --eccentricity rod:0.06,0:piston:0,0 >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "no column" "$tmp/err" || bad "unknown body: $(cat "$tmp/err")"
exit $fail
