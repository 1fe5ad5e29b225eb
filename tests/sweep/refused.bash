# SPDX-License-Identifier: BSD-3-Clause
# Shared by the sweep tests that feed clink refused specifications (sourced, not a test:
# the tests are the *.sh). The caller has set -euo pipefail, has sourced scratch.bash
# (its scratch directory and fail) and writes each specification to spec.xml.
#   expect LINE PATTERN   `clink sweep spec.xml -o out` is refused within 10 s: exit 2, a
#                         message "spec.xml:LINE: ..." matching PATTERN, no out created
expect() {
    local rc
    set +e
    timeout 10 "$CLINK" sweep spec.xml -o out 2> err.txt
    rc=$?
    set -e
    [ $rc -ne 124 ] || fail "not refused within 10 s: $(cat spec.xml)"
    [ $rc -eq 2 ] || fail "exit $rc, expected 2 for: $(cat spec.xml)"
    grep -q "^spec.xml:$1: " err.txt || fail "expected spec.xml:$1: got: $(cat err.txt)"
    grep -q "$2" err.txt || fail "expected '$2' in: $(cat err.txt)"
    [ ! -e out ] || fail "out created for a refused spec"
}
