#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A sweep whose files cannot be written (a file size limit: write(2) fails with
# EFBIG, as a full disk fails with ENOSPC) exits 3 with one message naming the file
# (sweep.journal, sweep.csv or sweep.h5) and the system's reason, leaves no
# sweep.h5 and no temporary file (sweep.csv.tmp, sweep.h5.tmp), and its journal can
# be resumed once there is room. Every limit from 1 KiB to just below the size of
# sweep.h5 is tried, so the failure falls in the journal, in each dataset of
# sweep.h5 and in its closing. Before sweep.h5 went through output/h5_file.h, HDF5
# 1.10 freed the file whose close had failed and crashed closing it again at exit
# (status 139 after the message; on a 12 KiB tmpfs the same, on an 8 KiB one "HDF5:
# infinite loop closing library" and a stale sweep.h5.tmp). SIGXFSZ keeps its
# default action: clink ignores it itself (before, the sweep died of it, 153).
set -euo pipefail
. "${CLINK_SOURCE_DIR:?}/tests/sweep/scratch.bash"
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }
# the model beside the specification, so that the file's size (the specification's
# text is in it) does not depend on where the sources are
cp "$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml" model.xml
masses=$(seq -s ' ' 300 359 | sed 's/\([0-9][0-9][0-9]\)/0.\1/g')
cat > spec.xml <<XML
<?xml version="1.0"?>
<sweep model="model.xml">
  <parameter path="settings.t_end" values="0.001"/>
  <parameter path="body[crank].mass" values="$masses"/>
  <collect quantities="impacts max_contact_force"/>
</sweep>
XML
# without a limit: every case ok, the sizes the limits are chosen from
"$CLINK" sweep spec.xml -o free -q || { echo "FAIL: the sweep without a limit" >&2; exit 1; }
[ -f free/sweep.h5 ] || { echo "SKIP: this clink writes no sweep.h5 (built without HDF5)"; exit 0; }
size=$(stat -c %s free/sweep.h5)
[ "$size" -gt $((4 * 1024)) ] || { echo "FAIL: sweep.h5 ($size bytes) too small to test" >&2; exit 1; }

h5_failures=0
for kib in $(seq 1 $(((size - 1) / 1024))); do
    rm -rf out
    was=$fail
    set +e
    (ulimit -f "$kib"; env --default-signal=XFSZ "$CLINK" sweep spec.xml -o out -q) 2> err
    rc=$?
    set -e
    what="ulimit -f $kib ($size bytes needed)"
    [ $rc -eq 3 ] || bad "$what: exit $rc, expected 3: $(cat err)"
    [ "$(wc -l < err)" -eq 1 ] || bad "$what: stderr is not one line: $(cat err)"
    grep -Eq '^clink: sweep: out/sweep\.(journal|csv|h5): cannot [a-z]+( column [^:]+)?: File too large$' err ||
        bad "$what: message: $(cat err)"
    grep -q '\.tmp' err && bad "$what: the message names the temporary file: $(cat err)"
    grep -q 'sweep\.h5' err && h5_failures=$((h5_failures + 1))
    leftover=$(ls out | grep -Ev '^(sweep\.journal|sweep\.csv)$' || true)
    [ -z "$leftover" ] || bad "$what: files left: $leftover"
    [ $fail -eq $was ] && echo "ok   $what: exit $rc, $(cat err)"
done
# most limits fall in sweep.h5 (the journal and sweep.csv need 3 KiB at most)
[ $h5_failures -ge $(((size - 1) / 1024 - 3)) ] ||
    bad "only $h5_failures of the limits failed in sweep.h5"

# the journal of the last failed sweep is resumed with room: the table of the free run
"$CLINK" sweep spec.xml -o out -q --resume || bad "resume after the failure: exit $?"
cmp <(sed 's/,[^,]*$//' free/sweep.csv) <(sed 's/,[^,]*$//' out/sweep.csv) ||
    bad "the resumed table differs from the free run's"
[ -f out/sweep.h5 ] || bad "the resumed sweep wrote no sweep.h5"
[ $fail -eq 0 ] || exit 1
echo "ok: every limit exits 3 naming its file, no crash, nothing temporary left"
