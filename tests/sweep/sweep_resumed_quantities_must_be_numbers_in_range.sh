#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink sweep --resume` checks the numbers of every journal row it keeps, not only its
# case, parameters, status and field count: a quantity that is not a number (`abc`, `nan`,
# `inf`), a negative one (`-5`: every collected quantity is a count or a magnitude), a
# count that is not a whole number, a failure time on a row that did not fail, or a wall
# time that is not a number is skipped with a warning naming DIR/sweep.journal:LINE and
# its case runs again (before: the rows went into sweep.csv as written). The decision for a
# damaged row is to report it and go on, so such a row never blocks a later resume: a second
# resume warns about the same lines, exits 0 and gives the same table.
set -euo pipefail
. "${CLINK_SOURCE_DIR:?}/tests/sweep/scratch.bash"
cat > spec.xml <<XML
<?xml version="1.0"?>
<sweep model="$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml">
  <parameter path="settings.t_end" values="0.005"/>
  <parameter path="body[crank].mass" values="0.3 0.31 0.32 0.33"/>
  <collect quantities="impacts steps max_contact_force"/>
</sweep>
XML
strip() { sed 's/,[^,]*$//' "$1"; } # the wall time aside
"$CLINK" sweep spec.xml -o ref -j 1 -q || fail "reference sweep: exit $?"
row() { sed -n "$(($1 + 2))p" ref/sweep.csv; }
# field f (1-based) of case k's row replaced by v (no field of these rows is quoted)
with() { row "$1" | awk -F, -v OFS=, -v f="$2" -v v="$3" '{ $f = v; print }'; }

mkdir bad
{
    head -n 1 ref/sweep.journal
    with 0 9 nan      # line 2: max_contact_force nan
    with 1 7 -5       # line 3: impacts -5
    with 2 8 abc      # line 4: steps abc
    with 3 9 inf      # line 5: max_contact_force inf
    with 0 7 1.5      # line 6: impacts not whole
    with 1 5 0.25     # line 7: a failure time on an ok row
    with 2 10 x       # line 8: wall time not a number
    with 3 9 -1e-3    # line 9: a negative force
    row 3             # line 10: good, kept as it is
} > bad/sweep.journal
for attempt in 1 2; do
    set +e
    "$CLINK" sweep spec.xml -o bad -q --resume 2> err.txt; rc=$?
    set -e
    [ $rc -eq 0 ] || fail "resume $attempt: exit $rc, expected 0: $(cat err.txt)"
    for l in 2 3 4 5 6 7 8 9; do
        grep -q "^clink: sweep: warning: bad/sweep.journal:$l: case [0-9]: .*skipped, its case runs again" \
            err.txt || fail "resume $attempt: line $l not named: $(cat err.txt)"
    done
    grep -q "sweep.journal:10:" err.txt && fail "the good row was warned about: $(cat err.txt)"
    cmp <(strip ref/sweep.csv) <(strip bad/sweep.csv) || fail "resume $attempt: the table differs"
done
grep -q "journal:2: case 0: max_contact_force 'nan' is not a finite number >= 0" err.txt ||
    fail "no reason for line 2: $(cat err.txt)"
grep -q "journal:3: case 1: impacts '-5' is not a whole number >= 0" err.txt ||
    fail "no reason for line 3: $(cat err.txt)"
grep -qxF "$(row 3)" bad/sweep.csv || fail "the good row of case 3 was not kept as it was"
echo "ok: resumed rows with quantities out of range are skipped with their line, every time"
