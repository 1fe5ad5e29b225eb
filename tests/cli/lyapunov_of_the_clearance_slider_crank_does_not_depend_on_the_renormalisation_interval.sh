#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink lyapunov` on the clearance slider-crank (models/slider_crank_clearance_bifurcation.xml
# at 3000 rpm, docs/nonlinear.md): the largest exponent over 60 revolutions after 60, at
# rtol 1e-12 and d0 = 1e-7, renormalised four times a revolution (every 5 ms) and twenty
# times (every 1 ms): a property of the flow, the two agree within three times their
# combined stated error, and both are positive beyond three errors (chaos). Before the
# reference trajectory was projected at each renormalisation as the perturbed one is, the
# constraints' drift entered every distance and the exponent grew with the number of
# renormalisations (1039 +- 77 and 3587 +- 170 1/s over 100 revolutions).
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
run() { # EVERY: prints "lambda error"
    "$CLINK" lyapunov "$CLINK_SOURCE_DIR/models/slider_crank_clearance_bifurcation.xml" \
        --every "$1" --settle 1.2 --t-end 2.4 --d0 1e-7 \
        --set driver[motor].linear.rate=314.159265359 --set settings.rtol=1e-12 \
        --set settings.atol=1e-15 -o "$tmp/$1" 2>&1 | tee -a "$tmp/log" |
        sed -n 's/^largest Lyapunov exponent \([^ ]*\) 1\/s, error \([^ ]*\) 1\/s.*/\1 \2/p'
}
a=$(run 0.005)
b=$(run 0.001)
cat "$tmp/log"
[ -n "$a" ] && [ -n "$b" ] || bad "no exponent printed"
echo "$a $b" | awk '{ d = $1 - $3; if (d < 0) d = -d; tol = 3 * sqrt($2 * $2 + $4 * $4)
    printf "every 5 ms: %g +- %g; every 1 ms: %g +- %g; difference %g, tolerance %g\n", $1, $2, $3, $4, d, tol
    exit !(NF == 4 && d <= tol && $1 > 3 * $2 && $3 > 3 * $4) }' ||
    bad "the exponents differ, or are not positive beyond their errors"
exit $fail
