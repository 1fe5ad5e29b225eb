#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The Python examples of docs/outputs.md run as they are written: the two runs of its
# first section (CSV and HDF5 of the clearance slider-crank, 12 ms) are made in a
# scratch directory, then every ```python block of the page runs there with
# /usr/bin/python3 (NumPy, pandas, h5py; each block asserts on the numbers it reads).
set -u
py=${CLINK_PYTHON:-/usr/bin/python3}
doc="$CLINK_SOURCE_DIR/docs/outputs.md"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$tmp" || exit 1
"$CLINK" run "$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml" -o out/scc --t-end 0.012 \
    --quiet || { echo "FAIL clink run (csv)"; exit 1; }
h5=1
"$CLINK" run "$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml" -o out/scc_h5 --t-end 0.012 \
    --format hdf5 --quiet 2>/dev/null || h5=0
# the blocks, one file each
awk -v dir="$tmp" '/^```python$/ { n++; f = sprintf("%s/block%d.py", dir, n); inside = 1; next }
                   /^```$/ { inside = 0; next }
                   inside { print > f }' "$doc"
n=$(ls "$tmp"/block*.py 2>/dev/null | wc -l)
[ "$n" -ge 3 ] || { echo "FAIL only $n python blocks in docs/outputs.md"; exit 1; }
for b in "$tmp"/block*.py; do
    if grep -q "import h5py" "$b" && { [ "$h5" = 0 ] || ! "$py" -c "import h5py" 2>/dev/null; }; then
        echo "skip $(basename "$b"): no HDF5 in this build or no h5py"
        continue
    fi
    if grep -q "import pandas" "$b" && ! "$py" -c "import pandas" 2>/dev/null; then
        echo "skip $(basename "$b"): no pandas for $py"
        continue
    fi
    if "$py" "$b" >"$b.out" 2>&1; then
        echo "ok   $(basename "$b"): $(tail -n 1 "$b.out")"
    else
        echo "FAIL $(basename "$b"):"
        cat "$b.out"
        fail=1
    fi
done
exit $fail
