#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A case whose process dies (here: killed with SIGKILL while it runs, as the
# kernel kills a process out of memory) becomes a
# "crashed" row naming the signal; the other cases run to the end, the table is
# complete and the exit status is 1.
set -euo pipefail
. "${CLINK_SOURCE_DIR:?}/tests/sweep/scratch.bash"
cat > spec.xml <<XML
<?xml version="1.0"?>
<sweep model="$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml">
  <parameter path="settings.t_end" values="0.2"/>
  <parameter path="body[crank].mass" values="0.3 0.31 0.32 0.33"/>
  <collect quantities="impacts"/>
</sweep>
XML
"$CLINK" sweep spec.xml -o out -j 2 -q &
pid=$!
# A case process found may already have ended: a child that has ended and not yet been
# waited for (state Z) still takes a signal without error, and the signal does nothing, so
# only a running child is killed. Each case runs for about 0.15 s, so that the moment
# between reading the state and the signal is a small part of its life on a loaded machine.
running_child() {
    local c st
    for c in $(pgrep -P "$1" || true); do
        st=$(sed -e 's/^.*) //' "/proc/$c/stat" 2>/dev/null | cut -d' ' -f1) || continue
        case "$st" in R | S | D) echo "$c"; return 0 ;; esac
    done
    return 0
}
killed=""
for _ in $(seq 1 1000); do
    child=$(running_child $pid)
    if [ -n "$child" ] && kill -KILL "$child" 2>/dev/null; then
        killed=$child
        break
    fi
    sleep 0.005
done
[ -n "$killed" ] || fail "no case process seen"
set +e
wait $pid; rc=$?
set -e
[ $rc -eq 1 ] || fail "exit $rc, expected 1"
[ "$(($(wc -l < out/sweep.csv) - 1))" -eq 4 ] || fail "table incomplete: $(cat out/sweep.csv)"
[ "$(grep -c ',crashed,' out/sweep.csv)" -eq 1 ] || fail "no crashed row: $(cat out/sweep.csv)"
grep ',crashed,' out/sweep.csv | grep -q "signal 9" || fail "the signal is not named"
[ "$(grep -c ',ok,' out/sweep.csv)" -eq 3 ] || fail "the other cases: $(cat out/sweep.csv)"
echo "ok: the crashed case is a row, the three others ran"
