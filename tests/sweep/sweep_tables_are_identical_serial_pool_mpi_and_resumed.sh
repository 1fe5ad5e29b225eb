#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink sweep` gives the same table, row for row, whether it runs serially (-j 1), on
# the local pool (-j 3), under mpirun -n 3 (clink-sweep-mpi, when built), or is killed
# and resumed with --resume; wall_time (the last column) is left out of the comparison.
# The sweep holds ok, failed (max_steps) and invalid (negative mass) cases, a grid, a
# log range, a zip, seeded random samples and a parameter given by name (the law: a
# string column). When clink is built with HDF5, every run also wrote sweep.h5: read
# with h5py (CLINK_PYTHON, default /usr/bin/python3), each holds its own sweep.csv bit
# for bit (doubles, int64 case, strings), with units, descriptions and the
# specification's text, and all of them agree with the serial one but for wall_time.
set -euo pipefail
. "${CLINK_SOURCE_DIR:?}/tests/sweep/scratch.bash"

cat > spec.xml <<XML
<?xml version="1.0" encoding="UTF-8"?>
<sweep model="$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml">
  <parameter path="settings.t_end" values="0.01"/>
  <parameter path="settings.max_steps" values="1e6 40"/>
  <parameter path="revolute_clearance[rod_slider].law.name" values="lankarani-nikravesh"/>
  <parameter path="revolute_clearance[rod_slider].clearance" from="1e-4" to="1e-3" count="3" scale="log"/>
  <zip>
    <parameter path="body[crank].mass" values="0.3 -1"/>
    <parameter path="body[rod].mass" values="0.21 0.25"/>
  </zip>
  <random count="2" seed="7">
    <parameter path="body[slider].mass" from="0.1" to="0.2"/>
  </random>
  <collect quantities="impacts max_contact_force max_acceleration energy_residual steps restitution"/>
</sweep>
XML
# the table without its last column (wall_time)
strip() { sed 's/,[^,]*$//' "$1"; }

set +e
"$CLINK" sweep spec.xml -o serial -j 1 -q; rc=$?
set -e
[ $rc -eq 1 ] || fail "serial: exit $rc, expected 1 (failed and invalid cases)"
n=$(($(wc -l < serial/sweep.csv) - 1))
[ "$n" -eq 24 ] || fail "serial: $n rows, expected 24"
for s in ok failed invalid; do
    grep -q ",$s," serial/sweep.csv || fail "no case with status $s"
done
# the ok cases have impacts, and the restitution of their first one
python3 - serial/sweep.csv <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ok = [r for r in rows if r["status"] == "ok"]
assert len(ok) == 6, len(ok)
for r in ok:
    assert int(r["impacts"]) > 0 and float(r["max_contact_force"]) > 0, r
    assert 0 < float(r["restitution"]) <= 1.0 + 1e-9, r
    assert float(r["max_acceleration"]) > 0 and int(r["steps"]) > 0, r
for r in rows:
    if r["status"] == "invalid":
        assert r["impacts"] == "" and "body[crank].mass=-1" in r["cause"], r
    if r["status"] == "failed":
        assert "max_steps" in r["cause"] and r["t_failed"] != "", r
PY
# rows sorted by case index
cut -d, -f1 serial/sweep.csv | tail -n +2 | sort -n -c || fail "rows not sorted by case"
[ "$(cut -d, -f1 serial/sweep.csv | tail -n +2 | tr '\n' ' ')" = "$(seq 0 23 | tr '\n' ' ')" ] ||
    fail "case indices are not 0..23"

"$CLINK" sweep spec.xml -o pool -j 3 -q --sync-interval 0.5 || true
cmp <(strip serial/sweep.csv) <(strip pool/sweep.csv) || fail "pool table differs from serial"

if [ -n "${CLINK_SWEEP_MPI:-}" ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    "${MPIEXEC:-mpirun}" -n 3 --oversubscribe "$CLINK_SWEEP_MPI" spec.xml -o mpi -q || true
    cmp <(strip serial/sweep.csv) <(strip mpi/sweep.csv) || fail "mpirun -n 3 table differs"
else
    echo "clink-sweep-mpi not built: the MPI comparison is skipped"
fi

# killed while running: the journal keeps the finished rows, sweep.csv is not written
"$CLINK" sweep spec.xml -o killed -j 1 -q &
pid=$!
for _ in $(seq 1 600); do
    [ -f killed/sweep.journal ] && [ "$(wc -l < killed/sweep.journal)" -ge 6 ] && break
    sleep 0.01
done
kill -9 $pid
wait $pid 2>/dev/null || true
[ ! -f killed/sweep.csv ] || fail "a killed sweep left sweep.csv"
[ ! -f killed/sweep.h5 ] || fail "a killed sweep left sweep.h5"
before=$(($(wc -l < killed/sweep.journal) - 1))
[ "$before" -ge 5 ] && [ "$before" -lt 24 ] || fail "killed sweep journal has $before rows"
# a row cut by the kill (no newline) is dropped on resume
printf '23,0.01,1e6,0.00' >> killed/sweep.journal
head -n $((before + 1)) killed/sweep.journal | tail -n "$before" | sort -n > kept_rows
"$CLINK" sweep spec.xml -o killed -q --resume || true
cmp <(strip serial/sweep.csv) <(strip killed/sweep.csv) || fail "resumed table differs"
# the cases of the journal were not run again: their rows, wall_time included, are kept
while IFS= read -r row; do
    grep -qxF "$row" killed/sweep.csv || fail "row not kept on resume: $row"
done < kept_rows
# resume of a complete sweep (the spec spelled ./spec.xml) runs nothing, same table
lines=$(wc -l < killed/sweep.journal)
set +e
"$CLINK" sweep ./spec.xml -o killed -q --resume; rc=$?
set -e
[ $rc -eq 1 ] || fail "second resume: exit $rc, expected 1"
[ "$(wc -l < killed/sweep.journal)" -eq "$lines" ] || fail "second resume ran cases again"
cmp <(strip serial/sweep.csv) <(strip killed/sweep.csv) || fail "second resume differs"

# sweep.h5: present exactly when clink has HDF5 (clink run --format hdf5 works)
py=${CLINK_PYTHON:-/usr/bin/python3}
if "$CLINK" run "$CLINK_SOURCE_DIR/models/pendulum.xml" -o probe --t-end 0.01 --format hdf5 \
    --quiet 2> /dev/null; then
    dirs="serial pool killed"
    [ -z "${CLINK_SWEEP_MPI:-}" ] || dirs="$dirs mpi"
    for d in $dirs; do [ -f $d/sweep.h5 ] || fail "$d: no sweep.h5 in an HDF5 build"; done
    if "$py" -c "import h5py, numpy" 2> /dev/null; then
        "$py" - spec.xml $dirs <<'PY' || fail "sweep.h5 differs from sweep.csv"
import csv, math, struct, sys
import h5py, numpy as np

spec, dirs = open(sys.argv[1]).read(), sys.argv[2:]
units = {"t_failed": "s", "max_contact_force": "N", "max_acceleration": "m/s^2",
         "energy_residual": "J", "wall_time": "s"}
s = lambda v: v.decode() if isinstance(v, bytes) else str(v)
bits = lambda x: struct.pack("<d", x)
tables = {}
for d in dirs:
    rows = list(csv.reader(open(f"{d}/sweep.csv")))
    head, rows = rows[0], rows[1:]
    with h5py.File(f"{d}/sweep.h5", "r") as f:
        assert [s(c) for c in f.attrs["columns"]] == head, (d, f.attrs["columns"])
        assert s(f.attrs["specification"]) == spec, d
        assert len(f.keys()) == len(head), (d, list(f.keys()))
        cols = {}
        for name in f:
            ds = f[name]
            col = s(ds.attrs["column"])
            assert col not in cols and s(ds.attrs["description"]) != "", (d, col)
            assert s(ds.attrs["units"]) == units.get(col, s(ds.attrs["units"])), (d, col)
            cols[col] = ds[()]
        for j, col in enumerate(head):
            v = cols[col]
            assert v.shape == (len(rows),), (d, col, v.shape)
            for i, r in enumerate(rows):
                x = r[j]
                if v.dtype.kind == "f":
                    ok = math.isnan(v[i]) if x == "" else bits(float(x)) == bits(float(v[i]))
                elif v.dtype.kind == "i":
                    ok = int(x) == int(v[i])
                else:
                    ok = s(v[i]) == x
                assert ok, (d, col, i, x, v[i])
        kinds = {c: cols[c].dtype.kind for c in head}
        assert kinds["case"] == "i" and kinds["status"] == "O" and kinds["cause"] == "O", kinds
        assert kinds["settings.max_steps"] == "f" and kinds["steps"] == "f", kinds
        assert kinds["revolute_clearance[rod_slider].law.name"] == "O", kinds
        tables[d] = cols
ref = tables[dirs[0]]
for d in dirs[1:]:
    for col, v in ref.items():
        if col == "wall_time":
            continue
        w = tables[d][col]
        same = (v.tobytes() == w.tobytes() if v.dtype.kind != "O"
                else [s(a) for a in v] == [s(b) for b in w])
        assert same, (d, col)
print("sweep.h5 == sweep.csv bit for bit in", " ".join(dirs))
PY
    else
        echo "h5py not found for $py (Debian: python3-h5py): sweep.h5 contents not checked"
    fi
else
    [ ! -e serial/sweep.h5 ] || fail "sweep.h5 written by a clink without HDF5"
    echo "clink built without HDF5: no sweep.h5 (checked)"
fi

# a journal of another specification is refused
sed 's/count="2" seed="7"/count="2" seed="8"/' spec.xml > other.xml
set +e
"$CLINK" sweep other.xml -o killed --resume 2> err.txt; rc=$?
set -e
[ $rc -eq 2 ] || fail "resume with another spec: exit $rc, expected 2"
grep -q "another sweep specification" err.txt || fail "no reason given: $(cat err.txt)"

# the plain clink refuses to run as many copies under an MPI launcher
set +e
OMPI_COMM_WORLD_SIZE=4 "$CLINK" sweep spec.xml -o x 2> err.txt; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "clink-sweep-mpi" err.txt || fail "no MPI advice (exit $rc)"
echo "ok: serial, pool, mpi, killed+resumed tables identical (24 cases)"
