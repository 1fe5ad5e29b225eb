#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A signal during a step that cannot be interrupted (docs/cli.md, "Output files"): BDF on a
# chain of 600 bodies hanging from a pin, one output row at the end of 4 steps of 1 ns, each
# step a KLU factorisation of the dense Newton matrix (seconds: docs/performance.md,
# "Revolute chains"). The chain is pinned twice at the same point: its start finds two
# dependent constraint rows, so that it keeps the Newton matrix I - gamma J (a chain of 100
# bodies or more otherwise takes the saddle Newton solve, which takes milliseconds; docs/
# kernel.md, "The saddle Newton solve"). The signal is read between rows, and KLU cannot be stopped inside a
# factorisation; before, SIGTERM was acted on only when the integration reached its row (or,
# here, never: the run ended "ok", exit 0). Now the run ends 1 s after the signal when no row
# is reached by then: exit 143, a message saying so, the rows so far left as
# NAME.incomplete (no summary.json), which the next run removes. The check is on the status
# and the message, not on a time: the chain's size makes the step far longer than 1 s.
set -u
source "$(dirname "$0")/checks.bash"
n=600
awk -v n=$n 'BEGIN {
    print "<mechanism name=\"chain\">"
    print "<settings t_end=\"4e-9\" output_step=\"4e-9\" method=\"bdf\" drift=\"none\" max_step=\"1e-9\"/>"
    print "<gravity g=\"0 -9.81\"/><bodies>"
    for (i = 0; i < n; i++) printf "<body name=\"b%d\" mass=\"1\" inertia=\"1\" x=\"%d\"/>\n", i, i
    print "</bodies><joints>"
    print "<revolute name=\"pin\" body1=\"ground\" body2=\"b0\" point1=\"-0.5 0\" point2=\"-0.5 0\"/>"
    print "<revolute name=\"pin2\" body1=\"ground\" body2=\"b0\" point1=\"-0.5 0\" point2=\"-0.5 0\"/>"
    for (i = 1; i < n; i++) printf "<revolute name=\"j%d\" body1=\"b%d\" body2=\"b%d\" point1=\"0.5 0\" point2=\"-0.5 0\"/>\n", i, i - 1, i
    print "</joints></mechanism>"
}' >"$tmp/chain.xml"
"$CLINK" run "$tmp/chain.xml" -o "$tmp/out" -q >"$tmp/out.txt" 2>"$tmp/err" &
pid=$!
# the handlers are installed before the output files are created: wait for the first row
for _ in $(seq 1 600); do
    [ -e "$tmp/out/timeseries.csv.incomplete" ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.1
done
[ -e "$tmp/out/timeseries.csv.incomplete" ] && ok "the run is integrating" || bad "no output file"
# the file appears with its header; the row at t = 0 is sampled after it, and a signal
# during that sampling is read before the first step (an ordinary interruption at t = 0,
# the case of run_outputs_never_mislead_after_io_error_signal_or_kill.sh). A second later
# the run is inside its first step, which lasts seconds (the 4 steps take about 35 s in
# the optimised build, longer under the sanitizers)
sleep 1
kill -TERM $pid
wait $pid
status=$?
[ "$status" = 143 ] && ok "exit 143" || bad "exit $status, expected 143"
says "the run says it stopped at once" "clink: run: stopped at once: the step in progress"
[ ! -e "$tmp/out/summary.json" ] && ok "no summary.json" || bad "a summary.json: $(cat "$tmp/out/summary.json")"
left=$(cd "$tmp/out" && ls)
case "$left" in *.incomplete*) ok "the rows so far as NAME.incomplete" ;; *) bad "left: $left" ;; esac
# the next run into the directory removes them
"$CLINK" run "$CLINK_SOURCE_DIR/models/pendulum.xml" -o "$tmp/out" -q --t-end 0.01 ||
    bad "a run after it"
[ -z "$(find "$tmp/out" -name '*.incomplete')" ] && ok "the next run removed them" || bad "left"
exit $fail
