#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every contact element takes part in the start check with its own size (docs/development.md,
# "The start's thresholds"). A <stop> and a translational clearance joint's corners are a
# point on a line: their shapes have no size, and before a stop or a corner that started
# penetrated got no warning, passed --strict, and a stop 1.5 times its range in ran "ok".
# Now a two-sided stop is judged against its range (upper - lower), a one-sided one against
# the model's size, a corner against the slider's half-height: a penetrated start is warned
# (refused by --strict, exit 2), beyond the size it is implausible (check and run exit 2,
# nothing written). `check` counts every element kind.
set -u
source "$(dirname "$0")/checks.bash"
cat >"$tmp/stop.xml" <<'XML'
<mechanism name="stop_start">
  <settings t_end="0.01" output_step="0.001"/>
  <gravity g="0 0"/>
  <bodies>
    <body name="slider" mass="1" inertia="0.01" x="0.07" y="0"/>
  </bodies>
  <joints>
    <translational name="guide" body1="ground" point1="0 0" body2="slider" point2="0 0" axis="1 0"/>
    <stop name="limit" body1="ground" point1="0 0" axis="1 0" body2="slider" point2="0 0"
          lower="-0.05" upper="0.05">
      <law name="gonthier-exact" K="1e7" n="1" e="0.7"/>
    </stop>
  </joints>
</mechanism>
XML
stop=$tmp/stop.xml
expect 0 "check of a stop 0.02 m past its upper limit (0.2 of its range)" "$CLINK" check "$stop"
says "the stop is warned" "contact 'limit.upper' starts penetrated by 0.02 m (0.2 of its size 0.1 m)"
grep -q "contact elements   1 (pair 0, revolute_clearance 0, translational_clearance 0, stop 1, gear_pair 0, slot_clearance 0, beam_contact 0; 2 contacts)" \
    "$tmp/out" && ok "check counts the stop" || bad "counts: $(cat "$tmp/out")"
expect 0 "check --json" "$CLINK" check --json "$stop"
grep -q '"elements": {"pair": 0, "revolute_clearance": 0, "translational_clearance": 0, "stop": 1, "gear_pair": 0, "slot_clearance": 0, "beam_contact": 0}' \
    "$tmp/out" && ok "--json counts every kind" || bad "$(cat "$tmp/out")"
expect 2 "check --strict refuses the penetrated stop" "$CLINK" check --strict "$stop"
says "named" "limit.upper' starts penetrated"
expect 2 "run --strict refuses it" "$CLINK" run --strict "$stop" -o "$tmp/r0"
expect 0 "run of the penetrated stop" "$CLINK" run "$stop" -o "$tmp/r1"
says "run prints the warning first" "contact 'limit.upper' starts penetrated by 0.02 m"

expect 2 "check of a stop 1.5 times its range past its limit" "$CLINK" check "$stop" \
    --set 'body[slider].x=0.2'
says "an implausible start" "an implausible start: implausible at t = 0 s: contact 'limit.upper' penetrates 0.15 m"
expect 2 "run of it" "$CLINK" run "$stop" --set 'body[slider].x=0.2' -o "$tmp/r2"
[ ! -e "$tmp/r2" ] && ok "nothing written" || bad "the refused run wrote $tmp/r2"

sed 's/ lower="-0.05"//' "$stop" >"$tmp/one.xml"
expect 0 "check of a one-sided stop penetrated" "$CLINK" check "$tmp/one.xml"
says "judged against the model's size" "contact 'limit.upper' starts penetrated by 0.02 m (0.286 of its size 0.07 m)"

# the translational clearance slider-crank with its guide's mid-line 1.5 mm up: the slider's
# lower corners 0.5 mm into the guide, no body moved by the assembly
tc=$CLINK_SOURCE_DIR/models/slider_crank_translational_clearance.xml
expect 0 "check of corners that start penetrated" "$CLINK" check "$tc" \
    --set 'translational_clearance[guide].guide_point=0 0.0015'
says "corner 1 warned" "contact 'guide.corner1_lower' starts penetrated by 0.0005 m (0.02 of its size 0.025 m)"
says "corner 2 warned" "contact 'guide.corner2_lower' starts penetrated by 0.0005 m"
expect 2 "check --strict refuses them" "$CLINK" check --strict "$tc" \
    --set 'translational_clearance[guide].guide_point=0 0.0015'
expect 2 "corners beyond the slider's half-height: implausible" "$CLINK" check "$tc" \
    --set 'translational_clearance[guide].guide_point=0 0.03'
says "named" "an implausible start: implausible at t = 0 s: contact 'guide.corner1_lower' penetrates 0.029 m"
expect 0 "the model itself" "$CLINK" check "$tc"
grep -q "translational_clearance 1, stop 0, gear_pair 0, slot_clearance 0, beam_contact 0; 8 contacts" "$tmp/out" &&
    ok "check counts the joint and its 8 corners" || bad "$(cat "$tmp/out")"
[ ! -s "$tmp/err" ] && ok "no warning" || bad "$(cat "$tmp/err")"
exit $fail
