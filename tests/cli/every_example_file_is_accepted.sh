#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every model file of examples/ passes `clink check`, and every sweep specification there is
# well-formed, valid against share/clink-sweep.xsd and names a model that passes `clink check`
# (no test ran these files: a `--` inside a comment once made the shipped bifurcation sweep
# unreadable).
set -u
source "$(dirname "$0")/checks.bash"
n=0
for f in "$CLINK_SOURCE_DIR"/examples/*.xml; do
    n=$((n + 1))
    name=$(basename "$f")
    if grep -q '<sweep' "$f"; then
        expect 0 "$name is well-formed and valid against the sweep schema" \
            xmllint --noout --schema "$CLINK_SOURCE_DIR/share/clink-sweep.xsd" "$f"
        model=$(sed -n 's/.*<sweep[^>]* model="\([^"]*\)".*/\1/p' "$f" | head -n 1)
        [ -n "$model" ] && ok "$name names its model ($model)" || bad "$name names no model"
        expect 0 "$name's model passes clink check" "$CLINK" check "$(dirname "$f")/$model"
    else
        expect 0 "$name passes clink check" "$CLINK" check "$f"
    fi
done
[ "$n" -ge 3 ] && ok "$n example files" || bad "only $n example files found"
exit $fail
