#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every malformed file of tests/xml-bad/ is refused by `clink check` (and by
# `clink run`, which must not run anything) with exactly its expected
# "FILE:LINE: what is wrong" line on stderr and exit status 2. Every file of
# tests/fuzz/regressions/ (inputs that once crashed or hung the fuzz target)
# is read through the normal loader and ends with status 0 or 2, never a crash.
set -u
dir="$CLINK_SOURCE_DIR/tests/xml-bad"
fail=0 count=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$dir"
for f in *.xml; do
    count=$((count + 1))
    want=$(cat "${f%.xml}.expect")
    for cmd in check run; do
        if [ "$cmd" = run ] && ! "$CLINK" --help | grep -q '^  run '; then
            continue
        fi
        if [ "$cmd" = run ]; then
            "$CLINK" run "$f" -o "$tmp/out" --quiet >/dev/null 2>"$tmp/err"
        else
            "$CLINK" check "$f" >/dev/null 2>"$tmp/err"
        fi
        status=$?
        got=$(cat "$tmp/err")
        if [ "$status" != 2 ] || [ "$got" != "$want" ]; then
            echo "FAIL clink $cmd $f: exit $status"
            echo "  expected: $want"
            echo "  got:      $got"
            fail=1
        fi
        if [ "$cmd" = run ] && [ -e "$tmp/out/timeseries.csv" ]; then
            echo "FAIL clink run $f wrote results after an error"
            fail=1
        fi
    done
done
echo "$count malformed files checked"
reg="$CLINK_SOURCE_DIR/tests/fuzz/regressions"
n=0
for f in "$reg"/*; do
    [ -f "$f" ] || continue
    case "$f" in *.md) continue ;; esac
    n=$((n + 1))
    "$CLINK" check "$f" >/dev/null 2>"$tmp/err"
    status=$?
    if [ "$status" != 0 ] && [ "$status" != 2 ]; then
        echo "FAIL fuzz regression $(basename "$f"): exit $status"
        cat "$tmp/err"
        fail=1
    fi
done
echo "$n fuzz regressions checked"
[ "$fail" = 0 ] && echo "all malformed files refused as expected"
exit $fail
