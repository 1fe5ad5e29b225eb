#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink sweep --resume` checks every row of the journal before it keeps it: a row with
# a NUL byte (once a crash, exit 139: the line had no newline for strchr), a case index
# out of range, parameter values that are not the specification's, an unknown status,
# a missing field, or a case given twice is skipped with a warning naming
# DIR/sweep.journal:LINE, and its case runs again; the good rows are kept as they are.
# The table is then the one of an uninterrupted sweep (wall_time aside).
set -euo pipefail
. "${CLINK_SOURCE_DIR:?}/tests/sweep/scratch.bash"
cat > spec.xml <<XML
<?xml version="1.0"?>
<sweep model="$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml">
  <parameter path="settings.t_end" values="0.005"/>
  <parameter path="body[crank].mass" values="0.3 0.31 0.32 0.33"/>
  <collect quantities="impacts steps"/>
</sweep>
XML
strip() { sed 's/,[^,]*$//' "$1"; }
"$CLINK" sweep spec.xml -o ref -j 1 -q || fail "reference sweep: exit $?"
row() { sed -n "$(($1 + 2))p" ref/sweep.csv; } # case k's row of the reference

# the smallest damage: the tag line, then a row holding a NUL byte
mkdir nul
head -n 1 ref/sweep.journal > nul/sweep.journal
printf '1,0.3\0,x\n' >> nul/sweep.journal
set +e
"$CLINK" sweep spec.xml -o nul -q --resume 2> err.txt; rc=$?
set -e
[ $rc -eq 0 ] || fail "NUL row: exit $rc, expected 0: $(cat err.txt)"
grep -q "nul/sweep.journal:2: a NUL byte" err.txt || fail "NUL row not named: $(cat err.txt)"
cmp <(strip ref/sweep.csv) <(strip nul/sweep.csv) || fail "NUL row: table differs"

# every kind of damage, then a good row (case 1) that must be kept as it is
mkdir bad
{
    head -n 1 ref/sweep.journal
    printf '%s\n' "$(row 1 | sed 's/,0.31,/,0.99,/')"       # line 2: another value
    printf '%s\n' "$(row 2 | sed 's/,ok,/,fine,/')"         # line 3: unknown status
    printf '%s\n' "$(row 3 | sed 's/,[^,]*$//')"            # line 4: a field missing
    printf '%s\n' "$(row 0 | sed 's/^0,/7,/')"              # line 5: no such case
    printf '%s\n' "$(row 1)"                                # line 6: good, kept
    printf '%s\n' "$(row 1)"                                # line 7: case 1 again
    printf '3,0.005,0.33,o\0k,,,1,2,0.1\n'                  # line 8: a NUL byte
} > bad/sweep.journal
set +e
"$CLINK" sweep spec.xml -o bad -q --resume 2> err.txt; rc=$?
set -e
[ $rc -eq 0 ] || fail "damaged rows: exit $rc, expected 0: $(cat err.txt)"
for l in 2 3 4 5 7 8; do
    grep -q "^clink: sweep: warning: bad/sweep.journal:$l: .*skipped, its case runs again" \
        err.txt || fail "line $l not named: $(cat err.txt)"
done
grep -q "sweep.journal:6:" err.txt && fail "the good row was warned about: $(cat err.txt)"
grep -q "journal:2: case 1: the parameters' values are not the specification's" err.txt ||
    fail "no reason for line 2: $(cat err.txt)"
grep -q "journal:3: case 2: not a status" err.txt || fail "no reason for line 3"
grep -q "journal:4: case 3: .* fields, the table has" err.txt || fail "no reason for line 4"
cmp <(strip ref/sweep.csv) <(strip bad/sweep.csv) || fail "damaged rows: table differs"
grep -qxF "$(row 1)" bad/sweep.csv || fail "the good row of case 1 was not kept as it was"
echo "ok: damaged journal rows skipped with DIR/sweep.journal:LINE, their cases run again"
