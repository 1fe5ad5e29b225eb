#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink impact` and `clink calibrate`: results on stdout, the JSON
# keys scripts rely on, the --loop CSV with units, Feng's closed forms with
# --analytic, and one-line errors with exit status 2 for bad input.
set -u
fail=0
out=$(mktemp) err=$(mktemp) dir=$(mktemp -d)
trap 'rm -rf "$out" "$err" "$dir"' EXIT
check() { # expected-status description command...
    local want=$1 what=$2; shift 2
    "$@" >"$out" 2>"$err"
    local got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL $what: exit $got, expected $want"; cat "$err"; fail=1
    else
        echo "ok   $what"
    fi
}
one_line_error() { # description
    if [ "$(wc -l <"$err")" != 1 ]; then echo "FAIL $1: error is not one line"; cat "$err"; fail=1; fi
    if grep -qi "nan" "$out"; then echo "FAIL $1: NaN on stdout"; fail=1; fi
}
base=(--mass 0.046 --velocity 0.3 --k 5.5e9)

check 0 "impact hunt-crossley succeeds" "$CLINK" impact --law hunt-crossley "${base[@]}" --restitution 0.7
grep -q "^e_out" "$out" || { echo "FAIL impact prints e_out"; fail=1; }
check 0 "impact --json succeeds" "$CLINK" impact --law flores "${base[@]}" --restitution 0.7 --json
for key in law e_target e_out v_out delta_max F_max duration E_diss_compression E_diss_restitution delta_residual; do
    grep -q "\"$key\":" "$out" || { echo "FAIL --json lacks key $key"; fail=1; }
done
if command -v /usr/bin/python3 >/dev/null; then
    /usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["law"]=="flores" and 0<d["e_out"]<1' "$out" \
        || { echo "FAIL --json is not valid JSON with a sensible e_out"; fail=1; }
fi
check 0 "impact --loop writes a CSV" "$CLINK" impact --law hunt-crossley "${base[@]}" --restitution 0.7 --loop "$dir/loop.csv"
head -1 "$dir/loop.csv" | grep -q "^t \[s\],delta \[m\],delta_dot \[m/s\],F \[N\]$" || { echo "FAIL loop header"; fail=1; }
[ "$(wc -l <"$dir/loop.csv")" -gt 100 ] || { echo "FAIL loop has too few rows"; fail=1; }
check 0 "impact --analytic for power-law-tsuji" "$CLINK" impact --law power-law-tsuji --mass 1 --velocity 1 --k 1e6 --n 2 --restitution 0.5 --analytic
grep -q "delta_max (Eq. 15)" "$out" || { echo "FAIL --analytic shows Eq. 15"; fail=1; }
check 0 "zero-force separation leaves residual penetration" "$CLINK" impact --law poursina-nikravesh "${base[@]}" --restitution 0.5 --json
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["delta_residual"]>0' "$out" || { echo "FAIL residual"; fail=1; }

check 0 "calibrate succeeds" "$CLINK" calibrate --law lankarani-nikravesh --target 0.4 "${base[@]}" --json
/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert abs(d["e_achieved"]-0.4)<=1e-9, d' "$out" \
    || { echo "FAIL calibrate reaches 1e-9"; fail=1; }

check 2 "unknown law exits 2" "$CLINK" impact --law no-such-law "${base[@]}"
grep -q "hunt-crossley" "$err" || { echo "FAIL unknown law lists the valid ones"; fail=1; }
one_line_error "unknown law"
check 2 "restitution above 1 exits 2" "$CLINK" impact --law flores "${base[@]}" --restitution 1.5
one_line_error "restitution above 1"
check 2 "restitution 0 exits 2" "$CLINK" calibrate --law flores --target 0 "${base[@]}"
one_line_error "target 0"
check 2 "negative stiffness exits 2" "$CLINK" impact --law hertz --mass 1 --velocity 1 --k -5
one_line_error "negative stiffness"
check 2 "zero mass exits 2" "$CLINK" impact --law hertz --mass 0 --velocity 1 --k 1e9
check 2 "negative velocity exits 2" "$CLINK" impact --law hertz --mass 1 --velocity -1 --k 1e9
check 2 "n below 1 exits 2" "$CLINK" impact --law hertz --mass 1 --velocity 1 --k 1e9 --n 0.5
one_line_error "n below 1"
check 2 "NaN exits 2" "$CLINK" impact --law hertz --mass nan --velocity 1 --k 1e9
one_line_error "NaN mass"
check 2 "missing parameter exits 2" "$CLINK" impact --law hunt-crossley --mass 1 --velocity 1 --k 1e9
one_line_error "missing restitution"
check 2 "missing stiffness exits 2" "$CLINK" impact --law hertz --mass 1 --velocity 1
one_line_error "missing stiffness"
check 2 "unknown --param key exits 2" "$CLINK" impact --law hertz --mass 1 --velocity 1 --k 1e9 --param bogus=1
check 2 "calibrating an elastic law exits 2" "$CLINK" calibrate --law hertz --target 0.5 --mass 1 --velocity 1 --k 1e9
one_line_error "calibrate hertz"
check 2 "--analytic for another law exits 2" "$CLINK" impact --law flores "${base[@]}" --restitution 0.7 --analytic
check 0 "impact --help" "$CLINK" impact --help
check 0 "calibrate --help" "$CLINK" calibrate --help
exit $fail
