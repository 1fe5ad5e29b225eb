#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A sweep locks DIR/sweep.journal (flock) while it runs: a second `clink sweep` into the
# same directory, with or without --resume, is refused with exit 2 naming the first one's
# pid, and touches nothing (the first one's journal is not emptied, it ends with its
# complete table); once the first has ended, the directory can be resumed again. Each case
# runs for about 0.2 s, so that on a loaded machine the first sweep is still running when
# the two later sweeps are tried.
set -euo pipefail
. "${CLINK_SOURCE_DIR:?}/tests/sweep/scratch.bash"
cat > spec.xml <<XML
<?xml version="1.0"?>
<sweep model="$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml">
  <parameter path="settings.t_end" values="0.25"/>
  <parameter path="body[crank].mass" values="0.3 0.31 0.32 0.33 0.34 0.35"/>
  <collect quantities="impacts"/>
</sweep>
XML
"$CLINK" sweep spec.xml -o out -j 1 -q &
pid=$!
for _ in $(seq 1 1000); do
    [ -f out/sweep.journal ] && [ "$(wc -l < out/sweep.journal)" -ge 1 ] && break
    sleep 0.01
done
kill -0 $pid 2> /dev/null || fail "the first sweep ended too soon to test the lock"
for resume in "" --resume; do
    set +e
    "$CLINK" sweep spec.xml -o out -j 1 -q $resume 2> err.txt; rc=$?
    set -e
    [ $rc -eq 2 ] || fail "second sweep ($resume): exit $rc, expected 2: $(cat err.txt)"
    grep -q "out/sweep.journal is in use by another sweep (pid $pid)" err.txt ||
        fail "the holder is not named: $(cat err.txt)"
done
set +e
wait $pid; rc=$?
set -e
[ $rc -eq 0 ] || fail "the first sweep: exit $rc"
[ "$(($(wc -l < out/sweep.csv) - 1))" -eq 6 ] || fail "table incomplete: $(cat out/sweep.csv)"
[ "$(($(wc -l < out/sweep.journal) - 1))" -eq 6 ] || fail "journal lost rows"
"$CLINK" sweep spec.xml -o out -q --resume || fail "resume after the end: exit $?"
echo "ok: a directory in use is refused with the holder's pid"
