#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The cost of the stiff LuGre law in a shipped model (docs/friction.md, "Performance"):
# models/slider_crank_clearance.xml (modified Coulomb, Adams, rtol 1e-9) against the same
# model with LuGre friction (mu = 0.01, mu_s = 0.015, v_s = 1e-3 m/s, sigma0 = 1e5 1/m per
# newton of normal force, i.e. a bristle stiffness of 1e5 N/m at 1 N) integrated by BDF
# at rtol 1e-9 and 1e-10, over 0.01 s. Runs interleaved REPS times (default 5); prints per
# configuration the median wall time of the integration (summary.json), the steps, the
# right-hand sides (plus those of Jacobians) and the largest energy residual (the accuracy
# proxy: the balance with the friction work booked).
#   bench/friction_lugre.sh BUILD_DIR [REPS]
set -euo pipefail
build=$(cd "${1:?usage: bench/friction_lugre.sh BUILD_DIR [REPS]}" && pwd)
reps=${2:-5}
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
m="$top/models/slider_crank_clearance.xml"
lugre='<friction type="lugre" mu="0.01" mu_s="0.015" v_s="1e-3" sigma0="1e5"/>'
cp "$m" "$tmp/coulomb_adams.xml"
sed "s|<friction type=\"coulomb\"[^>]*/>|$lugre|" "$m" >"$tmp/lugre_adams.xml"
sed 's|method="adams"|method="bdf"|' "$tmp/lugre_adams.xml" >"$tmp/lugre_bdf9.xml"
sed 's|rtol="1e-9"|rtol="1e-10"|' "$tmp/lugre_bdf9.xml" >"$tmp/lugre_bdf10.xml"
configs="coulomb_adams lugre_adams lugre_bdf9 lugre_bdf10"
for r in $(seq "$reps"); do
    for c in $configs; do
        "$build/clink" run "$tmp/$c.xml" -o "$tmp/out_${c}_$r" --t-end 0.01 --quiet
    done
done
python3 - "$tmp" "$reps" $configs <<'PY'
import json, statistics, sys
tmp, reps, configs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
base = None
print(f"{'configuration':16s} {'wall (median)':>14s} {'ratio':>6s} {'steps':>7s} {'rhs':>7s} {'rhs jac':>8s} {'energy residual':>16s}")
for c in configs:
    runs = [json.load(open(f"{tmp}/out_{c}_{r}/summary.json")) for r in range(1, reps + 1)]
    w = statistics.median(d["wall_time"] for d in runs)
    base = base or w
    d = runs[0]
    print(f"{c:16s} {w:14.3f} {w / base:6.2f} {d['steps']:7d} {d['rhs_calls']:7d} "
          f"{d['rhs_calls_jacobian']:8d} {d['energy_residual_max_abs']:16.2e}")
PY
