#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink plot` of a run with a flexible beam (models/cantilever_beam.xml, 50 ms) writes
# beams.png (and .svg): one panel per quantity (curvature kappa, bending moment M, axial force
# N, shear force Q), one line per element, its values the columns of timeseries.csv; the
# elements' M columns stay out of reactions.svg, which draws the clamp's reaction alone; a new
# run into the directory removes beams.png as it removes the other figures.
set -u
. "$(dirname "$0")/checks.bash"
py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py
"$py" -c "import matplotlib, numpy" 2>/dev/null || { echo "skip: matplotlib or NumPy missing"; exit 0; }

"$CLINK" run "$CLINK_SOURCE_DIR/models/cantilever_beam.xml" -o "$tmp/run" --t-end 0.05 \
    --quiet || bad "run"
"$CLINK" plot "$tmp/run" -o "$tmp/f" --format png,svg >"$tmp/out" 2>"$tmp/err" ||
    { bad "plot: exit $?"; cat "$tmp/err"; }
grep -qx "$tmp/f/beams.png" "$tmp/out" && [ -s "$tmp/f/beams.svg" ] || bad "no beams figure"
for label in "curvature kappa \[1/m\]" "bending moment M \[N m\]" "axial force N \[N\]" \
    "shear force Q \[N\]" "cantilever.e7"; do
    grep -q "$label" "$tmp/f/beams.svg" || bad "beams.svg: no '$label'"
done
grep -q "cantilever.e0" "$tmp/f/reactions.svg" && bad "reactions.svg draws a beam element's M"
grep -q "clamp" "$tmp/f/reactions.svg" || bad "reactions.svg lacks the clamp"
[ "$fail" = 0 ] && ok "beams.png: kappa, M, N, Q of the eight elements; reactions: the clamp alone"

"$py" - "$tmp/run/timeseries.csv" "$CLINK_SOURCE_DIR/python/clink" <<'PY' || bad "the beams figure's lines"
import sys
import numpy as np
sys.path.insert(0, sys.argv[2])  # the viewer alone, as `clink plot` runs it
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from viz import plot as plot_run
plot_run.np, plot_run.plt = np, plt
names, values, _ = plot_run.read_csv(sys.argv[1])
run = plot_run.Run(names, values, {"status": "ok"}, None, "time", ["png"], ".")
figs = {}
run.save = lambda fig, stem: figs.setdefault(stem, fig)
plot_run.beams(run)
plot_run.reactions(run)
axes = figs["beams"].axes
assert len(axes) == 4, len(axes)
for ax, (q, unit) in zip(axes, (("kappa", "1/m"), ("M", "N m"), ("N", "N"), ("Q", "N"))):
    got = {l.get_label(): l.get_ydata() for l in ax.lines}
    assert sorted(got) == [f"cantilever.e{i}" for i in range(8)], sorted(got)
    for i in range(8):
        assert np.array_equal(got[f"cantilever.e{i}"],
                              values[:, names.index(f"cantilever.e{i}.{q} [{unit}]")]), (q, i)
labels = {l.get_label() for ax in figs["reactions"].axes for l in ax.lines}
print(f"beams: 4 panels x 8 elements equal to the columns; reactions: {sorted(labels)}")
assert labels == {"clamp"}, labels
PY
# a new run into the directory removes the old beams figure
"$CLINK" plot "$tmp/run" >/dev/null 2>&1 || bad "plot into the run"
[ -s "$tmp/run/beams.png" ] || bad "no beams.png in the run"
"$CLINK" run "$CLINK_SOURCE_DIR/models/cantilever_beam.xml" -o "$tmp/run" --t-end 0.01 \
    --quiet || bad "rerun"
[ -e "$tmp/run/beams.png" ] && bad "the old beams.png survived a new run"
[ "$fail" = 0 ] && ok "a new run removes the old beams.png"
exit $fail
