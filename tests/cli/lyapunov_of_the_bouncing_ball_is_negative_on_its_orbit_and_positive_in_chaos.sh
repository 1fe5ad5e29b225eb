#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink lyapunov` (docs/nonlinear.md): the ball on a vibrating table
# (models/bouncing_ball_table.xml) on its period-1 orbit (Gamma = 1.3) has the largest
# exponent ln(e) / T = -3.466 1/s of its vertical motion (validation/val_lyapunov.c
# checks the value): here negative, below -2 1/s, over 100 periods; at Gamma = 1.76
# (A = 17.5 mm, chaos in the bifurcation diagram) positive. The convergence curve is
# written (one line per interval); bad options are refused with exit 2.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
model=$CLINK_SOURCE_DIR/models/bouncing_ball_table.xml
"$CLINK" lyapunov "$model" --every 0.2 --settle 4 --t-end 24 --coordinates y,vy -o "$tmp/p" \
    >"$tmp/log" || bad "periodic run"
cat "$tmp/log"
awk '/largest Lyapunov exponent/ { exit !($4 < -2.0) }' "$tmp/log" || bad "not below -2 1/s"
[ "$(wc -l <"$tmp/p/lyapunov.csv")" = 101 ] || bad "the curve has not 100 intervals"
"$CLINK" lyapunov "$model" --every 0.2 --settle 4 --t-end 44 --coordinates y,vy \
    --set 'driver[shaker].harmonic.amplitude=0.0175' >"$tmp/log2" || bad "chaotic run"
cat "$tmp/log2"
awk '/largest Lyapunov exponent/ { exit !($4 > 0.5) }' "$tmp/log2" || bad "not positive"
"$CLINK" lyapunov "$model" --every 0.2 --settle 4 --coordinates y,psi >/dev/null 2>&1
[ $? = 2 ] || bad "unknown coordinate accepted"
"$CLINK" lyapunov "$model" --every 0 --settle 4 >/dev/null 2>&1
[ $? = 2 ] || bad "every = 0 accepted"
exit $fail
