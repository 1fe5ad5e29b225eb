# SPDX-License-Identifier: BSD-3-Clause
# Shared by the shell tests of tests/cli (sourced, not a test: the tests are the *.sh):
# a scratch directory $tmp removed at exit, the verdict $fail, and
#   bad TEXT / ok TEXT            a failed / passed check (FAIL marks the test failed)
#   expect STATUS TEXT COMMAND... runs COMMAND (stdout, stderr in $tmp/out, $tmp/err) and
#                                 checks its exit status
#   says TEXT WORDS               the last command's stderr holds WORDS
# A test ends with `exit $fail`.
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }
expect() { # status description command...
    local want=$1 what=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" != "$want" ]; then
        bad "$what: exit $got, expected $want"
        cat "$tmp/err"
    else
        ok "$what"
    fi
}
says() { # description text: the last command's stderr holds text
    grep -qF -- "$2" "$tmp/err" && ok "$1" || { bad "$1: stderr lacks '$2'"; cat "$tmp/err"; }
}
