#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The man pages and the bash completion are made by clink from the option
# tables its --help lists: a page per command (clink.1, clink-CMD.1) with the
# man(7) sections, every option of `clink CMD --help` in the page and in the
# completion, the pages the build wrote equal to `clink help --man CMD`, each
# renders without a warning (groff, when installed); the completion offers the
# commands, each command's options and, after --law, the laws `clink laws`
# lists. -V is --version.
set -u
. "$CLINK_SOURCE_DIR/tests/cli/checks.bash"

expect 0 "-V" "$CLINK" -V
cp "$tmp/out" "$tmp/v"
expect 0 "--version" "$CLINK" --version
cmp -s "$tmp/out" "$tmp/v" && ok "-V prints what --version does" || bad "-V differs from --version"

commands=$("$CLINK" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 {print $1}')
[ "$(echo $commands | wc -w)" -ge 8 ] || bad "fewer than 8 commands in clink --help: $commands"
expect 0 "help --man-pages" "$CLINK" help --man-pages "$tmp"
[ -f "$tmp/clink.1" ] || bad "no clink.1"
for c in $commands; do
    grep -qF "\\fBclink\\-$c\\fR(1)" "$tmp/clink.1" || bad "clink.1 does not name clink-$c(1)"
done

# the long options of a help text ("--t-end", ...) and of a page ("\fB\-\-t\-end\fR")
help_options() { "$CLINK" "$1" --help | grep -o -- '^ *\(-., \)\?--[a-z][a-z0-9-]*' | sed 's/.*--//' | sort -u; }
page_options() { grep -o '^\\fB\\-\\-[a-z][a-z0-9\\-]*\\fR\|^\\fB\\-.\\fR, \\fB\\-\\-[a-z][a-z0-9\\-]*\\fR' "$1" |
    sed 's/.*\\fB\\-\\-//; s/\\fR$//; s/\\-/-/g' | sort -u; }
for c in $commands; do
    page="$tmp/clink-$c.1"
    [ -f "$page" ] || { bad "no clink-$c.1"; continue; }
    for s in '.TH CLINK\-' '.SH NAME' '.SH SYNOPSIS' '.SH OPTIONS' '.SH SEE ALSO'; do
        grep -qF -- "$s" "$page" || bad "clink-$c.1 lacks '$s'"
    done
    help_options "$c" > "$tmp/h"
    page_options "$page" > "$tmp/p"
    [ -s "$tmp/h" ] && cmp -s "$tmp/h" "$tmp/p" && ok "clink-$c.1 lists the options of clink $c --help" ||
        { bad "clink-$c.1 and clink $c --help list different options"; diff "$tmp/h" "$tmp/p"; }
    "$CLINK" help --man "$c" | cmp -s - "$page" || bad "clink help --man $c differs from --man-pages"
    built="$CLINK_BINARY_DIR/man/man1/clink-$c.1"
    [ -f "$built" ] && cmp -s "$built" "$page" && ok "the build's clink-$c.1 is current" ||
        bad "the build's $built is missing or differs from clink help --man $c"
    if command -v groff >/dev/null; then
        warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
        [ -z "$warn" ] && ok "clink-$c.1 renders without warnings" || bad "groff on clink-$c.1: $warn"
        groff -man -Tutf8 "$page" 2>/dev/null | sed 's/.\x08//g' | grep -qF -- "--help" ||
            bad "the rendered clink-$c.1 does not show --help"
    fi
done
expect 2 "help --man of an unknown command" "$CLINK" help --man rnu
expect 0 "help run" "$CLINK" help run
grep -q "^usage: clink run" "$tmp/out" && ok "clink help run is clink run --help" || bad "clink help run"

# the completion
expect 0 "help --completion" "$CLINK" help --completion "$tmp/completion"
cmp -s "$tmp/completion" "$CLINK_BINARY_DIR/completion/clink" && ok "the build's completion is current" ||
    bad "the build's completion/clink is missing or differs"
complete_words() { # the words of the command line; the last one is completed
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _clink; echo "${COMPREPLY[*]}"' \
        _ "$tmp/completion" "$@"
}
got=$(complete_words clink "")
for c in $commands; do
    [[ " $got " == *" $c "* ]] || bad "the completion of 'clink ' lacks $c: $got"
done
[ "$(complete_words clink ru)" = run ] && ok "'clink ru' completes to run" || bad "'clink ru': $(complete_words clink ru)"
got=$(complete_words clink impact --law hunt-c)
[ "$got" = hunt-crossley ] && ok "--law hunt-c completes to hunt-crossley" || bad "--law hunt-c: '$got'"
n_laws=$("$CLINK" laws --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["laws"]))')
[ "$(complete_words clink calibrate --law "" | wc -w)" = "$n_laws" ] &&
    ok "--law offers the $n_laws laws of clink laws" || bad "--law does not offer the $n_laws laws"
for c in $commands; do
    got=$(complete_words clink "$c" --)
    for o in $(help_options "$c"); do
        [[ " $got " == *" --$o "* ]] || bad "the completion of 'clink $c --' lacks --$o"
    done
done
got=$(complete_words clink run --t-e)
[ "$got" = --t-end ] && ok "'clink run --t-e' completes to --t-end" || bad "'clink run --t-e': '$got'"
exit $fail
