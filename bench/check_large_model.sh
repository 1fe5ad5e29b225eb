#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Time of `clink check` on a generated mechanism of N free bodies (default
# 100,000; the case where quadratic name lookup took 23 s) and
# N - 1 revolute joints chaining them: medians of 5 runs, wall and CPU seconds. Usage: bench/check_large_model.sh CLINK [N]
set -eu
clink=${1:?usage: check_large_model.sh CLINK [N]}
n=${2:-100000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v n="$n" 'BEGIN {
    print "<mechanism name=\"large\"><bodies>"
    for (i = 0; i < n; i++) printf "<body name=\"b%d\" mass=\"1\" inertia=\"1\" x=\"%d\"/>\n", i, i
    print "</bodies><joints>"
    for (i = 1; i < n; i++) printf "<revolute name=\"j%d\" body1=\"b%d\" body2=\"b%d\" point1=\"0.5 0\" point2=\"-0.5 0\"/>\n", i, i - 1, i
    print "</joints></mechanism>"
}' > "$tmp/large.xml"
# wall and CPU (user + system) seconds of each run; the machine may be shared, so both
walls=() cpus=()
TIMEFORMAT='%R %U %S'
for k in 1 2 3 4 5; do
    t=$( { time "$clink" check "$tmp/large.xml" > /dev/null; } 2>&1 )
    read -r wall user sys <<< "$t"
    walls+=("$wall")
    cpus+=("$(echo "$user + $sys" | bc -l)")
done
med() { printf '%s\n' "$@" | sort -g | sed -n 3p; }
echo "clink check of $n bodies and $((n - 1)) revolute joints: median wall $(med "${walls[@]}") s," \
    "median CPU $(med "${cpus[@]}") s (5 runs)"
