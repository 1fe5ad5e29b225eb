#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink plot` on a damaged run directory (truncated time series, missing or
# broken summary.json, a non-number in a row, not a directory) says what is
# wrong in one line with exit 2 and no traceback; on a failed run it draws the
# figures up to the failure, marks them and exits 1.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }
py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py
"$py" -c "import sys" 2>/dev/null || { echo "skip: no python3 at $py"; exit 0; }

"$CLINK" run "$CLINK_SOURCE_DIR/models/pendulum.xml" -o "$tmp/good" --t-end 0.05 --quiet || bad "pendulum run"
damage() { # name: copies the good run to $tmp/name
    rm -rf "$tmp/$1"
    cp -r "$tmp/good" "$tmp/$1"
}
expect_damaged() { # name what-the-message-says
    "$CLINK" plot "$tmp/$1" >"$tmp/out" 2>"$tmp/err"
    local status=$?
    [ "$status" = 2 ] || bad "$1: exit $status, expected 2"
    grep -q "Traceback" "$tmp/err" && bad "$1: traceback"
    grep -q "matplotlib" "$tmp/err" && bad "$1: blames matplotlib"
    grep -q -- "$2" "$tmp/err" || { bad "$1: message lacks '$2'"; cat "$tmp/err"; }
    [ "$(wc -l <"$tmp/err")" = 1 ] || bad "$1: message is not one line"
    ls "$tmp/$1" | grep -q '\.png$' && bad "$1: figures drawn"
    [ "$fail" = 0 ] && ok "$1: $(cat "$tmp/err")"
}

damage truncated
head -c 1500 "$tmp/good/timeseries.csv" >"$tmp/truncated/timeseries.csv"
expect_damaged truncated "truncated file"
damage no_summary
rm "$tmp/no_summary/summary.json"
expect_damaged no_summary "summary.json: missing"
damage bad_summary
echo '{"status": ' >"$tmp/bad_summary/summary.json"
expect_damaged bad_summary "not valid JSON"
damage not_a_number
sed -i '3s/^\([^,]*\),[^,]*,/\1,x1,/' "$tmp/not_a_number/timeseries.csv"
expect_damaged not_a_number "is not a number"
: >"$tmp/plainfile"
"$CLINK" plot "$tmp/plainfile" 2>"$tmp/err"
[ $? = 2 ] || bad "plot of a plain file not refused with 2"
grep -q "Not a directory" "$tmp/err" || bad "plot of a plain file: message"

if "$py" -c "import matplotlib" 2>/dev/null; then
    "$CLINK" run "$CLINK_SOURCE_DIR/tests/cli/data/unreachable_slider.xml" -o "$tmp/failed" --quiet 2>/dev/null
    "$CLINK" plot "$tmp/failed" >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ "$status" = 1 ] || bad "failed run: plot exit $status, expected 1"
    grep -q "the run failed at t = " "$tmp/err" || { bad "failed run: no message"; cat "$tmp/err"; }
    [ -s "$tmp/failed/coordinates.png" ] || bad "failed run: no figure"
    [ "$fail" = 0 ] && ok "failed run drawn, marked, exit 1"
    "$CLINK" plot "$tmp/good" >/dev/null 2>&1 || bad "plot of a good run"
else
    echo "skip failed-run figures: matplotlib not found for $py"
fi
exit $fail
