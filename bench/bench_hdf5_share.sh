#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# What writing results.h5 costs a long run (docs/outputs.md, "Cost of writing"): the
# N-bead granular chain (validation/make_granular_chain.py, elastic Hertz; N = 700:
# 9827 columns) over T_END (1 ms), 1 us grid, for each row mode of ROWS (grid, events).
#
# 1. Wall and CPU time (user + system) of REPS interleaved rounds (default 5, medians
#    quoted) of four runs: hdf5 (the writer thread), hdf5-sync (CLINK_BENCH_H5_SYNC=1,
#    the synchronous writer: a benchmark switch only), csv (the same rows as text: the
#    run without HDF5), and none (--output-step T_END: two rows, nothing large written;
#    not the same integration, as the grid's stops shape CVODE's steps, and none of the
#    rows' own computation, so hdf5 / none bounds what all the output costs, not the
#    writer alone). Ratios: hdf5 / csv, hdf5 / hdf5-sync, hdf5 / none (wall), and CPU
#    (user + system, both threads) hdf5 / hdf5-sync. On a machine whose cores are taken
#    by other work the writer thread finds no idle core: the wall times then say little
#    (the load average is printed).
# 2. With CALLGRIND=1 (default; 0 skips it, it takes minutes): instruction counts per
#    thread (valgrind --tool=callgrind --separate-threads=yes) of the hdf5 run and the
#    hdf5-sync run: the integrating thread's share spent in output_h5_* (inclusive:
#    copying rows, handing blocks over, the last block and the closing in finish), the
#    writer thread's instructions, and both threads' together against the synchronous
#    run's.
# Usage: bench/bench_hdf5_share.sh [OUTDIR] (writes OUTDIR/hdf5_share.txt, default
# bench-results). Env: CLINK (the clink binary), CLINK_SOURCE_DIR, N, T_END, ROWS, REPS,
# CALLGRIND, PYTHON (default /usr/bin/python3).
set -euo pipefail
: "${CLINK:?}" "${CLINK_SOURCE_DIR:?}"
out=${1:-bench-results}
n=${N:-700}
t_end=${T_END:-1e-3}
rows_modes=${ROWS:-grid events}
reps=${REPS:-5}
callgrind=${CALLGRIND:-1}
py=${PYTHON:-/usr/bin/python3}
mkdir -p "$out"
out=$(cd "$out" && pwd)
clink=$(cd "$(dirname "$CLINK")" && pwd)/$(basename "$CLINK")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$py" "$CLINK_SOURCE_DIR/validation/make_granular_chain.py" "$tmp" "$n" >/dev/null
model=$tmp/granular_chain.xml

{
echo "# bench_hdf5_share: $n-bead chain, t_end $t_end, $(nproc) cores," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
for rows in $rows_modes; do
    echo "## rows $rows"
    # 1. interleaved wall and CPU times
    "$py" - "$clink" "$model" "$t_end" "$rows" "$reps" "$tmp" <<'PY'
import os, statistics, subprocess, sys, time

clink, model, t_end, rows, reps, tmp = sys.argv[1:7]
base = [clink, "run", model, "--t-end", t_end, "--rows", rows, "--quiet", "--no-timing"]
runs = {
    "hdf5": (["--format", "hdf5"], {}),
    "hdf5-sync": (["--format", "hdf5"], {"CLINK_BENCH_H5_SYNC": "1"}),
    "csv": (["--format", "csv"], {}),
    "none": (["--format", "csv", "--output-step", t_end], {}),
}
wall = {k: [] for k in runs}
cpu = {k: [] for k in runs}
for r in range(int(reps)):
    for k, (args, env) in runs.items():
        e = dict(os.environ)
        e.pop("CLINK_BENCH_H5_SYNC", None)
        e.update(env)
        t0 = time.perf_counter()
        p = subprocess.Popen(base + args + ["-o", os.path.join(tmp, "o_" + k)], env=e)
        _, status, ru = os.wait4(p.pid, 0)
        wall[k].append(time.perf_counter() - t0)
        cpu[k].append(ru.ru_utime + ru.ru_stime)
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("clink run (%s) failed" % k)
med = {k: (statistics.median(wall[k]), statistics.median(cpu[k])) for k in runs}
for k in runs:
    print("%-10s wall %7.3f s  cpu %7.3f s  (medians of %s; wall %s)"
          % (k, med[k][0], med[k][1], reps, " ".join("%.2f" % w for w in wall[k])))
print("wall hdf5 / none      %.3f" % (med["hdf5"][0] / med["none"][0]))
print("wall hdf5 / csv       %.3f" % (med["hdf5"][0] / med["csv"][0]))
print("wall hdf5 / hdf5-sync %.3f" % (med["hdf5"][0] / med["hdf5-sync"][0]))
print("wall hdf5-sync / none %.3f" % (med["hdf5-sync"][0] / med["none"][0]))
print("cpu  hdf5 / hdf5-sync %.3f" % (med["hdf5"][1] / med["hdf5-sync"][1]))
PY
    # 2. instructions per thread
    if [ "$callgrind" = 1 ]; then
        for mode in thread sync; do
            rm -rf "$tmp/cg_$mode" "$tmp/o_cg"
            mkdir -p "$tmp/cg_$mode"
            env $([ "$mode" = sync ] && echo CLINK_BENCH_H5_SYNC=1) \
                valgrind --tool=callgrind --separate-threads=yes \
                --callgrind-out-file="$tmp/cg_$mode/cg" \
                "$clink" run "$model" --t-end "$t_end" --rows "$rows" --format hdf5 \
                --quiet --no-timing -o "$tmp/o_cg" 2>"$tmp/cg_$mode/log"
        done
        "$py" - "$tmp" <<'PY'
import glob, os, re, subprocess, sys

tmp = sys.argv[1]

def profile(path):
    """total instructions of one thread's file and the inclusive cost of output_h5_*"""
    total = None
    with open(path) as f:
        for line in f:
            if line.startswith("totals:") or line.startswith("summary:"):
                total = int(line.split()[1])
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", "--auto=no",
                           path],
                          capture_output=True, text=True, check=True).stdout
    h5 = 0
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \(.*\)\s+\S*:output_h5_(row|create|finish|abandon) \[", line)
        if m:
            h5 += int(m.group(1).replace(",", ""))
    return total, h5

for mode in ("thread", "sync"):
    files = sorted(glob.glob(os.path.join(tmp, "cg_" + mode, "cg-*")))
    res = [profile(p) for p in files]
    main_total, main_h5 = res[0]
    others = sum(t for t, _ in res[1:])
    print("callgrind %-6s threads %d: integrating thread %.4g instructions, output_h5_* %.4g"
          " (%.2f%%); other threads %.4g; all %.4g"
          % (mode, len(res), main_total, main_h5, 100.0 * main_h5 / main_total, others,
             main_total + others))
    if mode == "thread":
        all_thread = main_total + others
    else:
        print("callgrind all threads, writer thread / synchronous: %.3f"
              % (all_thread / (main_total + others)))
PY
    fi
done
} | tee "$out/hdf5_share.txt"
