#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink run --format FMT` reads FMT through the library's table of output formats
# (clink_output_format_from_name, src/output/output_writers.c), so that a format
# added there needs no edit of the command: the command spells no format name of
# its own (before, cmd_run.c kept its own {"csv", "hdf5"}); the formats listed by a
# refused --format and by `clink run --help` are the same list; each of them is
# accepted and is the "output_format" of summary.json (or, in a build without
# HDF5, refused with the reason and exit 2); the default is listed first.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
model=$CLINK_SOURCE_DIR/models/pendulum.xml

# the command's sources name no format: the names can only come from the table
hits=$(grep -nE '"(csv|hdf5)"' "$CLINK_SOURCE_DIR"/src/cli/*.c)
[ -z "$hits" ] || bad "src/cli spells format names of its own: $hits"

# the list a refused name gives, and the help's
"$CLINK" run "$model" --format no-such-format -o "$tmp/x" 2>"$tmp/err"
status=$?
[ "$status" = 2 ] || bad "--format no-such-format: exit $status, expected 2"
list=$(sed -n "s/^clink: run: --format 'no-such-format': one of \(.*\)\$/\1/p" "$tmp/err")
[ -n "$list" ] || { bad "refusal message"; cat "$tmp/err"; }
[ ! -e "$tmp/x" ] || bad "a refused --format created the output directory"
"$CLINK" run --help >"$tmp/help" || bad "run --help"
grep -qxF "Formats (--format): $list; the default: csv." "$tmp/help" ||
    { bad "the help does not list the formats '$list'"; grep Formats "$tmp/help"; }
case "$list" in csv,*) ;; *) bad "the default csv is not listed first: $list" ;; esac
case "$list" in *hdf5*) ;; *) bad "hdf5 not listed: $list" ;; esac

# every listed format is accepted and named in summary.json
IFS=', ' read -r -a names <<<"$list"
for f in "${names[@]}"; do
    d=$tmp/$f
    "$CLINK" run "$model" --format "$f" -o "$d" --t-end 0.01 --quiet 2>"$tmp/err"
    status=$?
    if [ "$status" = 2 ] && grep -q "built without" "$tmp/err"; then
        echo "ok   --format $f: not in this build ($(cat "$tmp/err"))"
        continue
    fi
    [ "$status" = 0 ] || { bad "--format $f: exit $status"; cat "$tmp/err"; continue; }
    grep -q "\"output_format\": \"$f\"" "$d/summary.json" ||
        bad "--format $f: summary.json says $(grep output_format "$d/summary.json")"
    echo "ok   --format $f: summary.json output_format $f"
done
exit $fail
