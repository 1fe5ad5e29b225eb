#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink plot` figures fit for a paper: the clearance slider-crank is drawn
# against the crank angle (from its driver), its journal orbit inside the
# clearance circle of the model (0.5 mm) with the e/c rings, in PNG, SVG and
# PDF; --against time gives time; the 70-bead chain's contact forces are a
# space-time map along the chain and its 5 largest contacts, not a 71-entry
# legend (without the model, the 5 largest only, against time); a time series with an extra text column (a row-kind marker) is
# drawn the same; the 30 first series styles are distinct; NumPy reads the
# same numbers as the csv module.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }
py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py
"$py" -c "import matplotlib, numpy" 2>/dev/null || { echo "skip: matplotlib or NumPy missing"; exit 0; }
m="$CLINK_SOURCE_DIR/models"

"$CLINK" run "$m/slider_crank_clearance.xml" -o "$tmp/sc" --t-end 0.012 --output-step 1e-4 --quiet || bad "run"
"$CLINK" plot "$tmp/sc" -o "$tmp/f" --format png,svg,pdf >"$tmp/out" 2>"$tmp/err" || { bad "plot: exit $?"; cat "$tmp/err"; }
for f in coordinates velocities accelerations reactions contact_forces energies journal_orbit; do
    [ -s "$tmp/f/$f.png" ] && [ -s "$tmp/f/$f.svg" ] && [ -s "$tmp/f/$f.pdf" ] || bad "$f: a format missing"
done
head -c 4 "$tmp/f/energies.pdf" | grep -q '%PDF' || bad "energies.pdf is not a PDF"
grep -q "crank angle \[deg\]" "$tmp/f/accelerations.svg" || bad "accelerations not against the crank angle"
grep -q "ax \[m/s^2\]" "$tmp/f/accelerations.svg" || bad "accelerations: no unit on the axis"
grep -q "clearance circle, c = 0.5 mm (model)" "$tmp/f/journal_orbit.svg" || bad "orbit: no clearance circle of 0.5 mm"
grep -q "e/c = 0.5" "$tmp/f/journal_orbit.svg" || bad "orbit: no eccentricity rings"
grep -q "relative to the bearing centre \[mm\]" "$tmp/f/journal_orbit.svg" || bad "orbit: axis label"
# the revolute joints transmit no moment: only the translational guide is in the M panel
grep -q "moment zero throughout, not drawn: crank_pin, crank_rod" "$tmp/f/reactions.svg" ||
    bad "reactions: the revolute joints' zero moments are not left out and named"
grep -q "M \[N m\]" "$tmp/f/reactions.svg" || bad "reactions: the guide's moment panel is missing"
[ "$fail" = 0 ] && ok "slider-crank against the crank angle, orbit in its 0.5 mm circle, png/svg/pdf"

# the crank angle spans what the driver turned: 523.6 rad/s x 0.012 s = 360 deg
"$py" - "$tmp/sc/timeseries.csv" "$CLINK_SOURCE_DIR/python/clink" <<'PY' || bad "crank angle values"
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[2])  # the viewer alone, as `clink plot` runs it
from viz import plot as plot_run
plot_run.np = np
names, values, _ = plot_run.read_csv(sys.argv[1])
scene = {"joints": [{"name": "crank_pin", "body_a": "ground", "body_b": "crank"}],
         "drivers": [{"name": "motor", "target": "joint_angle", "joint": "crank_pin"}]}
run = plot_run.Run(names, values, {"status": "ok"}, scene, "auto", ["png"], ".")
assert run.angle, "no crank angle from a joint-angle driver"
expect = np.degrees(523.598775598 * values[:, 0])
err = np.max(abs(run.x - expect))
print(f"crank angle: last {run.x[-1]:.6f} deg, driver {expect[-1]:.6f} deg, max difference {err:.2e} deg")
assert err < 1e-4, err
assert len({plot_run.style(i) for i in range(30)}) == 30, "30 series styles are not distinct"
# NumPy reads what the csv module reads
import csv
rows = list(csv.reader(open(sys.argv[1])))
ref = np.array([[float(v) for v in r] for r in rows[1:]])
assert names == rows[0] and np.array_equal(ref, values), "NumPy read differs from the csv module"
PY

"$CLINK" plot "$tmp/sc" -o "$tmp/t" --against time --format svg >/dev/null 2>&1 || bad "--against time"
grep -q "t \[s\]" "$tmp/t/accelerations.svg" || bad "--against time: no t [s] axis"
grep -q "crank angle" "$tmp/t/accelerations.svg" && bad "--against time: crank angle axis"
"$CLINK" run "$m/pendulum.xml" -o "$tmp/pend" --t-end 0.05 --quiet || bad "pendulum run"
"$CLINK" plot "$tmp/pend" --against angle >/dev/null 2>"$tmp/err"
[ $? = 2 ] || bad "--against angle without a rotational driver: not exit 2"
grep -q "no rotational driver" "$tmp/err" || bad "--against angle: message"
"$CLINK" plot "$tmp/sc" --against sideways >/dev/null 2>&1
[ $? = 2 ] || bad "--against sideways: not exit 2"
"$CLINK" plot "$tmp/sc" --format gif >/dev/null 2>&1
[ $? = 2 ] || bad "--format gif: not exit 2"
[ "$fail" = 0 ] && ok "--against time and angle, bad values refused"

# an extra text column (grid/event rows) changes nothing drawn
cp -r "$tmp/sc" "$tmp/kind"
awk -F, 'BEGIN{OFS=","} NR==1{$0=$0",row"} NR>1{$0=$0","(NR%3?"grid":"event")} {print}' \
    "$tmp/sc/timeseries.csv" >"$tmp/kind/timeseries.csv"
"$CLINK" plot "$tmp/kind" -o "$tmp/k" --format svg >/dev/null 2>"$tmp/err" || { bad "text column: exit $?"; cat "$tmp/err"; }
[ -s "$tmp/k/journal_orbit.svg" ] || bad "text column: no orbit"
[ "$fail" = 0 ] && ok "a text column in the time series is carried along"

# the chain: a space-time map and the 5 largest of 71 contacts
"$CLINK" run "$m/granular_chain.xml" -o "$tmp/chain" --t-end 2e-4 --output-step 2e-6 --quiet || bad "chain run"
"$CLINK" plot "$tmp/chain" -o "$tmp/c" --format svg >/dev/null 2>"$tmp/err" || { bad "chain plot: exit $?"; cat "$tmp/err"; }
grep -q "contact index along the chain" "$tmp/c/contact_forces.svg" || bad "chain: no space-time map"
grep -q "5 largest of 71" "$tmp/c/contact_forces.svg" || bad "chain: no 5 largest"
n=$(grep -o ">c[0-9][0-9] (peak" "$tmp/c/contact_forces.svg" | wc -l)
[ "$n" = 5 ] || bad "chain: $n contacts in the legend, expected 5"
grep -q "body index \[-\] (column order, 71)" "$tmp/c/velocities.svg" || bad "chain: 71 bodies not in a colour map"
[ "$fail" = 0 ] && ok "chain: space-time map, 5 largest of 71 contacts, bodies in a colour map"
# without the model the contacts are not known to form a chain: the 5 largest only
cp -r "$tmp/chain" "$tmp/nomodel"
sed -i 's|"source": "[^"]*"|"source": "/nonexistent/model.xml"|' "$tmp/nomodel/summary.json"
"$CLINK" plot "$tmp/nomodel" -o "$tmp/n" --format svg >/dev/null 2>"$tmp/err" || bad "no model: exit $?"
grep -q "figures against time" "$tmp/err" || bad "no model: no note"
grep -q "contact index along the chain" "$tmp/n/contact_forces.svg" && bad "no model: a chain map"
grep -q "5 largest of 71" "$tmp/n/contact_forces.svg" || bad "no model: no 5 largest"
"$CLINK" plot "$tmp/nomodel" --against angle >/dev/null 2>&1
[ $? = 2 ] || bad "no model with --against angle: not exit 2"
[ "$fail" = 0 ] && ok "without its model: against time, 5 largest only, --against angle refused"
exit $fail
