#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The size and opening time of `clink view`'s page for the two largest runs it is
# meant for: the 700-bead granular chain (t_end = 2RN / 730 m/s, the wave's full
# window, output step 1 us, --format hdf5: 9827 columns) and a 0.1 s run of the
# clearance slider-crank (every event row). Opening time: from the first line of the
# page's script to the end of its first drawing, reported by the page itself
# (#test: "load_ms"), in headless Chromium, median of 5 loads; and the wall time of
# the whole browser process for the same loads (the parse of the page included).
# usage: bench/bench_view.sh [BUILD] [OUT]   (default build, /tmp/clink-bench-view)
set -euo pipefail
build=${1:-build}
out=${2:-/tmp/clink-bench-view}
src=$(cd "$(dirname "$0")/.." && pwd)
py=${CLINK_PYTHON:-/usr/bin/python3}
export CLINK_PYTHON=$py
browser=$(command -v chromium || command -v chromium-browser)
mkdir -p "$out"
"$py" "$src/validation/make_granular_chain.py" "$out" 700 >/dev/null
t_end=$("$py" -c "print(2 * 2.38e-3 * 700 / 730)")
"$build/clink" run "$out/granular_chain.xml" -o "$out/chain700" --t-end "$t_end" \
    --format hdf5 --quiet
"$build/clink" run "$src/models/slider_crank_clearance.xml" -o "$out/scc" --t-end 0.1 --quiet
for case in chain700 scc; do
    /usr/bin/time -f "%e" -o "$out/$case.gen" "$build/clink" view "$out/$case" -o "$out/$case.html" >/dev/null
    loads=() walls=()
    for i in 1 2 3 4 5; do
        s=$(date +%s.%N)
        ms=$(timeout 300 "$browser" --headless --no-sandbox --disable-gpu --window-size=1200,1600 \
            --virtual-time-budget=4000 --dump-dom "file://$out/$case.html#test" 2>/dev/null |
            sed -n 's/.*"load_ms":\([0-9.]*\).*/\1/p')
        e=$(date +%s.%N)
        loads+=("$ms")
        walls+=("$("$py" -c "print($e - $s)")")
    done
    "$py" - "$case" "$out/$case.html" "$(cat "$out/$case.gen")" "${loads[*]}" "${walls[*]}" <<'PY'
import os, statistics, sys
case, page, gen, loads, walls = sys.argv[1:6]
loads = [float(x) for x in loads.split()]
walls = [float(x) for x in walls.split()]
print(f"{case}: page {os.path.getsize(page) / 1e6:.1f} MB written in {float(gen):.1f} s; "
      f"open (script start to first drawing) median {statistics.median(loads):.0f} ms "
      f"[{min(loads):.0f}, {max(loads):.0f}]; browser process median "
      f"{statistics.median(walls):.2f} s")
PY
done
