#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink run --format hdf5` writes results.h5 and summary.json; read with h5py, every
# dataset holds the values of the CSV run of the same model bit for bit (the CSV's
# shortest round-trip decimals parsed as doubles: time, row kind, q, v, a, reactions,
# driver forces, each contact quantity, energies, constraint violation, every field of
# the impact log), with units, descriptions and column names as attributes, chunked
# and compressed; the summary inside is summary.json's text. Models: the clearance
# slider-crank (contacts, a clearance joint, a driver), the pendulum (no contact) and the
# cantilever beam (the beam elements' dataset `beams`).
# A CSV run of more than 2000 columns (the 700-bead chain: 9827) warns and suggests
# HDF5; the HDF5 run of it does not.
set -u
py=${CLINK_PYTHON:-/usr/bin/python3}
if ! "$py" -c "import h5py, numpy" 2>/dev/null; then
    echo "skip: h5py not found for $py (Debian: python3-h5py)"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! "$CLINK" run "$CLINK_SOURCE_DIR/models/pendulum.xml" -o "$tmp/probe" --t-end 0.01 \
    --format hdf5 --quiet 2>"$tmp/probe.err"; then
    grep -q "libhdf5-dev" "$tmp/probe.err" || { echo "FAIL no HDF5 and no hint"; exit 1; }
    echo "skip: this clink was built without HDF5 (the message names libhdf5-dev)"
    exit 0
fi
fail=0
for m in slider_crank_clearance:0.006 pendulum:0.5 cantilever_beam:0.01; do
    name=${m%%:*} t=${m#*:}
    for f in csv hdf5; do
        "$CLINK" run "$CLINK_SOURCE_DIR/models/$name.xml" -o "$tmp/$name.$f" --t-end "$t" \
            --format "$f" --no-timing --quiet || { echo "FAIL $name --format $f"; fail=1; }
    done
    ls "$tmp/$name.hdf5" | sort | tr '\n' ' ' | grep -qx "results.h5 summary.json " ||
        { echo "FAIL $name: hdf5 run wrote $(ls "$tmp/$name.hdf5")"; fail=1; }
    "$py" - "$tmp/$name.csv" "$tmp/$name.hdf5" <<'PY' || fail=1
import csv, json, math, sys
import h5py, numpy as np

csv_dir, h5_dir = sys.argv[1], sys.argv[2]
bad = []

def same(a, b):
    a, b = float(a), float(b)
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))

with open(csv_dir + "/timeseries.csv") as f:
    rows = list(csv.reader(f))
head = [h.split(" [")[0] for h in rows[0]]
units = [h.split(" [")[1].rstrip("]") for h in rows[0]]
data = np.array([[float(x) for x in r] for r in rows[1:]])
seen = set()
with h5py.File(h5_dir + "/results.h5", "r") as h:
    def check(path, cols, units_expected):
        d = h[path]
        if d.chunks is None or d.compression != "gzip" or not d.shuffle:
            bad.append("%s: not chunked, shuffled and deflated" % path)
        if not d.attrs["description"]:
            bad.append("%s: no description" % path)
        got = np.asarray(d[()], dtype=float).reshape(len(data), -1)
        for j, c in enumerate(cols):
            k = head.index(c)
            seen.add(c)
            col = data[:, k]
            if not all(same(a, b) for a, b in zip(got[:, j], col)):
                bad.append("%s column %s differs from the CSV" % (path, c))
            u = units_expected[j]
            if u != units[k]:
                bad.append("%s column %s: unit %s, CSV %s" % (path, c, u, units[k]))
        if got.shape[0] != len(data):
            bad.append("%s: %d rows, CSV %d" % (path, got.shape[0], len(data)))
    def walk(name, obj):
        if not isinstance(obj, h5py.Dataset) or name.startswith("impacts") or name == "summary":
            return
        if obj.ndim == 1:
            col = {"time": "t", "row_kind": "row.kind"}[name]
            check(name, [col], [obj.attrs["units"].decode() if isinstance(obj.attrs["units"], bytes) else obj.attrs["units"]])
        else:
            cols = [c.decode() if isinstance(c, bytes) else c for c in obj.attrs["columns"]]
            us = [u.decode() if isinstance(u, bytes) else u for u in obj.attrs["units"]]
            check(name, cols, us)
    h.visititems(walk)
    missing = set(head) - seen
    if missing:
        bad.append("CSV columns not in results.h5: %s" % sorted(missing))
    # the impact log, every field
    with open(csv_dir + "/impacts.csv") as f:
        imp = list(csv.reader(f))
    ihead = [x.split(" [")[0] for x in imp[0]]
    g = h["impacts"]
    for j, c in enumerate(ihead):
        key = {"t": "t_onset", "pair": "contact_name"}.get(c, c)
        vals = g[key][()]
        if len(vals) != len(imp) - 1:
            bad.append("impacts/%s: %d records, CSV %d" % (key, len(vals), len(imp) - 1))
        for r, v in zip(imp[1:], vals):
            if key == "contact_name":
                ok = (v.decode() if isinstance(v, bytes) else v) == r[j]
            else:
                ok = same(v, r[j])
            if not ok:
                bad.append("impacts/%s: %r, CSV %r" % (key, v, r[j]))
                break
    text = h["summary"][()]
    text = text.decode() if isinstance(text, bytes) else text
    with open(h5_dir + "/summary.json") as f:
        if f.read() != text:
            bad.append("the summary inside differs from summary.json")
    s = json.loads(text)
    if s["output_format"] != "hdf5" or s["output_rows"] != len(data):
        bad.append("summary: format %s, %s rows" % (s["output_format"], s["output_rows"]))
for b in bad:
    print("FAIL", b)
print("ok   %s: %d rows x %d columns and %d impacts equal the CSV bit for bit" %
      (csv_dir.split("/")[-1], len(data), len(head), len(imp) - 1) if not bad else "")
sys.exit(1 if bad else 0)
PY
done
# the column count above which a CSV run suggests HDF5
mkdir -p "$tmp/c700" && "$py" "$CLINK_SOURCE_DIR/validation/make_granular_chain.py" "$tmp/c700" 700 >/dev/null ||
    { echo "FAIL make_granular_chain.py"; fail=1; }
"$CLINK" run "$tmp/c700/granular_chain.xml" -o "$tmp/c700/csv" --t-end 2e-6 2>"$tmp/w.err" >/dev/null
grep -q "warning: 9827 columns of text in timeseries.csv; --format hdf5" "$tmp/w.err" ||
    { echo "FAIL no HDF5 suggestion for 9827 columns: $(cat "$tmp/w.err")"; fail=1; }
"$CLINK" run "$tmp/c700/granular_chain.xml" -o "$tmp/c700/h5" --t-end 2e-6 --format hdf5 \
    2>"$tmp/w.err" >/dev/null
[ -s "$tmp/w.err" ] && { echo "FAIL the HDF5 run warned: $(cat "$tmp/w.err")"; fail=1; }
"$CLINK" run "$CLINK_SOURCE_DIR/models/pendulum.xml" -o "$tmp/p" --t-end 0.01 2>"$tmp/w.err" >/dev/null
[ -s "$tmp/w.err" ] && { echo "FAIL a 22-column run warned: $(cat "$tmp/w.err")"; fail=1; }
[ "$fail" = 0 ] && echo "ok   9827 CSV columns suggest HDF5; 22 do not"
exit $fail
