#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink plot` and `clink animate` read a run written with --format hdf5
# (results.h5) as they read the CSV run of the same model: the figures are the
# same files byte for byte (results.h5 holds the CSV's doubles and its column
# order is rebuilt), the film's frame at an impact is drawn, and a killed HDF5
# run (only results.h5.incomplete) is reported as a run that did not finish.
set -u
. "$(dirname "$0")/checks.bash"
py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py
"$py" -c "import matplotlib, h5py" 2>/dev/null || { echo "skip: no matplotlib or h5py"; exit 0; }
model="$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml"
"$CLINK" run "$model" -o "$tmp/h5" --t-end 0.004 --format hdf5 --quiet 2>/dev/null
st=$?
[ "$st" = 2 ] && grep -q "HDF5" <("$CLINK" run "$model" -o "$tmp/x" --format hdf5 2>&1) &&
    { echo "skip: clink built without HDF5"; exit 0; }
[ "$st" = 0 ] || bad "hdf5 run exit $st"
"$CLINK" run "$model" -o "$tmp/csv" --t-end 0.004 --quiet || bad "csv run"
[ -f "$tmp/h5/timeseries.csv" ] && bad "the hdf5 run wrote a CSV: the test would not test"

"$CLINK" plot "$tmp/h5" -o "$tmp/fig_h5" >/dev/null || bad "plot of the hdf5 run"
"$CLINK" plot "$tmp/csv" -o "$tmp/fig_csv" >/dev/null || bad "plot of the csv run"
n=0
for f in "$tmp"/fig_csv/*.png; do
    n=$((n + 1))
    cmp -s "$f" "$tmp/fig_h5/$(basename "$f")" || bad "$(basename "$f") differs between csv and hdf5"
done
[ "$n" -ge 5 ] || bad "only $n figures of the csv run"
[ "$fail" = 0 ] && ok "plot: $n figures, the same bytes from results.h5 as from the CSV"

{
    "$CLINK" animate "$tmp/h5" --frame 0.002 --png "$tmp/frame_h5.png" >/dev/null 2>"$tmp/err" ||
        { bad "animate --frame of the hdf5 run"; cat "$tmp/err"; }
    "$CLINK" animate "$tmp/csv" --frame 0.002 --png "$tmp/frame_csv.png" >/dev/null 2>&1 ||
        bad "animate --frame of the csv run"
    cmp -s "$tmp/frame_h5.png" "$tmp/frame_csv.png" || bad "the frame differs between csv and hdf5"
    [ "$fail" = 0 ] && ok "animate: the frame at 2 ms is the same from results.h5"
}

# a killed HDF5 run: only .incomplete files, no summary
mkdir -p "$tmp/killed"
cp "$tmp/h5/results.h5" "$tmp/killed/results.h5.incomplete"
for cmd in plot animate; do
    "$CLINK" $cmd "$tmp/killed" >/dev/null 2>"$tmp/err"
    st=$?
    [ "$st" = 2 ] || bad "$cmd of a killed hdf5 run: exit $st, expected 2"
    grep -q "did not finish" "$tmp/err" || { bad "$cmd of a killed hdf5 run: message"; cat "$tmp/err"; }
done
mkdir -p "$tmp/empty"
"$CLINK" plot "$tmp/empty" >/dev/null 2>"$tmp/err"
grep -q "neither timeseries.csv nor results.h5" "$tmp/err" || { bad "empty dir: message"; cat "$tmp/err"; }
[ "$fail" = 0 ] && ok "killed and empty directories named as such"
exit $fail
