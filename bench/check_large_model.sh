#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Time of `clink check` on a generated mechanism of N free bodies (default
# 100,000; the case where quadratic name lookup took 23 s) and
# N - 1 revolute joints chaining them: medians of 5 runs, wall and CPU seconds.
# With --contacts: N free discs in a row on the x axis, no gravity, a Hertz contact
# between neighbours (N - 1 contacts; the case where the bodies' turning and kept axes,
# found by scanning every contact for each body, made the set-up quadratic: 80.8 s at
# 1e5), the first disc moving at 1 m/s; the peak resident memory is printed too, and
# with --run the time of `clink run` over a window of STEPS ns (max_step 1 ns) on the
# same model, with METHOD adams (the default) or bdf (the Newton matrix and the Jacobian's
# evaluation both in proportion to what couples, docs/performance.md).
# With --joints --run STEPS [METHOD]: the revolute chain hangs from the ground by its
# first body under gravity and is run the same way (bdf: the Newton matrix of a chain,
# docs/performance.md, "Revolute chains").
# Usage: bench/check_large_model.sh CLINK [N] [--contacts|--joints [--run STEPS [METHOD]]]
set -eu
clink=${1:?usage: check_large_model.sh CLINK [N] [--contacts|--joints [--run STEPS [METHOD]]]}
n=${2:-100000}
mode=${3:-joints}
steps=0
[ "${4:-}" = --run ] && steps=${5:?--run STEPS}
method=${6:-adams}
case $method in adams | bdf) ;; *) echo "METHOD: adams or bdf, not $method" >&2; exit 2 ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$mode" = --contacts ]; then
    awk -v n="$n" -v steps="$steps" -v method="$method" 'BEGIN {
        printf "<mechanism name=\"chain\"><settings t_end=\"%g\" output_step=\"%g\" method=\"%s\" drift=\"none\" max_step=\"1e-9\"/>", (steps > 0 ? steps : 1) * 1e-9, (steps > 0 ? steps : 1) * 1e-9, method
        print "<gravity g=\"0 0\"/><materials><material name=\"steel\" E=\"200e9\" nu=\"0.3\" density=\"7800\"/></materials><bodies><ground material=\"steel\"/>"
        for (i = 0; i < n; i++) printf "<body name=\"b%d\" mass=\"0.001\" inertia=\"1e-9\" x=\"%.4f\" vx=\"%d\" material=\"steel\"/>\n", i, i * 0.005, i == 0
        print "</bodies><contacts>"
        for (i = 1; i < n; i++) printf "<pair name=\"c%d\"><circle body=\"b%d\" radius=\"0.0025\"/><circle body=\"b%d\" radius=\"0.0025\"/><law name=\"hertz\"/></pair>\n", i, i - 1, i
        print "</contacts></mechanism>"
    }' > "$tmp/large.xml"
    what="$n discs and $((n - 1)) Hertz contacts"
else
    awk -v n="$n" -v steps="$steps" -v method="$method" 'BEGIN {
        print "<mechanism name=\"large\">"
        if (steps > 0)
            printf "<settings t_end=\"%g\" output_step=\"%g\" method=\"%s\" drift=\"none\" max_step=\"1e-9\"/><gravity g=\"0 -9.81\"/>", steps * 1e-9, steps * 1e-9, method
        print "<bodies>"
        for (i = 0; i < n; i++) printf "<body name=\"b%d\" mass=\"1\" inertia=\"1\" x=\"%d\"/>\n", i, i
        print "</bodies><joints>"
        if (steps > 0) print "<revolute name=\"pin\" body1=\"ground\" body2=\"b0\" point1=\"-0.5 0\" point2=\"-0.5 0\"/>"
        for (i = 1; i < n; i++) printf "<revolute name=\"j%d\" body1=\"b%d\" body2=\"b%d\" point1=\"0.5 0\" point2=\"-0.5 0\"/>\n", i, i - 1, i
        print "</joints></mechanism>"
    }' > "$tmp/large.xml"
    what="$n bodies and $((n - 1)) revolute joints"
    [ "$steps" -gt 0 ] && what="$n bodies and $n revolute joints (the first pinned to the ground)"
fi
# wall and CPU (user + system) seconds of each run, peak memory; the machine may be
# shared, so both times
walls=() cpus=() mems=()
for k in 1 2 3 4 5; do
    t=$(/usr/bin/time -f '%e %U %S %M' "$clink" check "$tmp/large.xml" 2>&1 >/dev/null | tail -n 1)
    read -r wall user sys mem <<< "$t"
    walls+=("$wall")
    cpus+=("$(echo "$user + $sys" | bc -l)")
    mems+=("$mem")
done
med() { printf '%s\n' "$@" | sort -g | sed -n 3p; }
echo "clink check of $what: median wall $(med "${walls[@]}") s," \
    "median CPU $(med "${cpus[@]}") s, peak memory $(($(med "${mems[@]}") / 1024)) MB (5 runs)"
if [ "$steps" -gt 0 ]; then
    t=$(/usr/bin/time -f '%e %U %S %M' "$clink" run "$tmp/large.xml" -o "$tmp/out" -q 2>&1 >/dev/null | tail -n 1)
    read -r wall user sys mem <<< "$t"
    echo "clink run ($method) of $what, $steps ns (max_step 1 ns): wall $wall s, CPU $(echo "$user + $sys" | bc -l) s," \
        "peak memory $((mem / 1024)) MB"
fi
