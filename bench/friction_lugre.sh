#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The cost of the stiff LuGre law in a shipped model at equal accuracy (docs/friction.md,
# "Performance"): models/slider_crank_clearance.xml as shipped (modified Coulomb friction,
# Adams, rtol 1e-9) against the same model with LuGre friction (mu = 0.01, mu_s = 0.015,
# v_s = 1e-3 m/s, sigma0 = 1e5 1/m per newton of normal force, i.e. a bristle stiffness of
# 1e5 N/m at 1 N) integrated by BDF, over 0.01 s.
#
# 1. Accuracy: the error of a run is the largest distance between its journal eccentricity
#    and that of a reference run of the same law and method at rtol 1e-12 over the first
#    HORIZON seconds (default 5e-3: 14 impacts), on the 10 us output grid. The target is
#    the shipped run's error; the LuGre BDF rtol is the loosest of the ladder 1e-8, 3.16e-9,
#    ..., 1e-11 that meets the target robustly (it and every tighter rung meet it). The
#    two LuGre references (Adams and BDF at rtol 1e-12) are compared too: the horizon is
#    only meaningful while they agree well below the target (over 0.01 s they differ by
#    7e-7 m, the size of the target itself: the impacts amplify every difference).
# 2. Cost: the shipped run, LuGre with BDF at the chosen rtol and LuGre with Adams at rtol
#    1e-9, interleaved REPS times (default 5): median wall time of the integration
#    (summary.json), steps, right-hand sides (+ those of Jacobians), the largest energy
#    residual (the balance with the friction work booked). With CALLGRIND=1 the
#    instructions of one `clink run` of each (valgrind --tool=callgrind, whole process),
#    the firm figure on a shared machine.
#   bench/friction_lugre.sh BUILD_DIR [REPS [HORIZON]]
set -euo pipefail
build=$(cd "${1:?usage: bench/friction_lugre.sh BUILD_DIR [REPS [HORIZON]]}" && pwd)
reps=${2:-5}
horizon=${3:-5e-3}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
m="$top/models/slider_crank_clearance.xml"
lugre='<friction type="lugre" mu="0.01" mu_s="0.015" v_s="1e-3" sigma0="1e5"/>'
ladder="1e-8 3.16e-9 1e-9 3.16e-10 1e-10 3.16e-11 1e-11"

# the model with law (coulomb: as shipped, lugre), method and rtol into FILE
variant() {
    local law=$1 method=$2 rtol=$3 out=$4
    if [ "$law" = lugre ]; then
        sed "s|<friction type=\"coulomb\"[^>]*/>|$lugre|" "$m"
    else
        cat "$m"
    fi | sed -e "s|method=\"adams\"|method=\"$method\"|" -e "s|rtol=\"1e-9\"|rtol=\"$rtol\"|" >"$out"
}
run() { "$build/clink" run "$1" -o "$2" --t-end 0.01 --quiet "${@:3}"; }

# 1. accuracy
for c in "coulomb adams 1e-12" "coulomb adams 1e-9" "lugre adams 1e-12" "lugre bdf 1e-12"; do
    set -- $c
    variant "$1" "$2" "$3" "$tmp/$1_$2_$3.xml"
    run "$tmp/$1_$2_$3.xml" "$tmp/acc_$1_$2_$3" --rows grid
done
for r in $ladder; do
    variant lugre bdf "$r" "$tmp/lugre_bdf_$r.xml"
    run "$tmp/lugre_bdf_$r.xml" "$tmp/acc_lugre_bdf_$r" --rows grid
done
rtol=$(python3 - "$tmp" "$horizon" $ladder <<'PY'
import csv, json, sys
tmp, horizon, ladder = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
def ecc(d):
    with open(f"{tmp}/acc_{d}/timeseries.csv") as f:
        r = csv.reader(f)
        h = next(r)
        i, ex, ey = h.index("t [s]"), h.index("rod_slider.ex [m]"), h.index("rod_slider.ey [m]")
        return [(float(x[i]), float(x[ex]), float(x[ey])) for x in r if float(x[i]) <= horizon]
def err(a, b):
    a, b = ecc(a), ecc(b)
    assert [x[0] for x in a] == [x[0] for x in b]
    return max(((p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2) ** 0.5 for p, q in zip(a, b))
target = err("coulomb_adams_1e-9", "coulomb_adams_1e-12")
refs = err("lugre_adams_1e-12", "lugre_bdf_1e-12")
print(f"error over the first {horizon:g} s (largest eccentricity error, m):", file=sys.stderr)
res = json.load(open(f"{tmp}/acc_coulomb_adams_1e-9/summary.json"))["energy_residual_max_abs"]
print(f"  shipped (coulomb, adams, rtol 1e-9): {target:.3e}   (the target; energy residual "
      f"{res:.2e} J)", file=sys.stderr)
print(f"  lugre references, adams against bdf at rtol 1e-12: {refs:.3e}"
      + ("" if refs < 0.2 * target else "   WARNING: not well below the target"), file=sys.stderr)
errs = [err(f"lugre_bdf_{r}", "lugre_bdf_1e-12") for r in ladder]
pick = None
for k, r in enumerate(ladder):
    ok = all(e <= target for e in errs[k:])
    res = json.load(open(f"{tmp}/acc_lugre_bdf_{r}/summary.json"))["energy_residual_max_abs"]
    print(f"  lugre, bdf, rtol {r:>8s}: {errs[k]:.3e}{'   robust' if ok else '         '}"
          f"   (energy residual over 0.01 s {res:.2e} J)", file=sys.stderr)
    if ok and pick is None:
        pick = r
print(pick or ladder[-1])
PY
)
echo "LuGre with BDF at rtol $rtol (equal accuracy)"

# 2. cost
variant coulomb adams 1e-9 "$tmp/shipped.xml"
variant lugre bdf "$rtol" "$tmp/lugre_bdf.xml"
variant lugre adams 1e-9 "$tmp/lugre_adams.xml"
configs="shipped lugre_bdf lugre_adams"
for r in $(seq "$reps"); do
    for c in $configs; do
        run "$tmp/$c.xml" "$tmp/out_${c}_$r"
    done
done
if [ "${CALLGRIND:-0}" = 1 ]; then
    for c in $configs; do
        valgrind --tool=callgrind --callgrind-out-file="$tmp/cg_$c" "$build/clink" run \
            "$tmp/$c.xml" -o "$tmp/cgo_$c" --t-end 0.01 --quiet 2>"$tmp/cg_$c.log"
        grep -o 'refs: *[0-9,]*' "$tmp/cg_$c.log" | tr -d ', ' | cut -d: -f2 >"$tmp/ir_$c"
    done
fi
python3 - "$tmp" "$reps" $configs <<'PY'
import json, os, statistics, sys
tmp, reps, configs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
base = ibase = None
print(f"{'configuration':14s} {'wall (median)':>14s} {'ratio':>6s} {'instructions':>13s} {'ratio':>6s}"
      f" {'steps':>7s} {'rhs':>7s} {'rhs jac':>8s} {'energy residual':>16s}")
for c in configs:
    runs = [json.load(open(f"{tmp}/out_{c}_{r}/summary.json")) for r in range(1, reps + 1)]
    w = statistics.median(d["wall_time"] for d in runs)
    base = base or w
    ir = int(open(f"{tmp}/ir_{c}").read()) if os.path.exists(f"{tmp}/ir_{c}") else None
    ibase = ibase or ir
    d = runs[0]
    irs = f"{ir:13d} {ir / ibase:6.2f}" if ir else f"{'-':>13s} {'-':>6s}"
    print(f"{c:14s} {w:14.3f} {w / base:6.2f} {irs} {d['steps']:7d} {d['rhs_calls']:7d} "
          f"{d['rhs_calls_jacobian']:8d} {d['energy_residual_max_abs']:16.2e}")
PY
