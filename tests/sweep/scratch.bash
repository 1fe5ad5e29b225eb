# SPDX-License-Identifier: BSD-3-Clause
# Shared opening of the sweep tests (sourced, not a test: the tests are the *.sh). The
# caller has set -euo pipefail and sources this file as
#   . "${CLINK_SOURCE_DIR:?}/tests/sweep/scratch.bash"
# It checks that $CLINK (the clink binary) is set, makes a scratch directory $tmp that is
# removed at exit, and works in it.
#   fail TEXT             the test fails with TEXT
: "${CLINK:?}" "${CLINK_SOURCE_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }
