#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# <output><poincare .../></output> (docs/nonlinear.md): the samples of each section go to
# poincare.csv (and the dataset "poincare" of results.h5, the same doubles bit for bit),
# their names and count to summary.json; every other output of the run (time series,
# impact log, the summary's counters) is byte-identical to the run of the same model
# without sections, in CSV and in HDF5. A driver section of the clearance slider-crank
# samples each crank revolution at t = k 2 pi / omega; a run without sections writes no
# poincare.csv. A malformed section is refused with FILE:LINE and exit 2.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
src=$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml
with=$tmp/with.xml
sed 's#</drivers>#</drivers>\n  <output>\n    <poincare name="rev" driver="motor" period="2*pi"/>\n    <poincare name="rod0" when="rod.phi = 0" direction="both"/>\n    <poincare name="strobe" period="1e-3" start="0.005"/>\n  </output>#' \
    "$src" >"$with"
grep -q '<poincare name="rev"' "$with" || bad "the model with sections was not made"
for f in csv hdf5; do
    "$CLINK" run "$src" -o "$tmp/a.$f" --t-end 0.024 --format "$f" --quiet 2>"$tmp/err" || {
        grep -q "built without" "$tmp/err" && [ "$f" = hdf5 ] && continue
        bad "run without sections ($f)"
    }
    "$CLINK" run "$with" -o "$tmp/b.$f" --t-end 0.024 --format "$f" --quiet || bad "run with sections ($f)"
done
# everything but the sections' own table is the same, byte for byte
cmp -s "$tmp/a.csv/timeseries.csv" "$tmp/b.csv/timeseries.csv" || bad "timeseries.csv differs"
cmp -s "$tmp/a.csv/impacts.csv" "$tmp/b.csv/impacts.csv" || bad "impacts.csv differs"
strip() { grep -vE '"(source|wall_time|poincare_sections|poincare_points)"' "$1"; }
diff <(strip "$tmp/a.csv/summary.json") <(strip "$tmp/b.csv/summary.json") >/dev/null ||
    bad "summary.json differs beyond the sections"
[ ! -e "$tmp/a.csv/poincare.csv" ] || bad "a run without sections wrote poincare.csv"
ls "$tmp/b.csv" | grep -q incomplete && bad "an .incomplete file was left"
grep -q '"poincare_sections": \["rev", "rod0", "strobe"\]' "$tmp/b.csv/summary.json" ||
    bad "summary.json does not name the sections"
head -1 "$tmp/b.csv/poincare.csv" | grep -q '^section \[-\],count \[-\],t \[s\],crank.x \[m\]' ||
    bad "poincare.csv header: $(head -1 "$tmp/b.csv/poincare.csv" | cut -c1-80)"
# the crank's revolutions at k T, T = 2 pi / 523.598775598 s; 20 strobe samples from 5 ms
awk -F, 'NR > 1 && $1 == 0 { n++; T = 6.283185307179586 / 523.598775598;
         d = $3 - $2 * T; if (d < 0) d = -d; if (d > 1e-13) bad = 1 }
         NR > 1 && $1 == 2 { s++ } NR > 1 && $1 == 1 { r++ }
         END { exit !(n == 2 && s == 20 && r >= 4 && !bad) }' "$tmp/b.csv/poincare.csv" ||
    bad "the samples: $(cut -d, -f1-3 "$tmp/b.csv/poincare.csv" | tr '\n' ' ' | cut -c1-300)"
py=${CLINK_PYTHON:-/usr/bin/python3}
if [ -e "$tmp/b.hdf5/results.h5" ] && "$py" -c "import h5py, numpy" 2>/dev/null; then
    "$py" - "$tmp" <<'PY' || bad "results.h5"
import sys, h5py, numpy as np
t = sys.argv[1]
c = np.loadtxt(t + "/b.csv/poincare.csv", delimiter=",", skiprows=1)
with h5py.File(t + "/b.hdf5/results.h5", "r") as h, h5py.File(t + "/a.hdf5/results.h5", "r") as a:
    p = h["poincare"]
    assert np.array_equal(p[()], c), "poincare differs from the CSV"
    assert [s.decode() if isinstance(s, bytes) else s for s in p.attrs["sections"]] == ["rev", "rod0", "strobe"]
    for k in ("q", "v", "a", "time", "contacts/Fn", "impacts/t_onset"):
        assert np.array_equal(h[k][()], a[k][()]), k + " differs"
    assert "poincare" not in a
PY
fi
# refused: a coordinate that does not exist, a section without period or crossing
sed 's#<poincare name="rod0" when="rod.phi = 0"#<poincare name="rod0" when="rod.psi = 0"#' "$with" >"$tmp/bad1.xml"
sed 's#<poincare name="strobe" period="1e-3"#<poincare name="strobe"#' "$with" >"$tmp/bad2.xml"
for b in bad1 bad2; do
    "$CLINK" run "$tmp/$b.xml" -o "$tmp/$b" --quiet 2>"$tmp/err"
    status=$?
    [ "$status" = 2 ] || bad "$b: exit $status, expected 2"
    grep -qE "$b.xml:[0-9]+: .*poincare" "$tmp/err" || bad "$b: message $(cat "$tmp/err")"
done
exit $fail
