#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Throughput of `clink sweep` (docs/sweeps.md, "Figures"): 64 cases of the slider-crank
# with a revolute clearance (clearance x crank mass x slider mass grid, t_end 0.1 s:
# about 0.2 s of CPU per case, so that the queue's cost per case is small beside it) on
# 1 and 2 local processes (-j 1, -j 2) and, when built, under mpirun -n 2; the runs are
# interleaved (REPS rounds of A, B, C) and the medians quoted, with the CPU time of the
# serial sweep (user + system, its children included) and the load average before and
# after (the machine's other work takes cores from the sweep). Then the work-queue cost
# per case: 256 cases of a free flight (t_end 1e-5 s), the sweep's elapsed time minus
# the sum of the cases' own wall times (model load and integration), per case, with the
# journal fsync'd after every row (the default) and at most once a second.
# Writes OUTDIR/sweep.json (default bench-results). Env: CLINK, CLINK_SWEEP_MPI, MPIEXEC,
# CLINK_SOURCE_DIR, REPS (default 3).
set -euo pipefail
: "${CLINK:?}" "${CLINK_SOURCE_DIR:?}"
out=${1:-bench-results}
reps=${REPS:-3}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

cat > cases.xml <<XML
<?xml version="1.0"?>
<sweep model="$CLINK_SOURCE_DIR/models/slider_crank_clearance.xml">
  <parameter path="settings.t_end" values="0.1"/>
  <parameter path="revolute_clearance[rod_slider].clearance" from="1e-4" to="8e-4" count="4" scale="log"/>
  <parameter path="body[crank].mass" values="0.2 0.25 0.3 0.35"/>
  <parameter path="body[slider].mass" values="0.1 0.14 0.18 0.22"/>
</sweep>
XML
cat > cheap.xml <<XML
<?xml version="1.0"?>
<sweep model="$CLINK_SOURCE_DIR/models/ball_drop.xml">
  <parameter path="settings.t_end" values="1e-5"/>
  <parameter path="settings.output_step" values="1e-5"/>
  <parameter path="body[ball].y" from="1" to="2" count="256"/>
</sweep>
XML

now() { date +%s.%N; }
load() { cut -d' ' -f1 /proc/loadavg; }
# the CPU time (user + system, its cases included) of the serial sweep, by GNU time when
# installed (Debian: time)
timed=()
[ ! -x /usr/bin/time ] || timed=(/usr/bin/time -a -o "$tmp/cpu1.txt" -f "%U %S")
# elapsed seconds of one sweep: run NAME ARGS...
run() {
    local name=$1 t0 t1
    shift
    rm -rf "o_$name"
    t0=$(now)
    "$@" -o "o_$name" -q || [ $? -eq 1 ]
    t1=$(now)
    echo "$t1 - $t0" | bc -l
}
load0=$(load)
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

: > j1.txt; : > j2.txt; : > mpi2.txt; : > cpu1.txt
for _ in $(seq 1 "$reps"); do
    run j1 "${timed[@]}" "$CLINK" sweep cases.xml -j 1 >> j1.txt
    run j2 "$CLINK" sweep cases.xml -j 2 >> j2.txt
    if [ -n "${CLINK_SWEEP_MPI:-}" ]; then
        run mpi2 "${MPIEXEC:-mpirun}" -n 2 "$CLINK_SWEEP_MPI" cases.xml >> mpi2.txt
    fi
done
# the three tables agree (wall_time left out)
strip() { sed 's/,[^,]*$//' "$1"; }
cmp <(strip o_j1/sweep.csv) <(strip o_j2/sweep.csv)
[ -z "${CLINK_SWEEP_MPI:-}" ] || cmp <(strip o_j1/sweep.csv) <(strip o_mpi2/sweep.csv)
ok=$(grep -c ',ok,' o_j1/sweep.csv)
load1=$(load)
cpu1=$( [ -s cpu1.txt ] && awk '{print $1 + $2}' cpu1.txt | median || echo null)
t1=$(median < j1.txt); t2=$(median < j2.txt)
tm=$( [ -s mpi2.txt ] && median < mpi2.txt || echo null)

# work-queue cost per case: elapsed - sum of the cases' wall times, over 256 cheap cases
: > q1.txt; : > qm.txt; : > qs.txt
for _ in $(seq 1 "$reps"); do
    e=$(run q1 "$CLINK" sweep cheap.xml -j 1)
    s=$(awk -F, 'NR > 1 {s += $NF} END {printf "%.9f", s}' o_q1/sweep.csv)
    echo "($e - $s) / 256" | bc -l >> q1.txt
    # the journal fsync'd at most once a second instead of after every row
    e=$(run qs "$CLINK" sweep cheap.xml -j 1 --sync-interval 1)
    s=$(awk -F, 'NR > 1 {s += $NF} END {printf "%.9f", s}' o_qs/sweep.csv)
    echo "($e - $s) / 256" | bc -l >> qs.txt
    if [ -n "${CLINK_SWEEP_MPI:-}" ]; then
        e=$(run qm "${MPIEXEC:-mpirun}" -n 2 "$CLINK_SWEEP_MPI" cheap.xml)
        s=$(awk -F, 'NR > 1 {s += $NF} END {printf "%.9f", s}' o_qm/sweep.csv)
        # two ranks work at once: the elapsed time is shared by two workers
        echo "(2 * $e - $s) / 256" | bc -l >> qm.txt
    fi
done
q1=$(median < q1.txt)
qs=$(median < qs.txt)
qm=$( [ -s qm.txt ] && median < qm.txt || echo null)
incase=$(awk -F, 'NR > 1 {s += $NF; n++} END {printf "%.9f", s / n}' o_q1/sweep.csv)

LOAD="$load0 $load1 $(load)" CPU1="$cpu1" python3 - "$t1" "$t2" "$tm" "$q1" "$qm" "$incase" "$ok" "$reps" "$out/sweep.json" "$qs" <<'PY'
import json, os, sys
t1, t2 = float(sys.argv[1]), float(sys.argv[2])
tm = None if sys.argv[3] == "null" else float(sys.argv[3])
q1 = float(sys.argv[4]); qm = None if sys.argv[5] == "null" else float(sys.argv[5])
r = {
    "benchmark": "clink sweep: 64 slider-crank clearance cases (t_end 0.1 s)",
    "load_average_1min_start_mid_end": [float(x) for x in os.environ["LOAD"].split()],
    "cpu_s_serial_sweep": None if os.environ["CPU1"] == "null" else float(os.environ["CPU1"]),
    "cases": 64, "cases_ok": int(sys.argv[7]), "repetitions": int(sys.argv[8]),
    "elapsed_median_s": {"j1": t1, "j2": t2, "mpirun_n2": tm},
    "throughput_cases_per_s": {"j1": 64 / t1, "j2": 64 / t2,
                               "mpirun_n2": None if tm is None else 64 / tm},
    "speedup_over_j1": {"j2": t1 / t2, "mpirun_n2": None if tm is None else t1 / tm},
    "queue_cost_per_case_s": {"j1": q1, "j1_sync_interval_1s": float(sys.argv[10]),
                              "mpirun_n2": qm},
    "cheap_case_own_wall_time_s": float(sys.argv[6]),
}
json.dump(r, open(sys.argv[9], "w"), indent=2)
print(json.dumps(r, indent=2))
PY
