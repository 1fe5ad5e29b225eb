#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The clearance slider-crank's bifurcation diagram against crank speed (docs/nonlinear.md,
# "The clearance slider-crank against crank speed"): SPEEDS crank speeds evenly from 1000 to
# 5000 rpm (models/slider_crank_clearance_bifurcation.xml, the motor's rate zipped with
# t_end), each run for SETTLE + KEPT + 0.5 revolutions, the first SETTLE crossings of the
# Poincare section left out and the journal's eccentricity sampled at the KEPT others:
#   clink sweep (keep_outputs, -j JOBS) then clink bifurcation --settle SETTLE --eccentricity
# The goal: 200 speeds x 100 settled revolutions in under 15 minutes on the 2-core machine.
# Prints the wall time of each step, the CPU time of the sweep (its children's user +
# system), the load average before and after (other work on the machine takes cores from
# the sweep), and the full size's time: measured, or, when run on a fraction (fewer speeds
# or revolutions), extrapolated in proportion to the revolutions run (the cost per
# revolution is nearly the same at every speed: about 10 ms of CPU); beside it the CPU
# time divided by JOBS, the wall time the sweep would take on JOBS idle cores. Writes
# OUTDIR/bifurcation_slider_crank.json
# and keeps the sweep in OUTDIR/bifurcation_slider_crank (bifurcation.csv, bifurcation.svg).
#   bench/bench_bifurcation_slider_crank.sh build/clink [OUTDIR] [SPEEDS] [SETTLE] [KEPT] [JOBS]
# Defaults: bench-results 200 100 100 2.
set -euo pipefail
clink=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-bench-results}
speeds=${3:-200}
settle=${4:-100}
kept=${5:-100}
jobs=${6:-2}
mkdir -p "$out"
out=$(cd "$out" && pwd)
dir="$out/bifurcation_slider_crank"
rm -rf "$dir"
spec="$out/bifurcation_slider_crank.xml"
# the speeds (rad/s) and their t_end (SETTLE + KEPT + 0.5 revolutions)
awk -v n="$speeds" -v r="$((settle + kept))" 'BEGIN {
    pi = atan2(0, -1)
    for (i = 0; i < n; i++) {
        w = (1000 + (n > 1 ? i * 4000 / (n - 1) : 0)) * 2 * pi / 60
        rate = rate sprintf("%s%.9g", i ? " " : "", w)
        tend = tend sprintf("%s%.9g", i ? " " : "", (r + 0.5) * 2 * pi / w)
    }
    print rate > "/dev/stderr"; print tend }' 2>"$out/.rates" >"$out/.tends"
cat >"$spec" <<XML
<?xml version="1.0" encoding="UTF-8"?>
<sweep model="$src/models/slider_crank_clearance_bifurcation.xml" keep_outputs="true">
  <zip>
    <parameter path="driver[motor].linear.rate" values="$(cat "$out/.rates")"/>
    <parameter path="settings.t_end" values="$(cat "$out/.tends")"/>
  </zip>
  <parameter path="settings.output_step" values="0.01"/>
</sweep>
XML
rm -f "$out/.rates" "$out/.tends"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s.%N)
/usr/bin/time -f "%U %S" -o "$out/.cpu" "$clink" sweep "$spec" -o "$dir" -j "$jobs" -q
t1=$(date +%s.%N)
"$clink" bifurcation "$dir" rod_slider.e --settle "$settle" --eccentricity rod:0.06,0:slider:0,0 \
    >"$dir/distinct.txt"
t2=$(date +%s.%N)
load1=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(awk '{ print $1 + $2 }' "$out/.cpu")
rm -f "$out/.cpu"
samples=$(($(wc -l <"$dir/bifurcation.csv") - 1))
awk -v s="$speeds" -v r="$((settle + kept))" -v w1="$(echo "$t1 - $t0" | bc)" \
    -v w2="$(echo "$t2 - $t1" | bc)" -v cpu="$cpu" -v n="$samples" -v l0="$load0" -v l1="$load1" \
    -v j="$jobs" -v out="$out/bifurcation_slider_crank.json" 'BEGIN {
    f = (200 * 200.5) / (s * (r + 0.5))
    full = (w1 + w2) * f
    idle = cpu * f / j + w2 * f
    printf "speeds %d, revolutions %d each (+0.5), jobs %d\n", s, r, j
    printf "sweep: %.1f s wall, %.1f s CPU (%.2f ms of CPU per revolution)\n", w1, cpu, 1e3 * cpu / (s * (r + 0.5))
    printf "bifurcation: %.2f s wall, %d samples\n", w2, n
    printf "load average before: %s, after: %s\n", l0, l1
    printf "200 speeds x 200 revolutions: %.1f s wall (%s); CPU / jobs: %.1f s (the wall time on %d idle cores)\n", full, (s == 200 && r == 200) ? "measured" : "extrapolated", idle, j
    printf "{\"speeds\": %d, \"revolutions\": %d, \"jobs\": %d, \"sweep_wall_s\": %.3f, \"sweep_cpu_s\": %.3f, \"bifurcation_wall_s\": %.3f, \"samples\": %d, \"full_size_s\": %.3f, \"full_size_idle_s\": %.3f, \"full_size_measured\": %s, \"load_before\": \"%s\", \"load_after\": \"%s\"}\n", s, r, j, w1, cpu, w2, n, full, idle, (s == 200 && r == 200) ? "true" : "false", l0, l1 > out }'
echo "$out/bifurcation_slider_crank.json"
