#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink equilibrium`, `clink modes` and `clink kinematics` (docs/analysis.md) on the
# example models: the spring-loaded slider-crank's equilibrium (angle 6.686 degrees), the
# double pendulum's two modes, the slider-crank's sweep; their files under -o; and their
# refusals with the exit statuses of docs/cli.md: a driver that moves, a free body, a
# neutral direction, a zero eigenvalue (a warning), unreachable driver values, a free degree
# of freedom, bad options.
set -u
. "$CLINK_SOURCE_DIR/tests/cli/checks.bash"
M=$CLINK_SOURCE_DIR/models
D=$CLINK_SOURCE_DIR/tests/cli/data

expect 0 "equilibrium of the spring-loaded slider-crank" \
    "$CLINK" equilibrium "$M/slider_crank_spring.xml" -o "$tmp/eq"
grep -q "crank .* 6.68647148" "$tmp/out" && ok "equilibrium angle printed" ||
    { bad "no 6.68647148 degrees in the text"; cat "$tmp/out"; }
[ -f "$tmp/eq/equilibrium.json" ] && ok "equilibrium.json written" || bad "no equilibrium.json"
python3 -c '
import json, math, sys
d = json.load(open(sys.argv[1]))
crank = [b for b in d["bodies"] if b["name"] == "crank"][0]
assert abs(math.degrees(crank["phi"]) - 6.686471480058578) < 1e-7, crank
assert d["residual"] <= d["tolerance"] and d["stable"] is True
assert [j["name"] for j in d["joint_reactions"]] == ["pivot", "crank_pin", "wrist", "guide"]
print("ok   equilibrium.json holds the pose, the residual within its tolerance, the reactions")
' "$tmp/eq/equilibrium.json" || bad "equilibrium.json"

expect 0 "equilibrium with relaxation first and a tolerance" \
    "$CLINK" equilibrium "$M/slider_crank_spring.xml" --relax --tolerance 1e-9 --json
python3 -c '
import json, math, sys
d = json.load(sys.stdin)
crank = [b for b in d["bodies"] if b["name"] == "crank"][0]
assert d["fallback"] == "dynamic relaxation" and d["fallback_steps"] > 0, d
assert d["tolerance"] == 1e-9 and d["residual"] <= 1e-9
assert abs(math.degrees(crank["phi"]) - 6.686471480058578) < 1e-6
print("ok   --relax is reported, --tolerance held, the same equilibrium")
' <"$tmp/out" || bad "--relax --tolerance --json"
expect 2 "a tolerance of 0" "$CLINK" equilibrium "$M/slider_crank_spring.xml" --tolerance 0

expect 0 "modes of the double pendulum" "$CLINK" modes "$M/double_pendulum.xml" -o "$tmp/modes"
grep -q "0.426553393" "$tmp/out" && grep -q "1.1441125" "$tmp/out" && ok "two frequencies" ||
    { bad "frequencies"; cat "$tmp/out"; }
[ "$(wc -l <"$tmp/modes/modes.csv")" = 3 ] && ok "modes.csv: header and two modes" ||
    bad "modes.csv rows"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["modes"]) == 2' \
    "$tmp/modes/modes.json" && ok "modes.json valid" || bad "modes.json"
expect 0 "modes about a run's state" "$CLINK" modes "$M/four_bar.xml" --at t=0.5 --json
python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["at"] == "run" and d["time"] == 0.5' \
    <"$tmp/out" && ok "--at t=0.5 --json" || bad "--at t=0.5 --json"

expect 0 "kinematics of the slider-crank" "$CLINK" kinematics "$M/slider_crank.xml" -o "$tmp/kin" --steps 36
[ "$(wc -l <"$tmp/kin/kinematics.csv")" = 38 ] && ok "kinematics.csv: header and 37 rows" ||
    bad "kinematics.csv rows"
head -1 "$tmp/kin/kinematics.csv" | grep -q "^driver,assembled,sigma_ratio,dead_point,driver_force,transmission_rod_slider_deg,crank.x" &&
    ok "kinematics.csv columns" || bad "kinematics.csv columns"

# bad input
expect 2 "equilibrium refuses a driven coordinate" "$CLINK" equilibrium "$M/slider_crank.xml"
says "the moving driver is named" "driver 'motor' moves"
expect 2 "equilibrium refuses a free body" "$CLINK" equilibrium "$M/box_drop.xml"
says "the free motion is named" "free motion along body 'box' y"
expect 2 "equilibrium refuses a neutral direction" "$CLINK" equilibrium "$M/ball_drop.xml" \
    --set 'body[ball].y=0.04999'
says "the null direction is named" "singular equilibrium: no stiffness along body 'ball'"
expect 0 "modes at a free body's start" "$CLINK" modes "$M/box_drop.xml" --at start
says "a zero eigenvalue is named" "zero eigenvalue: no stiffness along body 'box'"
expect 0 "kinematics past the rocker's reach" "$CLINK" kinematics "$D/four_bar_rocker.xml" \
    --from 1.3 --to 2.5 --steps 24 -o "$tmp/rocker"
grep -q "assembly_fails *1.3 " "$tmp/out" && ok "unreachable driver values listed" ||
    { bad "assembly failures"; cat "$tmp/out"; }
grep -q "dead_points *[0-9]" "$tmp/out" && ok "dead points listed" || bad "dead points"
says "a warning names the unreachable values" "cannot be assembled at 10 of 25 driver values: 1.3 .. 1.55 2.35 .. 2.5"
expect 2 "kinematics refuses a free degree of freedom" "$CLINK" kinematics "$M/double_pendulum.xml"
says "no driver" "no driver"
expect 2 "an unknown driver" "$CLINK" kinematics "$M/slider_crank.xml" --driver nope
says "the driver is named" "no driver named 'nope'"
expect 2 "--from without --to" "$CLINK" kinematics "$M/slider_crank.xml" --from 1
expect 2 "--at with a bad time" "$CLINK" modes "$M/pendulum.xml" --at t=-1
expect 2 "--at with a bad word" "$CLINK" modes "$M/pendulum.xml" --at middle
expect 2 "a missing model" "$CLINK" equilibrium "$tmp/none.xml"
# the shipped cantilever (a stiff beam: its residual's rounding floor is above 1e-10 of the
# load) converges; its tip deflection against Euler-Bernoulli's P L^3 / 3EI + w L^4 / 8EI
# (44.1 mm; the geometric nonlinearity and shear move it by under 1 %)
expect 0 "equilibrium of the shipped cantilever" "$CLINK" equilibrium "$M/cantilever_beam.xml" --json
python3 - "$tmp/out" <<'PY' && ok "cantilever tip within 1 % of Euler-Bernoulli" || bad "cantilever tip"
import json, sys
d = json.load(open(sys.argv[1]))
tip = [b for b in d["bodies"] if b["name"] == "cantilever.8"][0]
E, I, L, P, w = 207e9, 1e-4 ** 2 / 12, 1.0, 20.0, 7800 * 1e-4 * 9.81
ref = P * L ** 3 / (3 * E * I) + w * L ** 4 / (8 * E * I)
print("tip", -tip["y"], "Euler-Bernoulli", ref)
sys.exit(0 if abs(-tip["y"] - ref) < 0.01 * ref else 1)
PY
cp "$tmp/out" "$tmp/cantilever_newton.json"
# dynamic relaxation first on the damped beam (its Kelvin-Voigt forces left out of the
# pseudo-time steps, which they made unstable) ends at the same pose
expect 0 "equilibrium of the cantilever, relaxation first" "$CLINK" equilibrium \
    "$M/cantilever_beam.xml" --json --relax
python3 - "$tmp/cantilever_newton.json" "$tmp/out" <<'PY' && ok "relaxation first: the same pose" || bad "relaxation pose"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert b["fallback"] == "dynamic relaxation", b["fallback"]
d = max(abs(p[k] - q[k]) for p, q in zip(a["bodies"], b["bodies"]) for k in ("x", "y"))
print("largest difference of the nodes", d)
sys.exit(0 if d < 1e-9 else 1)
PY
python3 -c '
print("<mechanism name=\"many\"><gravity g=\"0 0\"/><bodies>")
for i in range(501):
    print("<body name=\"b%d\" mass=\"1\" inertia=\"1\" x=\"%d\"/>" % (i, 2 * i))
print("</bodies></mechanism>")' >"$tmp/many.xml"
expect 2 "more than 1500 coordinates" "$CLINK" modes "$tmp/many.xml" --at start
says "the limit is named" "1503 coordinates (501 bodies)"
exit $fail
