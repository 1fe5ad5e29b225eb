#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Peak resident memory and output size of `clink run` with the defaults on the Hertz
# granular chain of N beads (validation/make_granular_chain.py with its <settings>
# replaced by t_end = output_step = T and its <output> removed: the run a new user
# makes, two grid rows), for each N given; docs/performance.md, "The user's path".
# Prints one line per N: N, peak RSS (MB, /usr/bin/time -v), the output directory's
# size (MB), the rows written, the row mode chosen, CPU seconds (user + system).
# Usage: bench/run_memory.sh CLINK [T] [N...]   (default T = 1e-3 s, N = 100 700 1000 2000 10000)
set -eu
clink=${1:?usage: run_memory.sh CLINK [T] [N...]}
t_end=${2:-1e-3}
shift $(($# > 1 ? 2 : 1))
ns=${*:-100 700 1000 2000 10000}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%6s %9s %9s %7s %6s %7s\n' N rss_MB out_MB rows mode cpu_s
for n in $ns; do
    mkdir -p "$tmp/g$n"
    python3 "$top/validation/make_granular_chain.py" "$tmp/g$n" "$n"
    sed -e "s|<settings [^>]*/>|<settings t_end=\"$t_end\" output_step=\"$t_end\"/>|" \
        -e '/<output rows="grid"\/>/d' "$tmp/g$n/granular_chain.xml" >"$tmp/chain$n.xml"
    /usr/bin/time -v "$clink" run "$tmp/chain$n.xml" -o "$tmp/out$n" -q 2>"$tmp/time$n" || true
    rss=$(awk -F: '/Maximum resident set size/ {print $2 / 1024}' "$tmp/time$n")
    cpu=$(awk -F: '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$tmp/time$n")
    out=$(du -sk "$tmp/out$n" | awk '{print $1 / 1024}')
    rows=$(grep -o '"output_rows": [0-9]*' "$tmp/out$n/summary.json" | awk '{print $2}')
    mode=$(grep -o '"row_mode": "[a-z]*"' "$tmp/out$n/summary.json" | awk -F'"' '{print $4}')
    printf '%6d %9.1f %9.1f %7s %6s %7.2f\n' "$n" "$rss" "$out" "$rows" "$mode" "$cpu"
    rm -rf "$tmp/out$n" "$tmp/g$n"
done
