#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The command's contract: --help and --version succeed on stdout, an unknown
# command or no command fails with exit status 2 and a message on stderr.
set -u
fail=0
check() { # expected-status description command...
    local want=$1 what=$2; shift 2
    "$@" >/tmp/clink_cli_out.$$ 2>/tmp/clink_cli_err.$$
    local got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL $what: exit $got, expected $want"; cat /tmp/clink_cli_err.$$; fail=1
    else
        echo "ok   $what"
    fi
}
check 0 "--help succeeds" "$CLINK" --help
grep -q "usage: clink" /tmp/clink_cli_out.$$ || { echo "FAIL --help prints usage"; fail=1; }
check 0 "--version succeeds" "$CLINK" --version
grep -Eq "^clink [0-9]+\.[0-9]+\.[0-9]+$" /tmp/clink_cli_out.$$ || { echo "FAIL --version format"; fail=1; }
check 2 "unknown command exits 2" "$CLINK" no-such-command
grep -q "unknown command" /tmp/clink_cli_err.$$ || { echo "FAIL unknown command message"; fail=1; }
check 2 "no command exits 2" "$CLINK"
rm -f /tmp/clink_cli_out.$$ /tmp/clink_cli_err.$$
exit $fail
