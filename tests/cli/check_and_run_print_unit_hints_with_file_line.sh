#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Unit hints (docs/xml-reference.md, "Unit hints"): a ball whose phi is 90 in a file
# without angle_unit, whose material's E is 207 (Pa) and whose radius is 50 m in a
# mechanism of size 0.5 m. Before: `check` said "valid" and `run` ran without a word.
# Now both print each hint as a warning naming FILE:LINE (stderr), still exit 0, list them
# in `check --json`'s warnings; `--strict` refuses them (exit 2); `--quiet` keeps `run`
# silent. No model of models/ gives a hint.
set -u
source "$(dirname "$0")/checks.bash"
cat >"$tmp/ball.xml" <<'XML'
<mechanism name="ball">
  <materials><material name="m" E="207" nu="0.3"/></materials>
  <settings t_end="0.01"/>
  <bodies>
    <body name="ball" mass="1" inertia="0.01" x="0" y="0.5" phi="90"/>
  </bodies>
  <contacts>
    <pair name="floor">
      <circle body="ball" radius="0.05" material="m"/>
      <line body="ground" point="0 0" normal="0 1"/>
      <law name="hertz" K="1e9"/>
    </pair>
  </contacts>
</mechanism>
XML
expect 0 "check of a file with unit hints" "$CLINK" check "$tmp/ball.xml"
says "printed as warnings" "clink: check: warning: $tmp/ball.xml:5: body 'ball'"
says "the angle hint with its line" "$tmp/ball.xml:5: body 'ball': phi = 90 is above 2 pi"
says "the modulus hint with its line" "$tmp/ball.xml:2: material 'm': E = 207 Pa is below 1 MPa"
grep -q "valid" "$tmp/out" && ok "still valid" || bad "not valid: $(cat "$tmp/out")"
expect 0 "check of a radius in mm" "$CLINK" check "$tmp/ball.xml" --set 'circle.radius=50'
says "the length hint with its line and rule" \
    "$tmp/ball.xml:9: <circle>: radius = 50 m is above 10 times the mechanism's size L = 0.5 m"
expect 0 "check --json" "$CLINK" check --json "$tmp/ball.xml"
grep -q 'ball.xml:5: body' "$tmp/out" && ok "--json lists the hints" || bad "$(cat "$tmp/out")"
expect 2 "check --strict refuses a hint" "$CLINK" check --strict "$tmp/ball.xml"
says "the refusal names the hint" "refused: --strict"

expect 0 "run of a file with unit hints" "$CLINK" run "$tmp/ball.xml" -o "$tmp/r1"
says "run prints the angle hint" "clink: run: warning: $tmp/ball.xml:5: body 'ball': phi = 90 is above 2 pi"
says "run prints the modulus hint" "$tmp/ball.xml:2: material 'm': E = 207 Pa"
expect 0 "run --quiet" "$CLINK" run --quiet "$tmp/ball.xml" -o "$tmp/r2"
[ ! -s "$tmp/err" ] && ok "--quiet prints no hint" || bad "--quiet: $(cat "$tmp/err")"
expect 2 "run --strict refuses a hint" "$CLINK" run --strict "$tmp/ball.xml" -o "$tmp/r3"
[ ! -e "$tmp/r3" ] && ok "nothing written" || bad "the refused run wrote $tmp/r3"

# the shipped models: none gives a unit hint (a warning with FILE:LINE)
for f in "$CLINK_SOURCE_DIR"/models/*.xml; do
    "$CLINK" check "$f" >/dev/null 2>"$tmp/err"
    if grep -q "\.xml:[0-9][0-9]*: " "$tmp/err"; then bad "$f: $(cat "$tmp/err")"; fi
done
ok "no model of models/ gives a unit hint"
exit $fail
