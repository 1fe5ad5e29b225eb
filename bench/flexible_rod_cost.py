# SPDX-License-Identifier: BSD-3-Clause
"""The flexible-rod slider-crank against the rigid one at the same accuracy (docs/flexible.md,
"Performance"):

    python3 bench/flexible_rod_cost.py BUILD OUT.json [--reps N] [--target M]

Both models over one crank revolution (0.012 s at 5000 rpm): models/slider_crank_clearance.xml
(rigid rod) and models/slider_crank_flexible_rod.xml (the rod a beam of 8 elements). The
accuracy of a run is the largest error of the slider's position over its rows (every 1e-5 s)
against the same model at BDF, rtol 1e-12 (so each model is measured against itself: the
flexible rod's motion is not the rigid rod's). For each model and each method (Adams, BDF)
the ladder rtol 1e-5 .. 1e-10 (atol 1e-3 rtol) gives the robust pick: the loosest rtol at which
it and every tighter rung meet the target (default 1e-5 m); each model's cheaper pick is its
setting. The picks are then timed as library calls (bench_clearance_slider_crank --once:
clink_sim_create and clink_sim_advance, no output), interleaved for N rounds (default 7), and
the medians of CPU time compared. Prints the ladder and the ratio; writes OUT.json.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchlib import atol_of, lib_once, robust, with_settings, write  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = {"rigid": os.path.join(TOP, "models", "slider_crank_clearance.xml"),
          "flexible": os.path.join(TOP, "models", "slider_crank_flexible_rod.xml")}
LADDER = [1e-5, 3e-6, 1e-6, 3e-7, 1e-7, 3e-8, 1e-8, 3e-9, 1e-9, 3e-10, 1e-10]
T_END = 0.012
STEP = 1e-5


def model_text(name, rtol, method):
    with open(MODELS[name]) as f:
        text = f.read()
    return with_settings(text, drop=("method", "rtol", "atol", "t_end", "output_step"),
                         t_end=T_END, output_step=STEP, method=method, rtol=rtol,
                         atol=atol_of(rtol))


def slider_x(build, path, outdir):
    """the slider's x (m) at every grid row of `clink run` PATH"""
    subprocess.run([os.path.join(build, "clink"), "run", path, "-q", "-o", outdir, "--format",
                    "csv", "--rows", "grid"], check=True)
    with open(os.path.join(outdir, "timeseries.csv")) as f:
        head = f.readline().rstrip("\n").split(",")
        col = head.index("slider.x [m]")
        return [float(line.split(",")[col]) for line in f if line.strip()]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    build, out = sys.argv[1], sys.argv[2]
    reps = int(sys.argv[sys.argv.index("--reps") + 1]) if "--reps" in sys.argv else 7
    target = float(sys.argv[sys.argv.index("--target") + 1]) if "--target" in sys.argv else 1e-5
    rec = {"t_end": T_END, "target_m": target, "ladder": {}, "picks": {}}
    picks = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in MODELS:
            ref = slider_x(build, write(tmp, "ref.xml", model_text(name, 1e-12, "bdf")),
                           os.path.join(tmp, "ref"))
            for method in ("adams", "bdf"):
                errs = {}
                for r in LADDER:
                    x = slider_x(build, write(tmp, "l.xml", model_text(name, r, method)),
                                 os.path.join(tmp, "l"))
                    if len(x) != len(ref):
                        sys.exit("%s %s rtol %g: %d rows, the reference %d" %
                                 (name, method, r, len(x), len(ref)))
                    errs[r] = max(abs(a - b) for a, b in zip(x, ref))
                    print("%-8s %-5s rtol %-6g slider x error %.3g m" % (name, method, r, errs[r]),
                          flush=True)
                rec["ladder"]["%s/%s" % (name, method)] = {repr(r): e for r, e in errs.items()}
                pick = robust(errs, lambda e: e <= target)
                if pick is not None:
                    picks[(name, method)] = write(tmp, "%s_%s.xml" % (name, method),
                                                  model_text(name, pick, method))
                    rec["picks"]["%s/%s" % (name, method)] = {"rtol": pick}
        # interleaved rounds of every pick's library call
        cpu = {k: [] for k in picks}
        info = {}
        for _ in range(reps):
            for k, path in picks.items():
                res = lib_once(build, path)
                cpu[k].append(res["cpu_s"])
                info[k] = res
        for k in picks:
            p = rec["picks"]["%s/%s" % k]
            p.update(cpu_median_s=statistics.median(cpu[k]), steps=info[k]["steps"],
                     rhs=info[k]["rhs"])
            print("%-8s %-5s pick rtol %-6g: %d steps, %d right-hand sides, CPU median %.4f s" %
                  (k[0], k[1], p["rtol"], p["steps"], p["rhs"], p["cpu_median_s"]))
    best = {}
    for name in MODELS:
        cands = [(rec["picks"]["%s/%s" % (name, m)]["cpu_median_s"], m)
                 for m in ("adams", "bdf") if "%s/%s" % (name, m) in rec["picks"]]
        if not cands:
            sys.exit("%s: no rung meets the target %g m" % (name, target))
        best[name] = min(cands)
    ratio = best["flexible"][0] / best["rigid"][0]
    rec["best"] = {n: {"method": best[n][1], "cpu_median_s": best[n][0]} for n in best}
    rec["ratio"] = ratio
    print("flexible (%s) / rigid (%s) at slider error <= %g m: %.2f" %
          (best["flexible"][1], best["rigid"][1], target, ratio))
    with open(out, "w") as f:
        json.dump(rec, f, indent=1)


if __name__ == "__main__":
    main()
