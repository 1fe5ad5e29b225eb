#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink run --json` and `clink check --json` print one JSON object on stdout
# with the schema of docs/cli.md: run's holds the exit status, the status and,
# under "summary", exactly the summary.json it wrote (also for a failed run,
# exit 1); check's holds "valid" and the figures of its text summary, or
# "valid": false and the message stderr carries (exit 2). A usage error prints
# nothing on stdout.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }
models=$CLINK_SOURCE_DIR/models
data=$CLINK_SOURCE_DIR/tests/cli/data
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

# the object against the files and the schema; prints what is wrong
validate() { # kind json-file [dir]
    "$py" - "$@" <<'PY'
import json, sys
kind, path = sys.argv[1], sys.argv[2]
doc = json.load(open(path))
def need(d, keys):
    for k, t in keys.items():
        if k not in d:
            sys.exit(f"{path}: key {k} missing")
        if not isinstance(d[k], t):
            sys.exit(f"{path}: {k} = {d[k]!r} is not {t}")
need(doc, {"clink": str, "command": str, "exit_status": int})
if kind.startswith("run"):
    need(doc, {"status": str, "model_file": str, "output_dir": str, "summary": dict})
    with open(sys.argv[3] + "/summary.json") as f:
        if json.load(f) != doc["summary"]:
            sys.exit("the summary differs from summary.json")
    want = {"run-ok": ("ok", 0), "run-failed": ("failed", 1)}[kind]
    if (doc["status"], doc["exit_status"]) != want or doc["summary"]["status"] != want[0]:
        sys.exit(f"status {doc['status']}, exit {doc['exit_status']}, expected {want}")
elif kind == "check-ok":
    need(doc, {"file": str, "valid": bool, "mechanism": str, "bodies": int, "joints": int,
               "clearance_joints": int, "drivers": int, "loads": int, "gravity": bool,
               "contacts": int, "laws": list, "constraints": int, "dof": int,
               "assembly_correction_position": (int, float),
               "assembly_correction_velocity": (int, float)})
    if not doc["valid"] or doc["exit_status"] != 0:
        sys.exit("a valid model not reported valid")
    if doc["dof"] != 3 * doc["bodies"] - doc["constraints"]:
        sys.exit("dof != 3 bodies - constraints")
    print(doc["mechanism"], doc["bodies"], doc["joints"], doc["clearance_joints"], doc["contacts"],
          ",".join(doc["laws"]) or "-", doc["dof"])
else:
    need(doc, {"file": str, "valid": bool, "error": str})
    if doc["valid"] or doc["exit_status"] != 2:
        sys.exit("a refused model not reported refused with exit 2")
    print(doc["error"])
PY
}

"$CLINK" run "$models/pendulum.xml" -o "$tmp/p" --t-end 0.05 --json >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 0 ] || bad "run --json: exit $status"
validate run-ok "$tmp/out" "$tmp/p" && ok "run --json: ok, the summary is summary.json" || bad "run --json"
grep -q "results in" "$tmp/out" && bad "run --json also printed the summary line"

"$CLINK" run "$data/unreachable_slider.xml" -o "$tmp/f" --json >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 1 ] || bad "failed run --json: exit $status, expected 1"
validate run-failed "$tmp/out" "$tmp/f" && ok "run --json of a failed run: status failed, exit 1" ||
    bad "failed run --json"

"$CLINK" run "$models/pendulum.xml" -o "$tmp/u" --t-end -1 --json >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" = 2 ] && [ ! -s "$tmp/out" ] && ok "run --json with a usage error: exit 2, stdout empty" ||
    bad "run --json with a usage error: exit $status, stdout $(wc -c <"$tmp/out") bytes"

# check: the JSON and the text summary give the same figures
for m in four_bar slider_crank_clearance two_spheres; do
    "$CLINK" check "$models/$m.xml" --json >"$tmp/out" 2>"$tmp/err" || bad "check --json $m: exit $?"
    figures=$(validate check-ok "$tmp/out") || { bad "check --json $m: $figures"; continue; }
    "$CLINK" check "$models/$m.xml" >"$tmp/text" || bad "check $m"
    read -r name bodies joints clearance contacts laws dof <<<"$figures"
    grep -q "mechanism *$name$" "$tmp/text" && grep -q "bodies *$bodies " "$tmp/text" &&
        grep -q "joints *$joints ideal, $clearance with clearance" "$tmp/text" &&
        grep -q "contact pairs *$contacts$" "$tmp/text" &&
        grep -q "degrees of freedom $dof " "$tmp/text" &&
        { { [ "$laws" = - ] && grep -q "contact laws *none$" "$tmp/text"; } ||
            grep -q "contact laws *${laws//,/, }$" "$tmp/text"; } &&
        ok "check --json $m agrees with the text ($figures)" || { bad "check --json $m differs from the text"; cat "$tmp/text" "$tmp/out"; }
done
for m in "$data/loop_cannot_close.xml" "$CLINK_SOURCE_DIR/tests/xml-bad" "$tmp/none.xml"; do
    "$CLINK" check "$m" --json >"$tmp/out" 2>"$tmp/err"
    status=$?
    msg=$(validate check-refused "$tmp/out") || bad "check --json $m: $msg"
    [ "$status" = 2 ] || bad "check --json $m: exit $status, expected 2"
    [ "$msg" = "$(cat "$tmp/err")" ] && ok "check --json of a refused $(basename "$m"): exit 2, the message of stderr" ||
        bad "check --json $m: error '$msg' is not stderr's '$(cat "$tmp/err")'"
done
exit $fail
