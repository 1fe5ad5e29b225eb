#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The clearance slider-crank with clink's library defaults against the SciPy reference,
at matched accuracy chosen robustly (docs/performance.md, "Clearance slider-crank").

Model: models/slider_crank_clearance_frictionless.xml without gravity, t_end 0.1 s (the
frictionless, gravity-free case of the clearance literature), with `method` and `drift`
removed from its <settings>: the settings a user who writes no tuning gets (auto). The
only knob left is the tolerance: rtol from the half-decade ladder 1e-6 ... 1e-11 with
atol = 1e-3 rtol (the scale of the shipped model's settings), for clink and for SciPy
(bench/scipy_slider_crank.py: LSODA, Baumgarte 5/5, restart at each onset) alike.

Accuracy: leading impact onsets within 1 us of a tight reference (clink BDF + projection
at rtol 1e-13, atol 1e-16; checked against SciPy at rtol 1e-12, atol 1e-15); target >= 26.
Each code's rung is chosen by the robust rule: the loosest rung such that it and every
tighter rung meet the target.

Timing at the chosen rungs, REPS rounds interleaved (A B C D A B C D ...), medians of
CPU time:
  lib      the library call: clink_sim_create + clink_sim_advance to t_end, output at the
           end (bench_clearance_slider_crank --once, its own CPU clock);
  run      the user's path: `clink run` of the model file (outputs every 1e-5 s to CSV,
           process start and XML reading included; CPU of the child process);
  run_end  `clink run` of the same file with `--output-step` 0.1 (= t_end): one grid row at
           the end, the output SciPy's script gives, as bench/run_user_path.sh runs the
           chains (the event rows and impacts.csv are still written);
  untuned  `clink run` of the model with no <settings> tolerance either (the library's
           rtol 1e-8, atol 1e-10): its accuracy is reported, its cost too;
  scipy    scipy_slider_crank.py at its chosen rung, output at the end (its own CPU
           clock around the integration).
  lib_b, run_b  with --compare BUILD_B: lib and run of a second build (another
           commit) at the same rung, in the same rounds, for a before/after ratio
           free of the drift of a shared machine.
Every rtol and atol is recorded as the exact value passed (Python repr: shortest
round trip). Prints a summary and writes OUT.json.

usage: slider_crank_defaults.py BUILD_DIR OUT.json [--reps N] [--compare BUILD_B]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

from benchlib import atol_of, child_cpu, lib_once, robust, with_settings, write

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
MODEL = os.path.join(TOP, "models", "slider_crank_clearance_frictionless.xml")
SCIPY = os.path.join(TOP, "bench", "scipy_slider_crank.py")
T_END = 0.1
LADDER = [10.0 ** (-k / 2.0) for k in range(12, 23)]  # 1e-6 ... 1e-11
TARGET, WINDOW = 26, 1e-6
PY = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable


def model_text(rtol=None, atol=None, method=None, drift=None):
    """the frictionless model without gravity, t_end T_END, method and drift removed (or
    set), rtol and atol set (or removed: the library's defaults)"""
    s = open(MODEL).read().replace('g="0 -9.81"', 'g="0 0"')
    given = {k: v for k, v in (("rtol", rtol), ("atol", atol), ("method", method),
                               ("drift", drift)) if v is not None}
    return with_settings(s, drop=("method", "drift", "rtol", "atol"), t_end=T_END, **given)


def clink_run(build, path, outdir, extra=()):
    """CPU of `clink run` (child process, with the extra arguments) and the onsets from its
    impacts.csv"""
    cpu = child_cpu([os.path.join(build, "clink"), "run", path, "-q", "-o", outdir, *extra])
    with open(os.path.join(outdir, "impacts.csv")) as f:
        onsets = [float(line.split(",")[0]) for line in list(f)[1:] if line.strip()]
    return cpu, onsets


def scipy(rtol, atol):
    out = subprocess.run([PY, SCIPY, MODEL, "--no-gravity", "--t-end", repr(T_END), "--rtol",
                          repr(rtol), "--atol", repr(atol)], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)


def agree(a, b, window=WINDOW):
    n = 0
    while n < len(a) and n < len(b) and abs(a[n] - b[n]) <= window:
        n += 1
    return n


def robust_onsets(counts):
    """the loosest rung whose leading onsets (and every tighter rung's) reach TARGET"""
    return robust(counts, lambda n: n >= TARGET)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    build, out = sys.argv[1], sys.argv[2]
    reps = int(sys.argv[sys.argv.index("--reps") + 1]) if "--reps" in sys.argv else 11
    other = sys.argv[sys.argv.index("--compare") + 1] if "--compare" in sys.argv else None
    rec = {"model": os.path.relpath(MODEL, TOP), "t_end": T_END, "target": "%d leading onsets within %g s" % (TARGET, WINDOW)}
    with tempfile.TemporaryDirectory() as tmp:
        ref_path = write(tmp, "ref.xml", model_text(1e-13, 1e-16, "bdf", "projection"))
        ref = lib_once(build, ref_path)["onsets"]
        sref = scipy(1e-12, 1e-15)
        rec["reference"] = {"clink": {"method": "bdf", "drift": "projection", "rtol": 1e-13,
                                      "atol": 1e-16, "onsets": len(ref)},
                            "scipy": {"rtol": 1e-12, "atol": 1e-15, "onsets": len(sref["onsets"])},
                            "agree_1us": agree(ref, sref["onsets"]),
                            "agree_1e-8s": agree(ref, sref["onsets"], 1e-8)}
        print("reference: clink BDF+projection 1e-13 / SciPy 1e-12 agree on %d onsets within 1 us, "
              "%d within 1e-8 s" % (rec["reference"]["agree_1us"], rec["reference"]["agree_1e-8s"]))
        ladder = {"clink": {}, "scipy": {}}
        for r in LADDER:
            a = atol_of(r)
            c = lib_once(build, write(tmp, "l.xml", model_text(r, a)))
            s = scipy(r, a)
            ladder["clink"][r] = {"atol": a, "onsets": agree(c["onsets"], ref), "cpu_s": c["cpu_s"],
                                  "steps": c["steps"], "rhs": c["rhs"],
                                  "picked": c["method"] + "+" + c["drift"]}
            ladder["scipy"][r] = {"atol": a, "onsets": agree(s["onsets"], ref), "cpu_s": s["cpu_s"],
                                  "rhs": s["rhs"], "us_per_rhs": s["cpu_us_per_rhs"]}
            print("rtol %-22r clink %s: %2d onsets, %.3f s  | SciPy: %2d onsets, %.3f s, %.2f us/RHS"
                  % (r, c["method"] + "+" + c["drift"], ladder["clink"][r]["onsets"], c["cpu_s"],
                     ladder["scipy"][r]["onsets"], s["cpu_s"], s["cpu_us_per_rhs"]), flush=True)
        rec["ladder"] = {k: [dict(rtol=r, **v) for r, v in d.items()] for k, d in ladder.items()}
        rc = robust_onsets({r: v["onsets"] for r, v in ladder["clink"].items()})
        rs = robust_onsets({r: v["onsets"] for r, v in ladder["scipy"].items()})
        if rc is None or rs is None:
            sys.exit("no robust rung: clink %r, SciPy %r" % (rc, rs))
        rec["chosen"] = {"clink": {"rtol": rc, "atol": atol_of(rc)}, "scipy": {"rtol": rs, "atol": atol_of(rs)}}
        print("robust rungs: clink rtol %r, SciPy rtol %r" % (rc, rs))
        user = write(tmp, "user.xml", model_text(rc, atol_of(rc)))
        untuned = write(tmp, "untuned.xml", model_text())
        times = {"lib": [], "run": [], "run_end": [], "untuned": [], "scipy": []}
        end = ("--output-step", repr(T_END))
        if other:
            times.update({"lib_b": [], "run_b": []})
        untuned_onsets = []
        for i in range(reps):
            times["lib"].append(lib_once(build, user)["cpu_s"])
            cpu, run_onsets = clink_run(build, user, os.path.join(tmp, "out"))
            times["run"].append(cpu)
            cpu, end_onsets = clink_run(build, user, os.path.join(tmp, "out4"), end)
            times["run_end"].append(cpu)
            if end_onsets != run_onsets:  # outputs observe: the impacts do not depend on them
                sys.exit("the impacts of clink run differ with --output-step %r" % T_END)
            cpu, untuned_onsets = clink_run(build, untuned, os.path.join(tmp, "out2"))
            times["untuned"].append(cpu)
            if other:
                times["lib_b"].append(lib_once(other, user)["cpu_s"])
                times["run_b"].append(clink_run(other, user, os.path.join(tmp, "out3"))[0])
            s = scipy(rs, atol_of(rs))
            times["scipy"].append(s["cpu_s"])
            print("round %d: lib %.4f run %.4f run_end %.4f untuned %.4f scipy %.3f" %
                  (i + 1, times["lib"][-1], times["run"][-1], times["run_end"][-1],
                   times["untuned"][-1], s["cpu_s"]), flush=True)
        med = {k: statistics.median(v) for k, v in times.items()}
        rec["reps"], rec["cpu_s"], rec["median_cpu_s"] = reps, times, med
        rec["scipy_us_per_rhs"] = 1e6 * med["scipy"] / s["rhs"]
        rec["untuned_onsets_1us"] = agree(untuned_onsets, ref)
        rec["ratio"] = {"lib": med["scipy"] / med["lib"], "run": med["scipy"] / med["run"],
                        "run_end": med["scipy"] / med["run_end"],
                        "untuned": med["scipy"] / med["untuned"]}
        print("medians of %d interleaved rounds: lib %.4f s, clink run %.4f s, untuned clink run "
              "%.4f s (%d onsets within 1 us), SciPy %.3f s (%.2f us per RHS)" %
              (reps, med["lib"], med["run"], med["untuned"], rec["untuned_onsets_1us"],
               med["scipy"], rec["scipy_us_per_rhs"]))
        print("ratios SciPy / clink: library call %.1f, clink run %.1f, clink run with one grid "
              "row at the end %.1f, untuned clink run %.1f" %
              (rec["ratio"]["lib"], rec["ratio"]["run"], rec["ratio"]["run_end"],
               rec["ratio"]["untuned"]))
        print("clink run / library call: %.2f; with one grid row at the end %.2f" %
              (med["run"] / med["lib"], med["run_end"] / med["lib"]))
        if other:
            rec["compare"] = other
            for k in ("lib", "run"):
                rec["ratio"][k + "_b"] = med["scipy"] / med[k + "_b"]
                rec["ratio"][k + "_b_over_a"] = med[k + "_b"] / med[k]
            print("build B (%s): library call %.4f s (%.1fx SciPy), clink run %.4f s (%.1fx); "
                  "B / this build: %.3f, %.3f" %
                  (other, med["lib_b"], rec["ratio"]["lib_b"], med["run_b"], rec["ratio"]["run_b"],
                   rec["ratio"]["lib_b_over_a"], rec["ratio"]["run_b_over_a"]))
    with open(out, "w") as f:
        json.dump(rec, f, indent=1)


if __name__ == "__main__":
    main()
