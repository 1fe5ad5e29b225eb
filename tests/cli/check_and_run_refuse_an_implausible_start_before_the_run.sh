#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A bad start stops before the run (docs/cli.md, "clink check", "clink run"). The
# clearance slider-crank with its crank driven from 1.61 rad (`--set
# driver[motor].linear.initial=1.61`): the assembly moves the crank 1.61 rad and the journal
# starts 6.2 times its size into the bearing, an implausible start. Before: `check` named it
# and still printed "valid" with exit 0; `run` said nothing, integrated for 22 s and 1e7 steps
# and then blamed "the warnings at t = 0" it never showed. Now `check` exits 2 without
# "valid" (--json: "valid": false, "exit_status": 2); `run` prints the findings at t = 0
# and refuses at once with exit 2, writing nothing; `--allow-bad-start` goes on anyway
# (check: valid with the warnings, exit 0; run: integrates, and the implausible result
# fails it, exit 1). A start that only warns (a journal 0.5 mm in) runs as before, its
# warning printed before integrating (also when the run then fails).
set -u
source "$(dirname "$0")/checks.bash"
model=$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml
bad_start=(--set 'driver[motor].linear.initial=1.61')

expect 2 "check of an implausible start" "$CLINK" check "$model" "${bad_start[@]}"
says "check names the implausible start" "implausible at t = 0 s: contact 'rod_slider' penetrates"
says "check names the way to go on" "--allow-bad-start"
grep -q "valid" "$tmp/out" && bad "check printed valid: $(cat "$tmp/out")" || ok "no 'valid'"
expect 2 "check --json of an implausible start" "$CLINK" check --json "$model" "${bad_start[@]}"
grep -q '"valid": false' "$tmp/out" && grep -q '"exit_status": 2' "$tmp/out" &&
    ok "--json: not valid, exit_status 2" || bad "--json: $(cat "$tmp/out")"
expect 0 "check --allow-bad-start" "$CLINK" check --allow-bad-start "$model" "${bad_start[@]}"
grep -q "valid" "$tmp/out" && ok "valid with --allow-bad-start" || bad "$(cat "$tmp/out")"
says "the findings still shown" "implausible at t = 0 s"

expect 2 "run of an implausible start" "$CLINK" run "$model" "${bad_start[@]}" -o "$tmp/r1"
says "run shows the start's warnings" "the assembly moved the initial conditions"
says "run shows the implausible finding" "implausible at t = 0 s: contact 'rod_slider' penetrates"
says "run names the way to go on" "--allow-bad-start"
[ ! -e "$tmp/r1" ] && ok "nothing written" || bad "the refused run wrote $tmp/r1"
expect 1 "run --allow-bad-start goes on and fails on the implausible result" \
    "$CLINK" run "$model" "${bad_start[@]}" --allow-bad-start --max-steps 2000 -o "$tmp/r2"
says "the start's finding shown" "implausible at t = 0 s"
[ -e "$tmp/r2/summary.json" ] && ok "results written" || bad "no summary.json"

# a start that only warns: run, its warning before the integration (here a run stopped by
# max_steps, which before printed no warning at all)
expect 1 "run of a penetrated journal stopped by max_steps" "$CLINK" run "$model" \
    --set 'body[slider].x=0.171' --max-steps 20 -o "$tmp/r3"
says "the warning at t = 0 is shown" "contact 'rod_slider' starts penetrated by"
first=$(head -n 1 "$tmp/err")
case "$first" in *"starts penetrated"*) ok "printed first" ;; *) bad "first line: $first" ;; esac
expect 0 "check of the penetrated journal is valid" "$CLINK" check "$model" --set 'body[slider].x=0.171'
exit $fail
