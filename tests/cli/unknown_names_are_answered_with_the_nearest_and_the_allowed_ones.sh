#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A misspelt name is answered with the nearest right one and, where they are
# few, the names allowed there: a command, an option, and in a mechanism file an
# attribute or element (the names the embedded schema declares: an attribute
# added to share/clink.xsd is offered with no other edit), a keyword, a law, a
# material, a body or a joint. A name far from all is not guessed at. Every
# message of a file keeps FILE:LINE and exit status 2.
set -u
. "$CLINK_SOURCE_DIR/tests/cli/checks.bash"
models=$CLINK_SOURCE_DIR/models

expect 2 "unknown command" "$CLINK" rnu
says "the nearest command" "clink: unknown command 'rnu' (did you mean 'run'?); commands: check run"
expect 2 "unknown command far from all" "$CLINK" frobnicate
grep -q "did you mean" "$tmp/err" && bad "a far command was guessed at" || ok "no guess for a far command"
expect 2 "unknown option" "$CLINK" run "$models/pendulum.xml" --ouptut-step 1e-3
says "the nearest option" "run: unknown option '--ouptut-step' (did you mean '--output-step'?)"
expect 2 "unknown option of check" "$CLINK" check "$models/pendulum.xml" --jsno
says "the nearest option of check" "(did you mean '--json'?)"

# every attribute the schema declares for <body> is listed, read from the installed schema
m="$tmp/m.xml"
sed 's/ mass=/ mas=/' "$models/pendulum.xml" > "$m"
line=$(grep -n ' mas=' "$m" | head -1 | cut -d: -f1)
expect 2 "misspelt body attribute" "$CLINK" check "$m"
says "FILE:LINE and the nearest attribute" "$m:$line: body "
says "the nearest attribute" "unknown attribute 'mas' (did you mean 'mass'?); <body> takes "
attrs=$(sed -n '/<xs:element name="body"/,/<\/xs:element>/p' "$CLINK_SOURCE_DIR/share/clink.xsd" |
    sed -n 's/.*<xs:attribute name="\([^"]*\)".*/\1/p')
[ -n "$attrs" ] || bad "no attributes of <body> found in share/clink.xsd"
for a in $attrs; do
    grep -q "[ ,]$a\(,\|\$\)" "$tmp/err" || bad "the schema's attribute '$a' of <body> is not listed"
done

# a keyword, an element, a clearance joint driven, a law, a material
sc=$models/slider_crank_clearance.xml
sed 's/method="adams"/method="adam"/' "$sc" > "$m"
expect 2 "misspelt keyword" "$CLINK" check "$m"
says "the nearest keyword" "method = 'adam' is not a valid value (did you mean 'adams'?); one of bdf, adams"
sed 's/<friction /<fricton /' "$sc" > "$m"
expect 2 "misspelt element" "$CLINK" check "$m"
says "the nearest element" "unknown element <fricton> (did you mean <friction>?); <revolute_clearance> holds law, friction"
sed 's/joint="crank_pin"/joint="rod_slider"/' "$sc" > "$m"
line=$(grep -n 'joint="rod_slider"' "$m" | cut -d: -f1)
expect 2 "driver on a clearance joint" "$CLINK" check "$m"
says "a clearance joint cannot be driven" "$m:$line: driver 'motor': joint = 'rod_slider' is a clearance joint; a clearance joint cannot be driven (it has no ideal constraint): drive the ideal joint of the crank"
says "the ideal joints listed" "ideal joints: crank_pin, crank_rod, guide"
sed 's/"lankarani-nikravesh"/"lankarani-nikravesch"/' "$sc" > "$m"
expect 2 "misspelt law" "$CLINK" check "$m"
says "the nearest law" "unknown contact law 'lankarani-nikravesch' (did you mean 'lankarani-nikravesh'?); laws: "
for law in $("$CLINK" laws --json | python3 -c 'import json,sys; print(" ".join(l["name"] for l in json.load(sys.stdin)["laws"]))'); do
    grep -qF -- "$law" "$tmp/err" || bad "law $law not listed"
done
sed 's/journal_material="steel"/journal_material="stele"/' "$sc" > "$m"
expect 2 "misspelt material" "$CLINK" check "$m"
says "the nearest material" "journal_material = 'stele' is not a material of this file (did you mean 'steel'?); materials: steel"
exit $fail
