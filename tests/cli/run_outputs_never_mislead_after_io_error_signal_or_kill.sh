#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink run` never leaves results that look current when they are not:
#  - a new run first removes the previous run's files (and figures);
#  - a write failure (file size limit, EFBIG, as a full disk would give ENOSPC)
#    exits 3 naming the user's file and the system's reason, and leaves no
#    summary.json and no .incomplete file; clink ignores SIGXFSZ itself (it is
#    given its default action here, as a shell gives it), so it is not killed
#    by the signal (status 153, the .incomplete files left);
#  - SIGINT and SIGTERM stop between rows: exit 130 / 143, the rows so far
#    (complete rows only), summary "interrupted", no .incomplete file;
#  - kill -9 leaves only files named *.incomplete, which the next run removes;
#  - directory errors carry the system's reason, an empty -o is refused.
set -u
fail=0
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }
models=$CLINK_SOURCE_DIR/models
long=("$CLINK" run "$models/granular_chain.xml" --t-end 1 --output-step 1e-5 --quiet --no-timing)

# waits until DIR/timeseries.csv.incomplete has at least 4 lines (60 s at most)
wait_rows() {
    local i
    for i in $(seq 600); do
        [ -f "$1/timeseries.csv.incomplete" ] && [ "$(wc -l <"$1/timeseries.csv.incomplete")" -ge 4 ] && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
# every line of a CSV has as many fields as its header
complete_rows() {
    awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$1"
}

# a finished run, and a fake figure of an earlier `clink plot`
d=$tmp/run
"$CLINK" run "$models/pendulum.xml" -o "$d" --t-end 0.05 --quiet || bad "pendulum run"
touch "$d/energies.png"

# 1. write failure: a file size limit makes write() fail with EFBIG
( ulimit -f 64; env --default-signal=XFSZ "${long[@]}" -o "$d" ) >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 3 ] || bad "write failure: exit $status, expected 3"
grep -q "$d/timeseries.csv: cannot write: File too large" "$tmp/err" || { bad "write failure message"; cat "$tmp/err"; }
grep -q "incomplete\|\.tmp" "$tmp/err" && bad "write failure names the temporary file"
[ -e "$d/summary.json" ] && bad "write failure left the previous summary.json"
[ -e "$d/energies.png" ] && bad "write failure left the previous run's figure"
ls "$d" | grep -q incomplete && bad "write failure left .incomplete files"
[ "$(ls -A "$d" | wc -l)" = 0 ] || { bad "write failure left files:"; ls -A "$d"; }
[ "$fail" = 0 ] && ok "write failure: exit 3, '$(cat "$tmp/err")', nothing left"

# 2. SIGINT and SIGTERM
for sig in INT TERM; do
    want=130
    [ $sig = TERM ] && want=143
    d=$tmp/sig$sig
    "${long[@]}" -o "$d" 2>"$tmp/err" &
    pid=$!
    wait_rows "$d" || bad "SIG$sig: the run made no rows"
    kill -$sig $pid
    wait $pid
    status=$?
    pid=
    [ "$status" = $want ] || bad "SIG$sig: exit $status, expected $want"
    grep -q '"status": "interrupted"' "$d/summary.json" || bad "SIG$sig: summary not interrupted"
    grep -q "\"message\": \"interrupted by SIG$sig at t = " "$d/summary.json" || bad "SIG$sig: summary message"
    ls "$d" | grep -q incomplete && bad "SIG$sig: .incomplete files left"
    rows=$(($(wc -l <"$d/timeseries.csv") - 1))
    grep -q "\"output_rows\": $rows," "$d/summary.json" || bad "SIG$sig: $rows rows but the summary says otherwise"
    [ "$rows" -ge 3 ] || bad "SIG$sig: only $rows rows kept"
    complete_rows "$d/timeseries.csv" || bad "SIG$sig: a row is cut short"
    grep -q "interrupted by SIG$sig" "$tmp/err" || bad "SIG$sig: no message on stderr"
    [ "$fail" = 0 ] && ok "SIG$sig: exit $status, $rows complete rows, summary interrupted"
done

# 3. kill -9: only names that say incomplete; the next run cleans them
d=$tmp/killed
"$CLINK" run "$models/pendulum.xml" -o "$d" --t-end 0.05 --quiet || bad "pendulum run"
"${long[@]}" -o "$d" 2>/dev/null &
pid=$!
wait_rows "$d" || bad "kill -9: the run made no rows"
kill -9 $pid
wait $pid 2>/dev/null
pid=
left=$(ls -A "$d" | sort | tr '\n' ' ')
[ "$left" = "impacts.csv.incomplete timeseries.csv.incomplete " ] || bad "kill -9 left: $left"
"$CLINK" plot "$d" >/dev/null 2>"$tmp/err"
status=$?
[ "$status" = 2 ] || bad "plot of a killed run: exit $status, expected 2"
grep -q "did not finish" "$tmp/err" || { bad "plot of a killed run: message"; cat "$tmp/err"; }
"$CLINK" run "$models/pendulum.xml" -o "$d" --t-end 0.01 --quiet || bad "run after kill -9"
left=$(ls -A "$d" | sort | tr '\n' ' ')
[ "$left" = "impacts.csv summary.json timeseries.csv " ] || bad "after the next run: $left"
[ "$fail" = 0 ] && ok "kill -9 leaves only *.incomplete; the next run removes them"

# 4. directories
"$CLINK" run "$models/pendulum.xml" -o "" --t-end 0.01 2>"$tmp/err"
status=$?
[ "$status" = 2 ] || bad "-o '': exit $status, expected 2"
grep -q "Success" "$tmp/err" && bad "-o '' says Success"
"$CLINK" run "$models/pendulum.xml" -o /dev/null/sub --t-end 0.01 2>"$tmp/err"
status=$?
[ "$status" = 2 ] || bad "-o /dev/null/sub: exit $status, expected 2 (an input error)"
grep -q "'/dev/null' exists and is not a directory" "$tmp/err" || { bad "-o /dev/null/sub message"; cat "$tmp/err"; }
[ "$fail" = 0 ] && ok "directory errors carry the system's reason"
exit $fail
