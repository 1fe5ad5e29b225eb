#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bench_wear.sh CLINK [CYCLES]: the life simulation of models/slider_crank_wear.xml
# (docs/wear.md, "Performance"). Times `clink wear --cycles CYCLES` (default 1e5: the
# target is under 10 minutes on the 2-core machine) and measures the extrapolation error
# over 1000 cycles: one update of f = 1000 from 2, 10 and 100 observed cycles against
# observing all 1000 (no extrapolation), as the worn volume and the bore's profile (the
# life grid's low-pass at 36 knots) relative to the deepest point.
set -eu
clink=${1:?usage: bench_wear.sh CLINK [CYCLES]}
cycles=${2:-100000}
src=$(cd "$(dirname "$0")/.." && pwd)
m="$src/models/slider_crank_wear.xml"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/time -f "clink wear --cycles $cycles: %e s wall, %U s user" \
    "$clink" wear "$m" --cycles "$cycles" -o "$tmp/life" -q
tail -n 1 "$tmp/life/wear_updates.csv"
for o in 2 10 100 1000; do
    "$clink" wear "$m" --cycles 1000 --observe "$o" -o "$tmp/o$o" -q
done
python3 - "$tmp" <<'PY'
import csv, math, sys
d = sys.argv[1]
def last(o):
    rows = [r for r in csv.reader(open(f"{d}/o{o}/wear_profile.csv")) if len(r) > 3 and r[3] == "bore"]
    g = [float(x) for x in rows[-1][5:]]
    n, k = len(g), 36
    out = []
    for j in range(k):  # the Hann low-pass of clink_wear_smooth
        c, D, s, w = 2 * math.pi * j / k, 2 * math.pi / k, 0.0, 0.0
        for i in range(n):
            x = math.remainder((i + 0.5) * 2 * math.pi / n - c, 2 * math.pi)
            if abs(x) < D:
                wt = 0.5 * (1 + math.cos(math.pi * x / D)); s += wt * g[i]; w += wt
        out.append(s / w)
    return sum(g), out
ref_v, ref = last(1000)
for o in (2, 10, 100):
    v, p = last(o)
    print(f"observe {o:4d} of 1000 cycles: volume {v / ref_v - 1:+.3f}, profile "
          f"{max(abs(a - b) for a, b in zip(p, ref)) / max(ref):.3f} of the deepest point")
PY
