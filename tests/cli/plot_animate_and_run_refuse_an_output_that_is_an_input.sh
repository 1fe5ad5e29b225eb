#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# An output that is an input is refused (exit 2, a message naming both, nothing lost): the
# same file however spelled (device and inode: a hard link, ./NAME). Before: `clink animate
# RUN --frame T --png MODEL.xml` replaced the run's model with the PNG (exit 0), `--png
# RUN/timeseries.csv` the run's data; `clink run DIR/summary.json -o DIR` (a model kept
# under a name the run writes) replaced its own model with its results; `clink plot` wrote
# a figure over a model named like it.
set -u
source "$(dirname "$0")/checks.bash"
model=$CLINK_SOURCE_DIR/models/pendulum.xml

# run: the model among the files the run writes or removes in its directory
mkdir "$tmp/d"
cp "$model" "$tmp/d/summary.json"
expect 2 "run of DIR/summary.json into DIR" "$CLINK" run "$tmp/d/summary.json" -o "$tmp/d" -q
says "the model named" "$tmp/d/summary.json is the model $tmp/d/summary.json: refused"
cmp -s "$model" "$tmp/d/summary.json" && ok "the model intact" || bad "the model changed"
[ "$(ls "$tmp/d")" = summary.json ] && ok "nothing written" || bad "wrote: $(ls "$tmp/d")"
mkdir "$tmp/e"
cp "$model" "$tmp/m.xml"
ln "$tmp/m.xml" "$tmp/e/timeseries.csv"
expect 2 "run into a directory holding a hard link of the model" "$CLINK" run "$tmp/m.xml" \
    -o "$tmp/e" -q
says "the link named" "$tmp/e/timeseries.csv is the model $tmp/m.xml: refused"
cmp -s "$model" "$tmp/m.xml" && ok "the model intact" || bad "the model changed"
expect 0 "a run beside its model" "$CLINK" run "$tmp/m.xml" -o "$tmp" -q --t-end 0.05

py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py
"$py" -c "import matplotlib" 2>/dev/null || { echo "skip: no matplotlib for $py"; exit $fail; }
cp "$model" "$tmp/p.xml"
"$CLINK" run "$tmp/p.xml" -o "$tmp/run" --t-end 0.05 -q || bad "pendulum run"
cp -r "$tmp/run" "$tmp/run.orig"
expect 2 "a frame over the run's model" "$CLINK" animate "$tmp/run" --frame 0.01 --png "$tmp/p.xml"
says "the model named" "$tmp/p.xml is the run's model $tmp/p.xml: refused"
cmp -s "$model" "$tmp/p.xml" && ok "the model intact" || bad "the model changed"
ln "$tmp/p.xml" "$tmp/p-link.png"
expect 2 "a frame over a hard link of the model" "$CLINK" animate "$tmp/run" --frame 0.01 \
    --png "$tmp/p-link.png"
cmp -s "$model" "$tmp/p.xml" && ok "the model intact" || bad "the model changed"
expect 2 "a frame over the run's data" "$CLINK" animate "$tmp/run" --frame 0.01 \
    --png "$tmp/run/timeseries.csv"
says "the data named" "is the run's file $tmp/run/timeseries.csv: refused"
expect 2 "a frame whose JSON is the run's summary" "$CLINK" animate "$tmp/run" --frame 0.01 \
    --png "$tmp/run/summary"
[ ! -e "$tmp/run/summary" ] && ok "not even the PNG written" || bad "$tmp/run/summary written"
diff -r "$tmp/run" "$tmp/run.orig" >/dev/null && ok "the run intact" ||
    bad "the run changed: $(diff -rq "$tmp/run" "$tmp/run.orig")"
expect 0 "a frame into the run's directory" "$CLINK" animate "$tmp/run" --frame 0.01 \
    --png "$tmp/run/frame.png"
expect 0 "and again (a previous frame is an output, not an input)" "$CLINK" animate "$tmp/run" \
    --frame 0.02 --png "$tmp/run/frame.png"

# plot: a figure named like the model
mkdir "$tmp/figs"
ln "$tmp/p.xml" "$tmp/figs/energies.png"
expect 2 "plot over a figure that is the run's model" "$CLINK" plot "$tmp/run" -o "$tmp/figs"
says "the model named" "$tmp/figs/energies.png is the run's model"
cmp -s "$model" "$tmp/p.xml" && ok "the model intact" || bad "the model changed"
expect 0 "plot into the run's directory" "$CLINK" plot "$tmp/run"
expect 0 "and again (its figures are outputs)" "$CLINK" plot "$tmp/run"
exit $fail
