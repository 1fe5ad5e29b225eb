#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink impact` and `clink calibrate` with the elastoplastic laws (Wang, Liu and Liu (2022)
# Table 1 materials through --param): ma-liu reproduces its closed-form
# restitution 0.6909 at 4 m/s and writes its loop, wang-liu runs and calibrates,
# bad material input exits 2 with one line naming the value.
set -u
fail=0
out=/tmp/clink_ep_out.$$ err=/tmp/clink_ep_err.$$ loop=/tmp/clink_ep_loop.$$.csv
check() { # expected-status description command...
    local want=$1 what=$2; shift 2
    "$@" >$out 2>$err
    local got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL $what: exit $got, expected $want"; cat $err; fail=1
    else
        echo "ok   $what"
    fi
}
MAT="--param E1=2e11 --param E2=6.5e10 --param nu1=0.29 --param nu2=0.33 --param R1=-0.0205
     --param R2=0.02 --param Y=3e7 --param psi=3 --param xi=13"
M=0.26138050877867
# shellcheck disable=SC2086
check 0 "ma-liu impact at 4 m/s" "$CLINK" impact --law ma-liu --mass $M --velocity 4 $MAT --loop $loop
grep -Eq "0\.69091" $out || { echo "FAIL ma-liu restitution 0.69091 not printed"; cat $out; fail=1; }
[ "$(wc -l <$loop)" -gt 20 ] || { echo "FAIL ma-liu loop has too few rows"; fail=1; }
# shellcheck disable=SC2086
check 0 "wang-liu impact at 8 m/s" "$CLINK" impact --law wang-liu --mass $M --velocity 8 $MAT
grep -Eq "0\.6258|0\.6259" $out || { echo "FAIL wang-liu restitution 0.6259 not printed"; cat $out; fail=1; }
# shellcheck disable=SC2086
check 0 "wang-liu calibrate to 0.6909" "$CLINK" calibrate --law wang-liu --mass $M --velocity 4 $MAT --target 0.6909
# shellcheck disable=SC2086
check 0 "wang-liu-flores impact at 4 m/s" "$CLINK" impact --law wang-liu-flores --mass $M --velocity 4 $MAT
# shellcheck disable=SC2086
check 2 "yield above modulus exits 2" "$CLINK" impact --law ma-liu --mass $M --velocity 4 $MAT --param Y=7e10
grep -q "Y = 7e+10" $err || { echo "FAIL message names Y"; cat $err; fail=1; }
[ "$(wc -l <$err)" -eq 1 ] || { echo "FAIL message is not one line"; cat $err; fail=1; }
# shellcheck disable=SC2086
check 2 "radii that make no contact exit 2" "$CLINK" impact --law ma-liu --mass $M --velocity 4 $MAT --param R1=-0.01
grep -q "make no contact" $err || { echo "FAIL message says no contact"; cat $err; fail=1; }
# shellcheck disable=SC2086
check 2 "psi out of range exits 2" "$CLINK" impact --law wang-liu --mass $M --velocity 4 $MAT --param psi=0.5
grep -q "psi = 0.5" $err || { echo "FAIL message names psi"; cat $err; fail=1; }
rm -f $out $err $loop
exit $fail
