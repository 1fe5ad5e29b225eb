#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink laws --friction` lists every law of the friction catalogue with whether it can
# hold static friction; `--friction --json` is valid JSON whose "friction_laws" array
# holds each with the fields docs/cli.md promises and the units of every parameter.
set -u
fail=0
names="none coulomb coulomb-ramp coulomb-tanh stribeck lugre dahl stribeck-tanh"
out=$("$CLINK" laws --friction) || { echo "FAIL clink laws --friction exit $?"; fail=1; }
for n in $names; do
    grep -q "^$n[ :]" <<<"$out" || { echo "FAIL text lacks $n"; fail=1; }
done
[ "$(grep -c '^  sticking ' <<<"$out")" = "$(wc -w <<<"$names")" ] || { echo "FAIL a law lacks its sticking line"; fail=1; }
json=$("$CLINK" laws --friction --json) || { echo "FAIL --friction --json exit $?"; fail=1; }
python3 -c '
import json, sys
d = json.load(sys.stdin)
want = sys.argv[1].split()
got = {l["name"]: l for l in d["friction_laws"]}
bad = 0
for n in want:
    if n not in got:
        print("FAIL json lacks", n); bad = 1; continue
    for k in ("aliases", "title", "formula", "required", "optional", "sticking", "reset",
              "reference", "states"):
        if k not in got[n]:
            print("FAIL", n, "lacks", k); bad = 1
if got.get("lugre", {}).get("states") != 1 or got.get("coulomb", {}).get("states") != 0:
    print("FAIL states"); bad = 1
for k in ("mu", "mu_s", "v0", "v1", "v_s", "delta", "sigma0", "sigma1", "sigma2"):
    if k not in d["units"]:
        print("FAIL units lacks", k); bad = 1
print("ok   json lists", len(want), "friction laws" if not bad else "")
sys.exit(bad)
' "$names" <<<"$json" || fail=1
exit $fail
