#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The worked study of docs/sweeps.md: the figure of merit of Poursina and Nikravesh
# (2020, Fig. 8), max |e_out - e| over random parameter sets for each target
# restitution e, computed by one `clink sweep`: bench/bench_sweep_poursina.xml (one
# central impact, law poursina-nikravesh) with e on a log grid of 9 values over
# [1e-4, 1] and SETS (default 100) seeded random sets drawn as in the paper's ranges:
# m log-uniform in [1e-5, 1e2] kg, K in [1e5, 1e10] N/m^n, v in [1e-3, 1e2] m/s, n
# uniform in [1, 2]. e_out is the restitution of the impact record (separation speed /
# approach speed). Writes OUTDIR/sweep_poursina.json and, with matplotlib,
# OUTDIR/sweep_poursina.png. Env: CLINK, CLINK_SOURCE_DIR, SETS, JOBS, CLINK_PYTHON.
set -euo pipefail
: "${CLINK:?}" "${CLINK_SOURCE_DIR:?}"
out=${1:-bench-results}
sets=${SETS:-100}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat > study.xml <<XML
<?xml version="1.0" encoding="UTF-8"?>
<sweep model="$CLINK_SOURCE_DIR/bench/bench_sweep_poursina.xml">
  <parameter path="pair[impact].law.e" from="1e-4" to="1" count="9" scale="log"/>
  <random count="$sets" seed="2020">
    <parameter path="body[ball].mass" from="1e-5" to="1e2" scale="log"/>
    <parameter path="pair[impact].law.K" from="1e5" to="1e10" scale="log"/>
    <parameter path="body[ball].vy" from="1e-3" to="1e2" scale="log"/>
    <parameter path="pair[impact].law.n" from="1" to="2"/>
  </random>
  <collect quantities="impacts restitution steps"/>
</sweep>
XML
t0=$(date +%s.%N)
"$CLINK" sweep study.xml -o study -q ${JOBS:+-j "$JOBS"} || [ $? -eq 1 ]
t1=$(date +%s.%N)
"${CLINK_PYTHON:-python3}" - study/sweep.csv "$out" "$(echo "$t1 - $t0" | bc -l)" "$CLINK" <<'PY'
import csv, json, subprocess, sys
rows = list(csv.DictReader(open(sys.argv[1])))
out, elapsed = sys.argv[2], float(sys.argv[3])
# the same impacts in the impact laboratory (`clink impact`, its own integrator): the
# first random set at every e
lab_diff = 0.0
sets = len(rows) // 9
for r in rows[::sets]:
    p = subprocess.run([sys.argv[4], "impact", "--law", "poursina-nikravesh",
                        "--mass", r["body[ball].mass"], "--velocity", r["body[ball].vy"],
                        "--k", r["pair[impact].law.K"], "--n", r["pair[impact].law.n"],
                        "--restitution", r["pair[impact].law.e"], "--json"],
                       capture_output=True, text=True, check=True)
    lab_diff = max(lab_diff, abs(json.loads(p.stdout)["e_out"] - float(r["restitution"])))
by_e = {}
bad = []
for r in rows:
    e = float(r["pair[impact].law.e"])
    d = by_e.setdefault(e, {"cases": 0, "ok": 0, "max_abs_error": 0.0, "worst_case": None})
    d["cases"] += 1
    if r["status"] != "ok" or r["impacts"] != "1" or r["restitution"] == "":
        bad.append({k: r[k] for k in ("case", "status", "impacts", "cause")})
        continue
    d["ok"] += 1
    err = abs(float(r["restitution"]) - e)
    if err > d["max_abs_error"]:
        d["max_abs_error"], d["worst_case"] = err, int(r["case"])
res = {
    "study": "Poursina and Nikravesh (2020) Fig. 8: max |e_out - e| over random sets",
    "cases": len(rows), "sets_per_e": len(rows) // len(by_e), "elapsed_s": elapsed,
    "per_e": [dict(e=e, **d) for e, d in sorted(by_e.items())],
    "max_abs_error_e_ge_0.1": max(d["max_abs_error"] for e, d in by_e.items() if e >= 0.1),
    "max_abs_error_all": max(d["max_abs_error"] for d in by_e.values()),
    "cases_not_one_clean_impact": bad[:20], "cases_not_one_clean_impact_count": len(bad),
    "max_abs_difference_to_clink_impact_first_set": lab_diff,
}
json.dump(res, open(out + "/sweep_poursina.json", "w"), indent=2)
print(json.dumps({k: v for k, v in res.items() if k != "per_e"}, indent=2))
for p in res["per_e"]:
    print("e = %-10.4g ok %3d/%3d  max |e_out - e| = %.3e" % (p["e"], p["ok"], p["cases"], p["max_abs_error"]))
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit(0)
es = [p["e"] for p in res["per_e"]]
fig, ax = plt.subplots(figsize=(5.5, 3.6))
ax.semilogx(es, [p["max_abs_error"] for p in res["per_e"]], "o-", label="clink sweep")
ax.set_xlabel("target restitution e")
ax.set_ylabel("max |e_out - e| over %d sets" % res["sets_per_e"])
ax.set_title("Poursina-Nikravesh law: figure of merit (Fig. 8)", fontsize=10)
ax.grid(True, which="both", alpha=0.3)
ax.legend()
fig.tight_layout()
fig.savefig(out + "/sweep_poursina.png", dpi=120)
PY
