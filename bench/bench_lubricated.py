#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The lubricated slider-crank against the dry one at matched accuracy (docs/performance.md,
"Lubricated slider-crank"): what the oil film costs.

Models: models/slider_crank_lubricated.xml (the film: Ocvirk's short bearing) and
models/slider_crank_clearance.xml (the same mechanism, dry clearance joint), both over the
window 0 - T_END (10 ms, 23 impact onsets of the dry joint: the dry run is deterministic there,
its tight runs with BDF and with Adams agree to 6e-6 of the clearance; by 20 ms they differ
by 1.5e-3 and the errors of every rung grow a hundredfold, so no accuracy can be matched
over a longer window).

Accuracy, per model against a tight run of the same model (BDF + projection, rtol 1e-12,
atol 1e-15), on the output grid (every 1e-5 s): the journal orbit, max |e - e_ref| / c
(c = 0.5 mm), and the slider acceleration history, max |a_x - a_x,ref| / max |a_x,ref|.
Targets: both <= 1e-3 (the orbit within 0.5 um, the acceleration within 0.1 % of its peak
at every sample) and, looser, both <= 1e-2. A setting is the loosest rung of the ladder rtol
1e-5 ... 1e-11 (half decades, atol = 1e-3 rtol as a decimal) that meets the target together
with every tighter rung (the robust rule). The method is a setting too: each model is run
with Adams (as both ship) and BDF, and the cheaper of the two robust settings is taken.

Timing at the chosen settings of each target, REPS rounds interleaved (dry, lubricated,
dry, ...),
medians of CPU time:
  lib   the library call: clink_sim_create + clink_sim_advance(T_END), output at the end
        (bench_clearance_slider_crank --once, its own CPU clock);
  run   the user's path: `clink run` of the model file (process, XML, CSV rows every 1e-5 s
        and at each contact event; CPU of the child process).
Every rtol and atol is recorded as the exact value passed (Python repr). Prints a summary
and writes OUT.json.

usage: bench_lubricated.py BUILD_DIR OUT.json [--reps N] [--study-only]
"""
import json
import os
import statistics
import sys
import tempfile

import numpy as np

from benchlib import atol_of, child_cpu, lib_once, robust, with_settings, write

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
MODELS = {"dry": "slider_crank_clearance.xml", "lubricated": "slider_crank_lubricated.xml"}
VARIANTS = [("dry", "adams"), ("dry", "bdf"), ("lubricated", "adams"), ("lubricated", "bdf")]
T_END = 0.01
C = 0.0005  # m, the clearance of both models
LADDER = [10.0 ** (-k / 2.0) for k in range(10, 23)]  # 1e-5 ... 1e-11
TARGETS = [1e-3, 1e-2]


def model_text(name, rtol, atol, method, drift=None):
    """the model with t_end T_END and the given rtol, atol, method (and drift)"""
    s = open(os.path.join(TOP, "models", MODELS[name])).read()
    extra = {"drift": drift} if drift else {}
    return with_settings(s, t_end=T_END, rtol=rtol, atol=atol, method=method, **extra)


def clink_run(build, path, outdir, grid=False):
    """CPU of `clink run` (child process) and its summary; with grid, the output-grid rows
    (t, ex, ey, slider ax) too"""
    args = [os.path.join(build, "clink"), "run", path, "-q", "-o", outdir]
    cpu = child_cpu(args + (["--rows", "grid"] if grid else []))
    with open(os.path.join(outdir, "summary.json")) as f:
        summary = json.load(f)
    rows = None
    if grid:
        path = os.path.join(outdir, "timeseries.csv")
        head = open(path).readline().strip().split(",")
        cols = [head.index(k) for k in ("t [s]", "rod_slider.ex [m]", "rod_slider.ey [m]",
                                        "slider.ax [m/s^2]")]
        rows = np.loadtxt(path, delimiter=",", skiprows=1, usecols=cols, ndmin=2)
    return cpu, summary, rows


def errors(rows, ref):
    """the orbit error / c and the slider acceleration error / its peak"""
    if rows.shape != ref.shape or np.max(np.abs(rows[:, 0] - ref[:, 0])) > 1e-12:
        raise RuntimeError("output grids differ")
    orbit = np.max(np.hypot(rows[:, 1] - ref[:, 1], rows[:, 2] - ref[:, 2])) / C
    acc = np.max(np.abs(rows[:, 3] - ref[:, 3])) / np.max(np.abs(ref[:, 3]))
    return float(orbit), float(acc)


def study(build, tmp, rec):
    """the ladders; the chosen (rtol, method) of each model"""
    refs, chosen = {}, {}
    for name in MODELS:
        path = write(tmp, name + "_ref.xml", model_text(name, 1e-12, 1e-15, "bdf", "projection"))
        refs[name] = clink_run(build, path, os.path.join(tmp, "ref"), grid=True)[2]
    rec["ladder"] = []
    for name, method in VARIANTS:
        errs = {}
        for r in LADDER:
            path = write(tmp, "l.xml", model_text(name, r, atol_of(r), method))
            _, summ, rows = clink_run(build, path, os.path.join(tmp, "l"), grid=True)
            errs[r] = errors(rows, refs[name])
            lib = lib_once(build, path)
            rec["ladder"].append({"model": name, "method": method, "rtol": r, "atol": atol_of(r),
                                  "orbit_err": errs[r][0], "acc_err": errs[r][1],
                                  "steps": lib["steps"], "rhs": lib["rhs"], "cpu_s": lib["cpu_s"]})
            print("%-10s %-5s rtol %-22r orbit %.2e  a_x %.2e  steps %6d  rhs %6d  %.4f s"
                  % (name, method, r, errs[r][0], errs[r][1], lib["steps"], lib["rhs"],
                     lib["cpu_s"]), flush=True)
        for target in TARGETS:
            rc = robust(errs, lambda e: max(e) <= target)
            print("%s %s: robust rung for %g: %r" % (name, method, target, rc))
            if rc is None:
                continue
            cost = statistics.median(lib_once(build, write(tmp, "c.xml", model_text(
                name, rc, atol_of(rc), method)))["cpu_s"] for _ in range(3))
            if (name, target) not in chosen or cost < chosen[(name, target)][2]:
                chosen[(name, target)] = (rc, method, cost)
    rec["chosen"] = {"%s %g" % k: {"rtol": v[0], "atol": atol_of(v[0]), "method": v[1]}
                     for k, v in chosen.items()}
    return chosen


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    build, out = sys.argv[1], sys.argv[2]
    reps = int(sys.argv[sys.argv.index("--reps") + 1]) if "--reps" in sys.argv else 11
    rec = {"t_end": T_END, "targets": TARGETS,
           "measure": "max(orbit error / c, slider a_x error / its peak) on the output grid"}
    with tempfile.TemporaryDirectory() as tmp:
        chosen = study(build, tmp, rec)
        if len(chosen) < 2 * len(TARGETS):
            sys.exit("no robust rung for %s" % [k for k in MODELS if (k, TARGETS[0]) not in chosen])
        if "--study-only" in sys.argv:
            print(json.dumps(rec["chosen"]))
            return
        keys = sorted(chosen, key=lambda k: (k[1], k[0]))  # (dry, lubricated) per target
        paths = {k: write(tmp, "%s_%g.xml" % k, model_text(k[0], v[0], atol_of(v[0]), v[1]))
                 for k, v in chosen.items()}
        times = {(k, w): [] for k in keys for w in ("lib", "run")}
        for i in range(reps):
            line = []
            for k in keys:
                times[(k, "lib")].append(lib_once(build, paths[k])["cpu_s"])
                times[(k, "run")].append(clink_run(build, paths[k], os.path.join(tmp, "o"))[0])
                line.append("%s %g: lib %.4f run %.4f" % (k + (times[(k, "lib")][-1],
                                                                times[(k, "run")][-1])))
            print("round %d: %s" % (i + 1, " | ".join(line)), flush=True)
        rec["reps"] = reps
        rec["results"] = []
        for target in TARGETS:
            med = {(m, w): statistics.median(times[((m, target), w)]) for m in MODELS
                   for w in ("lib", "run")}
            res = {"target": target, "ratio_lib": med[("lubricated", "lib")] / med[("dry", "lib")],
                   "ratio_run": med[("lubricated", "run")] / med[("dry", "run")]}
            for m in MODELS:
                rc, method, _ = chosen[(m, target)]
                res[m] = {"rtol": rc, "atol": atol_of(rc), "method": method,
                          "lib_cpu_s": times[((m, target), "lib")],
                          "run_cpu_s": times[((m, target), "run")],
                          "lib_median_s": med[(m, "lib")], "run_median_s": med[(m, "run")]}
            rec["results"].append(res)
            print("target %g: dry %s rtol %r, lubricated %s rtol %r; medians of %d interleaved "
                  "rounds: library call dry %.4f s, lubricated %.4f s (ratio %.2f); clink run dry "
                  "%.4f s, lubricated %.4f s (ratio %.2f); target <= 1.5"
                  % (target, res["dry"]["method"], res["dry"]["rtol"], res["lubricated"]["method"],
                     res["lubricated"]["rtol"], reps, med[("dry", "lib")],
                     med[("lubricated", "lib")], res["ratio_lib"], med[("dry", "run")],
                     med[("lubricated", "run")], res["ratio_run"]))
    with open(out, "w") as f:
        json.dump(rec, f, indent=1)


if __name__ == "__main__":
    main()
