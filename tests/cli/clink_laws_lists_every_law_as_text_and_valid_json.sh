#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink laws` lists every law of the catalogue; `clink laws --json` is valid JSON
# whose "laws" array holds each of them with the fields the docs promise; an
# unknown option exits 2.
set -u
fail=0
names="hertz kelvin-voigt anagnostopoulos ristow lee-herrmann hunt-crossley
herbert-mcwhannell lee-wang lankarani-nikravesh gonthier gonthier-exact
zhiying-qishao flores hu-guo gharib-hurmuzlu kuwabara-kono tsuji power-law-tsuji
jankowski schwager-poschel hertz-linear-damper poursina-nikravesh"
out=$("$CLINK" laws) || { echo "FAIL clink laws exit $?"; fail=1; }
for n in $names; do
    grep -q "^$n[ :]" <<<"$out" || { echo "FAIL text lacks $n"; fail=1; }
done
json=$("$CLINK" laws --json) || { echo "FAIL clink laws --json exit $?"; fail=1; }
python3 -c 'import json,sys; json.load(sys.stdin)' <<<"$json" || { echo "FAIL invalid JSON"; fail=1; }
python3 -c '
import json, sys
d = json.load(sys.stdin)
want = sys.argv[1].split()
got = {l["name"]: l for l in d["laws"]}
bad = 0
for n in want:
    if n not in got:
        print("FAIL json lacks", n); bad = 1; continue
    l = got[n]
    for k in ("aliases", "title", "formula", "damping", "required", "optional",
              "separation", "can_pull", "n", "m", "reference"):
        if k not in l:
            print("FAIL", n, "lacks", k); bad = 1
    if not isinstance(l["can_pull"], bool):
        print("FAIL", n, "can_pull not a boolean"); bad = 1
for k in ("K", "e", "chi", "c", "v_ref"):
    if k not in d["units"]:
        print("FAIL units lacks", k); bad = 1
print("ok   json lists", len(want), "laws" if not bad else "")
sys.exit(bad)
' "$names" <<<"$json" || fail=1
"$CLINK" laws --bogus >/dev/null 2>/tmp/clink_laws_err.$$
st=$?
[ "$st" = 2 ] || { echo "FAIL unknown option exit $st, expected 2"; fail=1; }
[ "$(wc -l </tmp/clink_laws_err.$$)" = 1 ] || { echo "FAIL unknown option: not one line"; fail=1; }
rm -f /tmp/clink_laws_err.$$
exit $fail
