#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A sweep's case processes end with their coordinator (src/sweep/sweep_pool.c: each child
# asks for SIGKILL when its parent dies, PR_SET_PDEATHSIG, and keeps the journal's lock
# with it): killing `clink sweep` with SIGKILL or SIGTERM leaves none of its case processes
# running (before: they ran on to the end of their cases), and an immediate `--resume`
# never runs a case while a process of the killed sweep still runs it: with
# keep_outputs="true" (two processes writing one case's directory) no case is recorded as
# failed, in this resume or in the next one.
set -euo pipefail
. "${CLINK_SOURCE_DIR:?}/tests/sweep/scratch.bash"
cat > spec.xml <<XML
<?xml version="1.0"?>
<sweep model="$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml" keep_outputs="true">
  <parameter path="settings.t_end" values="1"/>
  <parameter path="body[crank].mass" values="0.3 0.31"/>
  <collect quantities="impacts steps"/>
</sweep>
XML
alive() { # the pids among $@ that still exist (zombies aside)
    for p in "$@"; do
        s=$(ps -o stat= -p "$p" 2>/dev/null || true)
        [ -n "$s" ] && [ "${s#Z}" = "$s" ] && echo "$p"
    done
    return 0
}
for sig in KILL TERM; do
    out=run-$sig
    "$CLINK" sweep spec.xml -o "$out" -j 2 -q 2>/dev/null &
    coord=$!
    kids=""
    for _ in $(seq 100); do # up to 10 s for both case processes to start
        kids=$(ps -o pid= --ppid "$coord" 2>/dev/null | tr '\n' ' ' || true)
        [ "$(echo $kids | wc -w)" -ge 2 ] && break
        sleep 0.1
    done
    [ "$(echo $kids | wc -w)" -ge 2 ] || fail "$sig: the sweep's case processes did not start"
    kill -s "$sig" "$coord"
    wait "$coord" 2>/dev/null || true
    left=""
    for _ in $(seq 10); do # the processes end within 1 s (each case has seconds to run)
        left=$(alive $kids)
        [ -z "$left" ] && break
        sleep 0.1
    done
    [ -z "$left" ] || fail "SIG$sig: case processes $left still run after their coordinator"
    for attempt in 1 2; do
        set +e
        "$CLINK" sweep spec.xml -o "$out" -j 2 -q --resume 2>err.txt
        rc=$?
        set -e
        [ $rc -eq 0 ] || fail "SIG$sig: resume $attempt: exit $rc: $(cat err.txt)"
        n_ok=$(grep -c ',ok,' "$out/sweep.csv" || true)
        [ "$n_ok" = 2 ] || fail "SIG$sig: resume $attempt: $n_ok ok rows of 2: $(cat "$out/sweep.csv")"
    done
    echo "ok: SIG$sig: no case process outlives the sweep; the resumes record every case ok"
done
