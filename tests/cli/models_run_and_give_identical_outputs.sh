#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every model of models/ passes `clink check` and runs from `clink run` with a
# short end time: the three output files exist (no temporary file is left), the
# time series header names its columns with units, summary.json says "ok" and
# reached the end time; a second run with --no-timing gives the same bytes in
# all three files. A model whose solver fails keeps its rows, says "failed",
# when and why in summary.json and exits 1. `clink plot` draws the figures when
# matplotlib is available.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say() { echo "$@"; }
bad() { echo "FAIL $*"; fail=1; }

for model in "$CLINK_SOURCE_DIR"/models/*.xml; do
    name=$(basename "$model" .xml)
    "$CLINK" check "$model" >"$tmp/check.out" 2>&1 || { bad "clink check $name"; cat "$tmp/check.out"; }
    for k in 1 2; do
        "$CLINK" run "$model" -o "$tmp/$name.$k" --t-end 0.02 --output-step 0.001 --no-timing --quiet \
            >"$tmp/run.out" 2>&1
        status=$?
        [ "$status" = 0 ] || { bad "clink run $name: exit $status"; cat "$tmp/run.out"; continue 2; }
    done
    d="$tmp/$name.1"
    for f in timeseries.csv impacts.csv summary.json; do
        [ -s "$d/$f" ] || bad "$name: $f missing or empty"
        cmp -s "$d/$f" "$tmp/$name.2/$f" || bad "$name: $f differs between two runs"
    done
    if ls -A "$d" | grep -q '\.tmp$\|\.incomplete$'; then bad "$name: temporary files left"; fi
    head -n1 "$d/timeseries.csv" | grep -q '^t \[s\],.*\.x \[m\],.*\.omega \[rad/s\].*energy.residual \[J\]' ||
        bad "$name: time series header lacks names with units"
    # the grid rows (row.kind 0, the last column); event rows come on top (docs/outputs.md)
    rows=$(awk -F, 'NR > 1 && $NF == "0"' "$d/timeseries.csv" | wc -l)
    [ "$rows" = 21 ] || bad "$name: $rows grid rows, expected 21 (t = 0 to 0.02 s by 0.001 s)"
    grep -q '"status": "ok"' "$d/summary.json" || bad "$name: summary status is not ok"
    grep -q '"t_end_reached": 0.02,' "$d/summary.json" || bad "$name: end time not reached"
    grep -q '"wall_time": null' "$d/summary.json" || bad "$name: --no-timing left a wall time"
    [ "$fail" = 0 ] && say "ok   $name runs, outputs identical bit for bit"
done

# timing on: wall_time is a number and the only difference
"$CLINK" run "$CLINK_SOURCE_DIR/models/pendulum.xml" -o "$tmp/timed" --t-end 0.02 --output-step 0.001 --quiet
grep -Eq '"wall_time": [0-9.e-]+$' "$tmp/timed/summary.json" || bad "wall_time missing with timing on"
cmp -s "$tmp/timed/timeseries.csv" "$tmp/pendulum.1/timeseries.csv" || bad "timing changed the time series"

# a solver failure keeps the rows so far and says so
"$CLINK" run "$CLINK_SOURCE_DIR/tests/cli/data/unreachable_slider.xml" -o "$tmp/fail" --quiet \
    >/dev/null 2>"$tmp/fail.err"
status=$?
[ "$status" = 1 ] || bad "failing run: exit $status, expected 1"
grep -q '"status": "failed"' "$tmp/fail/summary.json" || bad "failing run: summary does not say failed"
grep -q '"message": "CVODE' "$tmp/fail/summary.json" || bad "failing run: summary does not say why"
grep -q 'failed at t = ' "$tmp/fail.err" || bad "failing run: no message on stderr"
rows=$(($(wc -l <"$tmp/fail/timeseries.csv") - 1))
[ "$rows" -gt 50 ] && [ "$rows" -lt 200 ] || bad "failing run: $rows rows kept, expected the rows before the failure"
[ "$fail" = 0 ] && say "ok   solver failure keeps $rows rows, exit 1"

# bad options: exit 2, nothing written
"$CLINK" run "$CLINK_SOURCE_DIR/models/pendulum.xml" -o "$tmp/opt" --t-end -1 2>/dev/null
[ $? = 2 ] || bad "--t-end -1 not refused with 2"
"$CLINK" run "$CLINK_SOURCE_DIR/models/pendulum.xml" -o "$tmp/opt" --output-step abc 2>/dev/null
[ $? = 2 ] || bad "--output-step abc not refused with 2"
"$CLINK" run "$CLINK_SOURCE_DIR/models/pendulum.xml" -o "$tmp/opt" --t-end 0.1 --output-step 1 2>/dev/null
[ $? = 2 ] || bad "output step larger than t_end not refused with 2"
[ -e "$tmp/opt" ] && bad "a refused run created its directory"
# a refused run leaves an earlier run's results alone
cp -r "$tmp/pendulum.1" "$tmp/kept"
"$CLINK" run "$CLINK_SOURCE_DIR/models/pendulum.xml" -o "$tmp/kept" --t-end -1 2>/dev/null
cmp -s "$tmp/kept/summary.json" "$tmp/pendulum.1/summary.json" || bad "a refused run touched the earlier results"

# plots (only when matplotlib is there: the suite does not depend on it)
py=${CLINK_PYTHON:-/usr/bin/python3}
if "$py" -c "import matplotlib" 2>/dev/null; then
    CLINK_PYTHON=$py "$CLINK" plot "$tmp/slider_crank.1" >"$tmp/plot.out" 2>&1 || { bad "clink plot"; cat "$tmp/plot.out"; }
    for f in coordinates velocities accelerations reactions energies; do
        [ -s "$tmp/slider_crank.1/$f.png" ] || bad "clink plot: $f.png missing"
    done
    [ "$fail" = 0 ] && say "ok   clink plot wrote the figures"
else
    say "skip clink plot: matplotlib not found for $py"
fi
"$CLINK" plot "$tmp/nowhere" 2>/dev/null
[ $? = 2 ] || bad "clink plot of a missing run not refused with 2"
exit $fail
