#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink plot` of the output of `clink kinematics -o DIR` (docs/cli.md): on the four-bar
# rocker swept past its reach (dead points and assembly failures), the five figures are
# written as PNG files (and as SVG with --format), the SVG names the dead points and the failures in its legend; --against is refused
# for a sweep, a damaged kinematics.csv exits 2.
set -u
. "$CLINK_SOURCE_DIR/tests/cli/checks.bash"
py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py
if ! "$py" -c "import matplotlib, numpy" 2>/dev/null; then
    echo "skip: matplotlib or NumPy missing"
    exit 0
fi
D=$CLINK_SOURCE_DIR/tests/cli/data

expect 0 "kinematics of the rocker past its reach" "$CLINK" kinematics "$D/four_bar_rocker.xml" \
    --from 1.3 --to 2.5 --steps 48 -o "$tmp/k"
expect 0 "plot of the sweep" "$CLINK" plot "$tmp/k" --format png,svg
for f in kinematics_positions kinematics_velocities kinematics_accelerations transmission \
    coupler_curves; do
    for e in png svg; do
        grep -qx "$tmp/k/$f.$e" "$tmp/out" && [ -s "$tmp/k/$f.$e" ] && ok "$f.$e written" ||
            bad "$f.$e not written"
    done
    head -c 8 "$tmp/k/$f.png" | grep -q PNG || bad "$f.png is not a PNG"
done
grep -q "dead point" "$tmp/k/transmission.svg" && grep -q "assembly fails" "$tmp/k/transmission.svg" &&
    ok "the transmission figure marks the dead points and the failures" ||
    bad "no dead point / assembly fails legend in transmission.svg"
grep -q "at a dead point" "$tmp/k/coupler_curves.svg" && ok "the coupler curves mark the dead points" ||
    bad "no dead-point marks on the coupler curves"

expect 2 "--against does not apply to a sweep" "$CLINK" plot "$tmp/k" --against angle
says "the refusal says why" "kinematic sweep"
mkdir "$tmp/bad" && echo '{}' >"$tmp/bad/kinematics.json" && printf 'a,b\n1,2\n' >"$tmp/bad/kinematics.csv"
expect 2 "a damaged kinematics.csv" "$CLINK" plot "$tmp/bad"
says "the damage is named" "not a kinematics.csv"
exit $fail
