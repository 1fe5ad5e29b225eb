#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Initial conditions are never corrected in silence (issue 28, "Why" 8 and 9): a four-bar
# whose crank angle is off its joints is assembled, and `clink check` and `clink run` warn,
# naming the bodies and coordinates the assembly moved (once "valid" with corrections 0.455
# and 7.43 and nothing more); --strict refuses it with exit 2. A clearance journal that
# starts penetrated is named. The shipped models start as written: no warning. Absurd
# numbers are refused with FILE:LINE: a body at x = 1e308 (once "ok", with null for the
# correction in summary.json), a mass of 1e-400 (once "mass 0 kg"), a max_step too small
# for max_steps given by --set (once without the line). A stall names its contact by name
# and a friction coefficient of 1e308 as the cause (once blamed on the stiffness); a
# dangling symbolic link as the output directory is named as such (once "Not a
# directory"); times in messages are printed shortest (once t = 0.10000000000000001 s).
set -u
. "$CLINK_SOURCE_DIR/tests/cli/checks.bash"
models=$CLINK_SOURCE_DIR/models

# the crank 90 degrees off its joints
sed 's/phi="1.5707963267949"/phi="0"/' "$models/four_bar.xml" > "$tmp/off.xml"
expect 0 "check of a start the assembly moves is valid" "$CLINK" check "$tmp/off.xml"
says "check warns of the moved start" "the assembly moved the initial conditions"
says "check names the crank's angle" "'crank' x 0.046 m, y 0.0304 m, phi 0.404 rad"
says "check names the coupler" "'coupler' x"
expect 2 "check --strict refuses the moved start" "$CLINK" check --strict "$tmp/off.xml"
says "check --strict says why" "(refused: --strict)"
expect 0 "check --json of the moved start" "$CLINK" check --json "$tmp/off.xml"
grep -q '"warnings": \[".*the assembly moved' "$tmp/out" && ok "check --json lists the warning" ||
    bad "check --json lacks the warning: $(cat "$tmp/out")"
expect 0 "run of the moved start" "$CLINK" run "$tmp/off.xml" -o "$tmp/o1" -q --set settings.t_end=0.01
grep -q "the assembly moved the initial conditions" "$tmp/o1/summary.json" &&
    ok "summary.json holds the warning" || bad "summary.json lacks the warning"
expect 2 "run --strict refuses the moved start" "$CLINK" run --strict "$tmp/off.xml" -o "$tmp/o2"
says "run --strict says why" "'crank' x 0.046 m"
[ -e "$tmp/o2" ] && bad "run --strict left an output directory" || ok "run --strict wrote nothing"
# the same by the settings attribute strict="true" (given by --set: as if in the file)
expect 2 "check refuses the moved start with strict=\"true\"" "$CLINK" check "$tmp/off.xml" \
    --set settings.strict=true
says "check with strict=\"true\" says why" "(refused: settings strict=\"true\")"
expect 2 "run refuses the moved start with strict=\"true\"" "$CLINK" run "$tmp/off.xml" \
    -o "$tmp/o3" --set settings.strict=true
says "run with strict=\"true\" names the crank" "'crank' x 0.046 m"
[ -e "$tmp/o3" ] && bad "run with strict=\"true\" left an output directory" ||
    ok "run with strict=\"true\" wrote nothing"
expect 0 "strict=\"false\" warns only" "$CLINK" check "$tmp/off.xml" --set settings.strict=false
expect 0 "strict=\"true\" passes a start as written" "$CLINK" check "$models/four_bar.xml" \
    --set settings.strict=true
expect 2 "strict=\"yes\" is refused" "$CLINK" check "$models/four_bar.xml" --set settings.strict=yes

# the shipped models start as written
for f in "$models"/*.xml; do
    "$CLINK" check "$f" > /dev/null 2> "$tmp/err" || bad "check $(basename "$f") failed"
    [ -s "$tmp/err" ] && bad "$(basename "$f") warns at the start: $(cat "$tmp/err")"
done
ok "no shipped model warns at the start"

# a clearance journal that starts penetrated (the slider 1 mm off the rod's end, clearance 0.5 mm)
expect 0 "check of a penetrated journal" "$CLINK" check "$models/slider_crank_clearance.xml" \
    --set 'body[slider].x=0.171'
says "the penetrated journal is named" "contact 'rod_slider' starts penetrated by"
# a centred journal given no velocities: the driver spins the crank, the rod's end and the
# slider part at 5.24 m/s (the normal of a centred journal is undefined: the speed is that of
# the journal's centre relative to the bearing's)
sed -e 's/ vx="0" vy="13.0899693899" omega="523.598775598"//' \
    -e 's/ vx="0" vy="13.0899693899" omega="-218.166156499"//' \
    "$models/slider_crank_clearance.xml" > "$tmp/still.xml"
grep -q 'omega="523' "$tmp/still.xml" && bad "the velocities were not removed: the case tests nothing"
expect 0 "check of a journal started without its velocities" "$CLINK" check "$tmp/still.xml"
says "the fast start of a centred journal is named" "clearance joint 'rod_slider' starts with its journal approaching the bearing at"
expect 2 "check --strict refuses it" "$CLINK" check --strict "$tmp/still.xml"

# absurd numbers: FILE:LINE, exit 2
sed 's/x="0" y="0.05"/x="1e308" y="0.05"/' "$models/four_bar.xml" > "$tmp/far.xml"
expect 2 "check refuses x = 1e308" "$CLINK" check "$tmp/far.xml"
says "x = 1e308 with FILE:LINE" "far.xml:14: body 'crank': x = 1e+308 m: beyond 1e+06"
expect 2 "run refuses x = 1e308" "$CLINK" run "$tmp/far.xml" -o "$tmp/o3"
sed 's/<body name="crank" mass="0.2"/<body name="crank" mass="1e-400"/' "$models/four_bar.xml" \
    > "$tmp/tiny.xml"
expect 2 "check refuses mass 1e-400" "$CLINK" check "$tmp/tiny.xml"
says "mass 1e-400 named as written" "tiny.xml:14: body 'crank': mass = '1e-400' is below the smallest double"
expect 2 "run refuses max_step 1e-12 by --set" "$CLINK" run "$models/four_bar.xml" -o "$tmp/o4" \
    --set settings.max_step=1e-12
says "max_step by --set with FILE:LINE" "four_bar.xml:10: <settings>: t_end 5 s needs at least 5e+12 steps"

# a stall: the contact by name, an absurd friction coefficient as the cause
expect 1 "run with mu = 1e308 stops" "$CLINK" run "$models/slider_crank_clearance.xml" -o "$tmp/o5" \
    --set 'revolute_clearance[rod_slider].friction.mu=1e308' --set settings.t_end=0.01
says "the stall names the contact" "contacts involved: 'rod_slider' (contact 0"
says "the stall names the friction" "likely cause: contact 'rod_slider' has a friction coefficient mu = 1e+308"
grep -q "stiffness" "$tmp/err" && bad "mu = 1e308 still blamed on stiffness" || ok "stiffness not blamed"
# %.17g would print a time like 0.10000000000000001: the shortest form never has such a tail
grep -Eq "t = [0-9.]*(0000000|9999999)[0-9]+ s" "$tmp/err" &&
    bad "a time not in shortest form: $(cat "$tmp/err")" || ok "times in shortest form"

# a dangling symbolic link as the output directory
ln -s "$tmp/nowhere/deeper" "$tmp/dangling"
expect 3 "run into a dangling link" "$CLINK" run "$models/pendulum.xml" -o "$tmp/dangling"
says "the dangling link is named" "is a symbolic link to '$tmp/nowhere/deeper', which does not exist"
exit $fail
