#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The modelDescription.xml that `clink fmu` writes (src/cli/cmd_fmu.c, docs/fmi.md) is
# valid against the FMI 2.0 standard's own schema (third_party/fmi2/schema, FMI 2.0.5 of
# the Modelica Association, checked by xmllint --schema of libxml2-utils) for models with
# a clearance joint and friction, a lubricated joint, a belt with Stribeck friction and
# drivers, and inputs; every variable name follows the "structured" naming convention the
# description declares (identifiers joined by dots); and the schema check can fail: a
# description with a causality the standard does not know is refused.
set -u
source "$(dirname "$0")/checks.bash"
xsd=$CLINK_SOURCE_DIR/third_party/fmi2/schema/fmi2ModelDescription.xsd
command -v xmllint >/dev/null || { bad "xmllint not found (Debian: libxml2-utils, scripts/install-deps)"; exit 1; }
[ -f "$xsd" ] || { bad "no schema at $xsd"; exit 1; }

description() { # FMU OUT: its modelDescription.xml into OUT
    python3 -c 'import sys, zipfile
sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read("modelDescription.xml").decode())' "$1" >"$2"
}

for m in models/slider_crank_clearance.xml models/slider_crank_lubricated.xml \
    models/belt_stick_slip.xml examples/slider_crank_clearance_torque.xml; do
    n=$(basename "$m" .xml)
    expect 0 "an FMU of $n" "$CLINK" fmu "$CLINK_SOURCE_DIR/$m" -o "$tmp/$n.fmu"
    description "$tmp/$n.fmu" "$tmp/$n.xml"
    if xmllint --noout --schema "$xsd" "$tmp/$n.xml" >"$tmp/lint" 2>&1; then
        ok "$n: modelDescription.xml validates against fmi2ModelDescription.xsd"
    else
        bad "$n: modelDescription.xml does not validate"
        cat "$tmp/lint"
    fi
    badnames=$(grep -o '<ScalarVariable name="[^"]*"' "$tmp/$n.xml" | sed 's/.*name="//; s/"$//' |
        grep -vE '^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$')
    [ -z "$badnames" ] && ok "$n: every name is structured" || bad "$n: names not structured: $badnames"
done
grep -q 'causality="parameter"' "$tmp/slider_crank_clearance.xml" &&
    ok "the clearance slider-crank has parameters" || bad "no parameter declared"

# the check can fail: an unknown causality is refused by the schema
sed 's/causality="parameter"/causality="tunable"/' "$tmp/slider_crank_clearance.xml" >"$tmp/broken.xml"
if xmllint --noout --schema "$xsd" "$tmp/broken.xml" >"$tmp/lint" 2>&1; then
    bad "a description with causality=\"tunable\" validated"
else
    grep -q "tunable" "$tmp/lint" && ok "an unknown causality is refused, named" ||
        { bad "refused without naming the value"; cat "$tmp/lint"; }
fi
exit $fail
