#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every command reads its options with getopt_long's conventions: `--opt VALUE`
# and `--opt=VALUE` give the same result, short options take attached or
# separate values and group, `--` ends the options; an unknown option, a
# missing value and a value given to a flag are refused with exit 2 and a
# message naming the option. An output path that names an existing file of the
# other kind (-o onto a file, --loop onto a directory) is an input error: exit 2,
# nothing written. `clink --version` prints CMake's project version.
set -u
. "$CLINK_SOURCE_DIR/tests/cli/checks.bash"
models=$CLINK_SOURCE_DIR/models

# --version: the release number of the file VERSION (docs/releases.md)
want=$(cat "$CLINK_SOURCE_DIR/VERSION")
[ -n "$want" ] || bad "no release number in VERSION"
expect 0 "--version" "$CLINK" --version
[ "$(cat "$tmp/out")" = "clink $want" ] && ok "--version prints clink $want" ||
    bad "--version printed '$(cat "$tmp/out")', expected 'clink $want'"

# the same run spelled five ways gives byte-identical files
pend=$models/pendulum.xml
spell() { # name args...
    local name=$1
    shift
    expect 0 "run $*" "$CLINK" run --no-timing "$@"
}
spell a "$pend" -o "$tmp/a" --t-end 0.05 --output-step 0.01 --quiet
spell b "$pend" --output="$tmp/b" --t-end=0.05 --output-step=0.01 -q
spell c -o"$tmp/c" --t-end=0.05 "$pend" --output-step 0.01 --quiet
spell d -qo "$tmp/d" --t-end 0.05 --output-step=0.01 -- "$pend"
spell e --quiet --output "$tmp/e" --t-end 0.05 --output-step 0.01 "$pend"
for x in b c d e; do
    for f in timeseries.csv impacts.csv summary.json; do
        cmp -s "$tmp/a/$f" "$tmp/$x/$f" || bad "spelling $x: $f differs"
    done
done
[ "$fail" = 0 ] && ok "five spellings of one run give identical files"
[ -s "$tmp/out" ] && bad "-q printed on stdout"

# the laboratory's options too
expect 0 "impact --law=hertz --k=1e9 ..." "$CLINK" impact --law=hertz --mass=1 --velocity=1 --k=1e9 --json
cp "$tmp/out" "$tmp/impact1"
expect 0 "impact --law hertz --k 1e9 ..." "$CLINK" impact --json --k 1e9 --velocity 1 --mass 1 --law hertz
cmp -s "$tmp/out" "$tmp/impact1" && ok "impact: --opt=VALUE and --opt VALUE agree" || bad "impact outputs differ"
expect 0 "calibrate --target=0.5 --param=..." "$CLINK" calibrate --law=flores --target=0.5 --mass=1 \
    --velocity=1 --k=1e9 --json

# errors name the option, exit 2
expect 2 "unknown long option" "$CLINK" run "$pend" --t-ned 1
says "unknown long option named" "run: unknown option '--t-ned'"
expect 2 "unknown long option with =" "$CLINK" run "$pend" --t-ned=1
says "unknown option named without its value" "unknown option '--t-ned'"
expect 2 "no abbreviations" "$CLINK" run "$pend" --t 1
expect 2 "unknown short option" "$CLINK" run "$pend" -x
says "unknown short option named" "unknown option '-x'"
expect 2 "unknown short option in a group" "$CLINK" run "$pend" -qx
says "unknown short option in a group named" "unknown option '-x' in '-qx'"
expect 2 "missing value" "$CLINK" run "$pend" --t-end
says "missing value named" "run: --t-end needs a value (T)"
expect 2 "missing value of -o" "$CLINK" run "$pend" -o
says "missing value of -o named" "run: -o needs a value (DIR)"
expect 2 "empty value after =" "$CLINK" run "$pend" --t-end=
says "empty value named" "--t-end: missing value"
expect 2 "bad number after =" "$CLINK" run "$pend" --t-end=abc
says "bad number named" "--t-end: 'abc' is not a finite number"
expect 2 "value given to a flag" "$CLINK" run "$pend" --quiet=1
says "value given to a flag named" "run: --quiet takes no value (got '--quiet=1')"
expect 2 "two model files" "$CLINK" run "$pend" "$pend"
expect 2 "check: unknown option" "$CLINK" check "$pend" --jsn
says "check: unknown option named" "check: unknown option '--jsn'"
expect 2 "laws: an operand" "$CLINK" laws extra
expect 2 "laws: unknown option" "$CLINK" laws --josn
expect 2 "plot: unknown option" "$CLINK" plot "$tmp/a" --out="$tmp/x"
expect 2 "impact: unknown option" "$CLINK" impact --law hertz --mass 1 --velocity 1 --k 1e9 --lop x
says "impact: unknown option named" "impact: unknown option '--lop'"
expect 2 "impact: --analytic=1" "$CLINK" impact --law hertz --mass 1 --velocity 1 --k 1e9 --analytic=1
expect 2 "impact: an operand" "$CLINK" impact --law hertz --mass 1 --velocity 1 --k 1e9 1e9
expect 2 "calibrate: --loop is impact's" "$CLINK" calibrate --law flores --target 0.5 --mass 1 --velocity 1 --k 1e9 --loop x
expect 0 "--help after other options" "$CLINK" run "$pend" --t-end 1 --help
grep -q "^usage: clink run" "$tmp/out" || bad "run --help: no usage on stdout"
for c in check run plot animate laws impact calibrate; do
    "$CLINK" "$c" --help >"$tmp/help" 2>&1 || bad "$c --help failed"
    grep -q -- "-h, --help" "$tmp/help" || bad "$c --help does not list its options"
    awk 'length > 80 { exit 1 }' "$tmp/help" || bad "$c --help has lines over 80 columns"
done
[ "$fail" = 0 ] && ok "every command's --help lists its options within 80 columns"

# output paths naming an existing file of the other kind: exit 2, nothing written
touch "$tmp/file"
expect 2 "run -o onto a file" "$CLINK" run "$pend" -o "$tmp/file" --t-end 0.01
says "run -o onto a file: message" "output directory $tmp/file: '$tmp/file' exists and is not a directory"
[ -s "$tmp/file" ] && bad "run -o onto a file wrote into it"
expect 2 "run -o under a file" "$CLINK" run "$pend" -o "$tmp/file/sub" --t-end 0.01
expect 2 "plot -o onto a file" "$CLINK" plot "$tmp/a" -o "$tmp/file"
expect 2 "impact --loop onto a directory" "$CLINK" impact --law hertz --mass 1 --velocity 1 --k 1e9 --loop "$tmp"
says "impact --loop onto a directory: message" "--loop $tmp: Is a directory"
ls "$tmp" | grep -q incomplete && bad "--loop onto a directory left a file"
exit $fail
