#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink bifurcation SWEEPDIR COLUMN` (docs/nonlinear.md, "Bifurcation diagrams") over a
# sweep (`clink sweep`, keep_outputs="true") of the ball on a vibrating table
# (models/bouncing_ball_table.xml) against the table's amplitude A, 200 periods settled and
# 100 stroboscopic samples kept per value: one point below the period doubling at
# Gamma_2 = 1.5268 (A_2 = Gamma_2 g / w^2 = 15.18 mm, docs/nonlinear.md), two above it,
# four after the next doubling (A = 16.7 mm), at least eight at A = 16.9 mm; the table and
# the figure are written; a sweep without samples is refused with exit 2.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
cat >"$tmp/bif.xml" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<sweep model="$CLINK_SOURCE_DIR/models/bouncing_ball_table.xml" keep_outputs="true">
  <parameter path="driver[shaker].harmonic.amplitude" values="0.0140 0.0146 0.0156 0.0160 0.0167 0.0169"/>
  <parameter path="settings.t_end" values="60"/>
  <parameter path="settings.output_step" values="0.2"/>
  <parameter path="poincare[strobe].start" values="40.1"/>
</sweep>
XML
"$CLINK" sweep "$tmp/bif.xml" -o "$tmp/sw" -j 2 >/dev/null 2>"$tmp/err" || { bad "sweep"; cat "$tmp/err"; }
"$CLINK" bifurcation "$tmp/sw" ball.y >"$tmp/log" || bad "bifurcation"
cat "$tmp/log"
want() { # A N: the value A has N distinct points (N+: at least N)
    awk -v A="$1" -v N="$2" '$3 == A":" { n = $6; ok = (N ~ /\+$/) ? (n >= N + 0) : (n == N + 0) }
        END { exit !ok }' "$tmp/log" || bad "A = $1: expected $2 distinct points"
}
want 0.014 1
want 0.0146 1
want 0.0156 2
want 0.016 2
want 0.0167 4
want 0.0169 8+
grep -q "100 samples" "$tmp/log" || bad "not 100 samples per value"
[ "$(wc -l <"$tmp/sw/bifurcation.csv")" = 601 ] || bad "bifurcation.csv: not 600 points"
head -1 "$tmp/sw/bifurcation.csv" | grep -qxF 'driver[shaker].harmonic.amplitude,ball.y' ||
    bad "bifurcation.csv header"
head -c 4 "$tmp/sw/bifurcation.svg" | grep -q '<svg' || bad "figure"
# a sweep of a model without sections has no samples
"$CLINK" bifurcation "$tmp/sw" ball.psi >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "no column 'ball.psi'" "$tmp/err" || bad "unknown column: $(cat "$tmp/err")"
exit $fail
