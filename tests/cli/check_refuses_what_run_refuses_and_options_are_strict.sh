#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink check` says "valid" only for models `clink run` starts: a loop that
# cannot close and a mass of 1e308 are refused by both with exit 2 and the same
# reason; redundant constraints are handled by both, and check names them. Input paths that are not files say why.
# Options that cannot take effect are refused: unused or negative contact
# parameters, calibrate's --restitution and --damping, and the progress options
# of `run` out of range; in range they reach summary.json. Output to a full
# disk (/dev/full) exits 3 with the system's reason.
set -u
. "$CLINK_SOURCE_DIR/tests/cli/checks.bash"
data=$CLINK_SOURCE_DIR/tests/cli/data
models=$CLINK_SOURCE_DIR/models

for case in loop_cannot_close:"could not be assembled" mass_1e308:"non-finite"; do
    name=${case%%:*} reason=${case#*:}
    expect 2 "check refuses $name" "$CLINK" check "$data/$name.xml"
    grep -q "$reason" "$tmp/err" || bad "check $name: reason '$reason' missing"
    grep -q "valid" "$tmp/out" && bad "check $name printed valid"
    cp "$tmp/err" "$tmp/check.err"
    expect 2 "run refuses $name" "$CLINK" run "$data/$name.xml" -o "$tmp/$name" --quiet
    cmp -s "$tmp/err" "$tmp/check.err" || bad "$name: check and run give different reasons"
    [ -e "$tmp/$name" ] && bad "$name: a refused run created its directory"
done
expect 0 "check accepts the four-bar" "$CLINK" check "$models/four_bar.xml"
grep -q "assembly at t = 0" "$tmp/out" || bad "check does not report the assembly"
expect 0 "check accepts redundant constraints" "$CLINK" check "$data/redundant_constraints.xml"
grep -q "redundant          2 equations depend on the others: joint 2 'ab'" "$tmp/out" ||
    bad "check does not name the redundant equations"
expect 0 "run handles redundant constraints" "$CLINK" run "$data/redundant_constraints.xml" -o "$tmp/redundant" --quiet

expect 2 "check on a directory" "$CLINK" check "$models"
grep -q "Is a directory" "$tmp/err" || bad "check on a directory does not say 'Is a directory'"
expect 2 "run on a missing file" "$CLINK" run "$tmp/none.xml"
grep -q "$tmp/none.xml: cannot read: No such file or directory" "$tmp/err" || bad "missing file message"

# a result printed to a full disk is an I/O failure with the system's reason
if [ -w /dev/full ]; then
    "$CLINK" laws >/dev/full 2>"$tmp/err"
    status=$?
    [ "$status" = 3 ] || bad "laws > /dev/full: exit $status, expected 3"
    grep -q "standard output: cannot write: No space left on device" "$tmp/err" || bad "laws > /dev/full: message"
    [ "$fail" = 0 ] && ok "laws > /dev/full: exit 3, $(cat "$tmp/err")"
fi

# contact parameters the law does not read, negative damping, calibrate's overwritten options
base=(--mass 1 --velocity 1 --k 1e9)
expect 2 "impact refuses chi for hunt-crossley" "$CLINK" impact --law hunt-crossley "${base[@]}" --restitution 0.5 --param chi=5e8
grep -q "does not use 'chi'" "$tmp/err" || bad "unused chi: message"
expect 2 "impact refuses chi = -5e8" "$CLINK" impact --law ristow "${base[@]}" --param chi=-5e8
expect 2 "impact refuses --restitution for hertz" "$CLINK" impact --law hertz "${base[@]}" --restitution 0.5
expect 2 "calibrate refuses --restitution" "$CLINK" calibrate --law flores --target 0.5 --restitution 0.7 "${base[@]}"
grep -q "cannot take effect" "$tmp/err" || bad "calibrate --restitution: message"
expect 2 "calibrate refuses --damping" "$CLINK" calibrate --law flores --target 0.5 --damping 3 "${base[@]}"
expect 2 "calibrate refuses --param e" "$CLINK" calibrate --law flores --target 0.5 --param e=0.7 "${base[@]}"
expect 2 "calibrate refuses chi where the law derives it from e" "$CLINK" calibrate --law kelvin-voigt --target 0.5 --param c=3 "${base[@]}"
# a law without a rule from e (an empirical chi) needs its coefficient: calibrate reports
# the one that reaches the target beside it
expect 0 "calibrate takes the empirical chi of ristow" "$CLINK" calibrate --law ristow --target 0.5 --param chi=1 "${base[@]}"
expect 0 "impact takes v_ref for hunt-crossley" "$CLINK" impact --law hunt-crossley "${base[@]}" --restitution 0.5 --param v_ref=0.1
expect 2 "--param without a value" "$CLINK" impact --law hertz "${base[@]}" --param "K="

# progress options of run
p=(run "$models/pendulum.xml" --t-end 0.01 --quiet --no-timing)
for bad_value in "--max-steps 0" "--max-steps 1.5" "--max-steps -3" "--max-steps abc" "--max-steps 1e16" \
    "--min-step -1" "--min-step 0.01" "--min-step nan" "--wall-limit -1" "--wall-limit inf" \
    "--wall-limit 1e-400" "--t-end 1e999" "--output-step ' 0.001'"; do
    eval "expect 2 \"run refuses $bad_value\" \"\$CLINK\" \"\${p[@]}\" -o \"\$tmp/p\" $bad_value"
done
[ -e "$tmp/p" ] && bad "a refused run created its directory"
expect 0 "run takes the progress options" "$CLINK" "${p[@]}" -o "$tmp/p" --max-steps 1e6 --min-step 1e-12 --wall-limit 60
grep -q '"max_steps": 1000000,' "$tmp/p/summary.json" || bad "max_steps not in the summary"
grep -q '"min_step": 1e-12,' "$tmp/p/summary.json" || bad "min_step not in the summary"
grep -q '"wall_limit": 60,' "$tmp/p/summary.json" || bad "wall_limit not in the summary"
exit $fail
