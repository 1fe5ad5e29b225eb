#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink fmu` (src/cli/cmd_fmu.c, docs/fmi.md) loses nothing and writes what the FMI
# standard asks: an output path that is the model itself (also through another spelling
# or a hard link) is refused with exit 2 and the model untouched (before: the model was
# replaced by the zip, exit 0); the FMU is written under a temporary name and renamed, so
# a write that fails (a file size limit) exits 3 and leaves the previous FMU as it was
# with no temporary file (before: the previous FMU was truncated in place); an input named
# like an output (two variables of one name) is refused with exit 2 naming it; the
# capability flags say states cannot be got and set when the model runs under the window
# of the state (where clink_sim_state_save refuses), and can otherwise.
set -u
source "$(dirname "$0")/checks.bash"
model=$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml
cp "$model" "$tmp/m.xml"
cp "$tmp/m.xml" "$tmp/m.orig"

# the output is the model: refused, the model untouched
expect 2 "-o the model itself" "$CLINK" fmu "$tmp/m.xml" -o "$tmp/m.xml"
says "the refusal names the model" "is the model"
cmp -s "$tmp/m.xml" "$tmp/m.orig" && ok "the model is untouched" || bad "the model was replaced"
mkdir "$tmp/sub"
expect 2 "-o the model by another spelling" "$CLINK" fmu "$tmp/m.xml" -o "$tmp/sub/../m.xml"
ln "$tmp/m.xml" "$tmp/hard.xml"
expect 2 "-o a hard link of the model" "$CLINK" fmu "$tmp/m.xml" -o "$tmp/hard.xml"
cmp -s "$tmp/m.xml" "$tmp/m.orig" && ok "the model is still untouched" || bad "the model changed"

# a failed write keeps the previous FMU, and nothing temporary is left
expect 0 "an FMU" "$CLINK" fmu "$tmp/m.xml" -o "$tmp/m.fmu"
[ -s "$tmp/m.fmu" ] && ok "written" || bad "no FMU written"
cp "$tmp/m.fmu" "$tmp/m.fmu.orig"
(
    ulimit -f 64 # 64 KiB: the FMU's library alone is larger
    exec env --default-signal=XFSZ "$CLINK" fmu "$tmp/m.xml" -o "$tmp/m.fmu" >"$tmp/out" 2>"$tmp/err"
)
status=$?
[ "$status" = 3 ] && ok "a write beyond the size limit exits 3" || { bad "exit $status, expected 3"; cat "$tmp/err"; }
says "the message names the FMU and the reason" "$tmp/m.fmu: cannot write: File too large"
cmp -s "$tmp/m.fmu" "$tmp/m.fmu.orig" && ok "the previous FMU is intact" || bad "the previous FMU was damaged"
left=$(ls -A "$tmp" | grep -vxE 'm\.xml|m\.orig|sub|hard\.xml|m\.fmu|m\.fmu\.orig|out|err')
[ -z "$left" ] && ok "nothing temporary left" || bad "left behind: $left"

# unique names: an input named like an output
sed 's/name="motor_torque"/name="crank.phi"/' \
    "$CLINK_SOURCE_DIR/examples/slider_crank_clearance_torque.xml" >"$tmp/dup.xml"
grep -q 'name="crank.phi"' "$tmp/dup.xml" || bad "the test's model has no input renamed"
expect 2 "an input named like an output" "$CLINK" fmu "$tmp/dup.xml" -o "$tmp/dup.fmu"
says "the refusal names the variable" "'crank.phi'"
[ ! -e "$tmp/dup.fmu" ] && ok "no FMU written" || bad "an FMU was written"

# the capability flags: false under the window of the state, true otherwise
flags() { # FMU: its canGetAndSetFMUstate and canSerializeFMUstate
    python3 -c 'import re, sys, zipfile
d = zipfile.ZipFile(sys.argv[1]).read("modelDescription.xml").decode()
print(" ".join(re.search(k + r"=\"(\w+)\"", d).group(1)
      for k in ("canGetAndSetFMUstate", "canSerializeFMUstate")))' "$1"
}
[ "$(flags "$tmp/m.fmu")" = "true true" ] && ok "states: true without the window" ||
    bad "flags without the window: $(flags "$tmp/m.fmu")"
sed 's|<settings [^>]*/>|<settings t_end="0.01" output_step="1e-3" method="adams" drift="baumgarte" window="on"/>|' \
    "$CLINK_SOURCE_DIR/models/ball_drop.xml" >"$tmp/win.xml"
expect 0 "an FMU of a model under the window" "$CLINK" fmu "$tmp/win.xml" -o "$tmp/win.fmu"
[ "$(flags "$tmp/win.fmu")" = "false false" ] && ok "states: false under the window" ||
    bad "flags under the window: $(flags "$tmp/win.fmu")"
exit $fail
