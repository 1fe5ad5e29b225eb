#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Study behind the automatic choice of method and drift (docs/kernel.md, "What
auto picks and why"): for each shipped class of model and each of the five
combinations of method and drift that clink runs (Adams with projection is
refused: CVodeSetProjFn of SUNDIALS 6.4 supports BDF only), the loosest rtol of
a half-decade ladder (1e-3 ... 1e-11) that meets the class's accuracy target
robustly (that rung and every tighter one meet it), and the cost of the run at
that rtol as the instructions callgrind counts for the whole `clink run`.

Cost is counted in instructions (valgrind --tool=callgrind, deterministic), not
CPU time: the machine the study was made on is shared (load about 10 on two
cores), where CPU times move by tens of percent from run to run.

atol follows the shipped models: atol = rtol * scale with the scale of the
model's own settings (slider-crank 1e-3, double pendulum 1e-2, four-bar 1e-2,
N-four-bar 1e-2, chains 1e-5, ball drop 1e-3); the exact values passed are
recorded. A model without method and drift (`auto`) is the same model file with
the two attributes removed; its robust rtol and cost are measured the same way.

usage: auto_settings_study.py BUILD_DIR OUT.json [CLASS ...] [--no-callgrind]
                             [--combos=adams+none,...,auto+auto] [--bound=RTOL]
--bound=RTOL: each combination once, at RTOL, under callgrind, without the ladder: a lower
bound of its cost where the ladder is too long to run (BDF on the 700-bead chain, whose
every run takes 200 times the CPU of Adams's; 1e-4 is looser than its robust rtol on
the 70-bead chain)
       auto_settings_study.py --table OUT.json   (the Markdown table of docs/kernel.md)
(BUILD_DIR holds the clink program; OUT.json is merged into when it exists)
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LADDER = [10.0 ** (-k / 2.0) for k in range(6, 23)]  # 1e-3 ... 1e-11, half decades
COMBOS = [("adams", "none"), ("adams", "baumgarte"), ("bdf", "none"), ("bdf", "baumgarte"),
          ("bdf", "projection"), ("auto", "auto")]
REF_RTOL = 1e-13  # of the reference runs (the chains and the ball: 1e-12 and atol 1e-15;
                 # CVODE refuses 1e-13 there, and atol 1e-17, as too much accuracy)
TIMEOUT = 900  # s of a run without callgrind
BOUND = None  # --bound=RTOL


def read_csv(path):
    with open(path) as f:
        rows = [line.rstrip("\n").split(",") for line in f if line.strip()]
    return rows[0], rows[1:]


def impacts(d):
    """(onset t, pair, v_impact, v_separation, F_max, t + duration) of each finished impact"""
    _, rows = read_csv(os.path.join(d, "impacts.csv"))
    return [(float(r[0]), r[1], float(r[2]), float(r[3]), float(r[6]), float(r[0]) + float(r[7]))
            for r in rows]


def last_row(d, prefix=None):
    head, rows = read_csv(os.path.join(d, "timeseries.csv"))
    keep = [i for i, h in enumerate(head)
            if h.endswith((".x [m]", ".y [m]", ".phi [rad]")) and (prefix is None or h.startswith(prefix))]
    return float(rows[-1][0]), [float(rows[-1][i]) for i in keep]


# ---- accuracy measures: each returns a number, the target is `error <= tol` ----------------

def onsets_error(run, ref, horizon):
    """slider-crank: the largest |onset - onset_ref| over the reference's onsets before
    horizon - 0.5 ms (all must be there, in order)"""
    a, b = impacts(run), [i for i in impacts(ref) if i[5] < horizon - 5e-4]
    if len(a) < len(b):
        return math.inf
    return max((abs(x[0] - y[0]) for x, y in zip(a, b)), default=0.0)


def contact_forces(d):
    """{contact: [Fn at each output row]} and the times of the rows"""
    head, rows = read_csv(os.path.join(d, "timeseries.csv"))
    cols = {h[:-len(".Fn [N]")]: i for i, h in enumerate(head) if h.endswith(".Fn [N]")}
    return {c: [float(r[i]) for r in rows] for c, i in cols.items()}, [float(r[0]) for r in rows]


def peaks_error(run, ref, horizon):
    """chains: each contact's force sampled every 1 us: its peak (the solitary wave passing,
    relative error / 1e-4) and the samples over the peak (where the reference's force is
    above half its peak: largest difference / peak / 1e-3), over the contacts whose peak
    the reference samples 20 us before the end; the largest of the two"""
    (fa, ta), (fb, tb) = contact_forces(run), contact_forces(ref)
    if len(ta) != len(tb) or any(abs(x - y) > 1e-12 for x, y in zip(ta, tb)):
        return math.inf
    worst = 0.0
    for c, f in fb.items():
        peak = max(f)
        k = f.index(peak)
        if peak <= 0.0 or tb[k] >= horizon - 2e-5:
            continue
        g = fa[c]
        over = max(abs(x - y) for x, y in zip(g, f) if y > 0.5 * peak)
        worst = max(worst, abs(max(g) - peak) / peak / 1e-4, over / peak / 1e-3)
    return worst


def impacts_end_error(run, ref, horizon):
    """double pendulum: impact times (s), restitution (v_sep / v_imp, -) and the angles at
    the end (rad), the largest of the three errors after dividing each by its target"""
    a, b = impacts(run), impacts(ref)
    if len(a) != len(b):
        return math.inf
    e = 0.0
    for x, y in zip(a, b):
        e = max(e, abs(x[0] - y[0]) / 1e-6, abs(x[3] / x[2] - y[3] / y[2]) / 1e-5)
    (ta, qa), (tb, qb) = last_row(run), last_row(ref)
    phis = [abs(u - v) for u, v in zip(qa, qb)][2::3]
    return max(e, max(phis) / 1e-6) if abs(ta - tb) < 1e-12 else math.inf


def end_error(run, ref, horizon):
    """four-bar: the largest difference of x, y (m) and phi (rad) of every body at the end"""
    (ta, qa), (tb, qb) = last_row(run), last_row(ref)
    return max(abs(u - v) for u, v in zip(qa, qb)) if abs(ta - tb) < 1e-12 else math.inf


def apex_error(run, ref, horizon):
    """ball drop: each bounce's apex height above the contact, v_sep^2 / 2g (relative), and
    the onset times (s / 1e-3 relative to the flight time), the largest relative error"""
    a, b = impacts(run), impacts(ref)
    if len(a) != len(b):
        return math.inf
    return max((max(abs(x[3] ** 2 - y[3] ** 2) / y[3] ** 2, abs(x[0] - y[0]) / y[0])
                for x, y in zip(a, b)), default=0.0)


def n_four_bar_exact(t_end, dt):
    """theta'' = -c cos(theta) (the one-coordinate motion of the N-four-bar, N = 40), RK4,
    h = 1e-4 s: the tip B0 of crank_0 at t = dt, 2 dt, ..."""
    c = 9.81 * (41.0 / 2.0 + 40.0) / (41.0 / 3.0 + 40.0)
    th, w, out, h = 0.5 * math.pi, -1.0, [], dt / 500
    for _ in range(int(round(t_end / dt))):
        for _ in range(500):
            k1t, k1w = w, -c * math.cos(th)
            k2t, k2w = w + 0.5 * h * k1w, -c * math.cos(th + 0.5 * h * k1t)
            k3t, k3w = w + 0.5 * h * k2w, -c * math.cos(th + 0.5 * h * k2t)
            k4t, k4w = w + h * k3w, -c * math.cos(th + h * k3t)
            th += h / 6.0 * (k1t + 2.0 * k2t + 2.0 * k3t + k4t)
            w += h / 6.0 * (k1w + 2.0 * k2w + 2.0 * k3w + k4w)
        out.append((math.cos(th), math.sin(th)))
    return out


_EXACT = {}


def branch_error(run, ref, horizon):
    """N-four-bar: the largest distance of B0 from the exact one-coordinate motion at the
    outputs (0.05 s apart)"""
    if horizon not in _EXACT:
        _EXACT[horizon] = n_four_bar_exact(horizon, 0.05)
    head, rows = read_csv(os.path.join(run, "timeseries.csv"))
    ix, iy, ip = (head.index("crank_0.%s" % k) for k in ("x [m]", "y [m]", "phi [rad]"))
    grid = {round(float(r[0]) / 0.05): r for r in rows}
    worst = 0.0
    for k, (bx, by) in enumerate(_EXACT[horizon], start=1):
        r = grid.get(k)
        if r is None:
            return math.inf
        x, y, p = float(r[ix]), float(r[iy]), float(r[ip])
        worst = max(worst, math.hypot(x + 0.5 * math.cos(p) - bx, y + 0.5 * math.sin(p) - by))
    return worst


# ---- the classes ---------------------------------------------------------------------------
# model, horizon (s), output step (s), atol scale, error measure, target, reference combo

CLASSES = {
    "slider_crank": ("models/slider_crank_clearance_frictionless.xml", 0.02, 1e-3, 1e-3,
                     onsets_error, 1e-6, ("bdf", "projection")),
    "double_pendulum": ("models/double_pendulum_impact.xml", 8.0, 0.5, 1e-2, impacts_end_error,
                        1.0, ("bdf", "projection")),
    "four_bar": ("models/four_bar.xml", 5.0, 0.5, 1e-2, end_error, 1e-5, ("adams", "baumgarte")),
    "n_four_bar": ("models/n_four_bar.xml", 3.0, 0.05, 1e-2, branch_error, 1e-4, None),
    "chain_70": ("@chain70", 4e-4, 1e-6, 1e-5, peaks_error, 1.0, ("adams", "none", 1e-12, 1e-15)),
    "chain_700": ("@chain700", 2e-4, 1e-6, 1e-5, peaks_error, 1.0, ("adams", "none", 1e-12, 1e-15)),
    "ball_drop": ("models/ball_drop.xml", 2.0, 0.5, 1e-3, apex_error, 1e-6,
                  ("bdf", "projection", 1e-12, 1e-15)),
}


def model_file(spec, work):
    """the model file of a class (chains of N beads written by make_granular_chain.py)"""
    if not spec.startswith("@chain"):
        return os.path.join(TOP, spec)
    n = int(spec[6:])
    d = os.path.join(work, "chain%d" % n)
    path = os.path.join(d, "granular_chain.xml")
    if not os.path.exists(path):
        os.makedirs(d, exist_ok=True)
        subprocess.run([sys.executable, os.path.join(TOP, "validation", "make_granular_chain.py"),
                        d, str(n)], check=True, stdout=subprocess.DEVNULL)
    return path


def auto_file(path, work):
    """the model without method and drift in <settings>"""
    out = os.path.join(work, "auto_" + os.path.basename(os.path.dirname(path)) + "_" +
                       os.path.basename(path))
    with open(path) as f:
        text = f.read()
    settings = re.search(r"<settings[^>]*>", text).group(0)
    bare = re.sub(r'\s(method|drift)="[^"]*"', "", settings)
    with open(out, "w") as f:
        f.write(text.replace(settings, bare))
    return out


def run(build, model, out, combo, rtol, atol, horizon, step, callgrind):
    """one `clink run`; returns (ok, instructions or None, summary)"""
    extra = ["--set", "output.contacts=true"] if "chain" in model else []
    cmd = [os.path.join(build, "clink"), "run", model, "-o", out, "--t-end", repr(horizon),
           "--output-step", repr(step), "--set", "settings.rtol=%.17g" % rtol,
           "--set", "settings.atol=%.17g" % atol, "--quiet", "--no-timing"] + extra
    if combo[0] != "auto":
        cmd += ["--set", "settings.method=" + combo[0], "--set", "settings.drift=" + combo[1]]
    if callgrind:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=None if callgrind else TIMEOUT)
    except subprocess.TimeoutExpired:
        return False, None, None
    instr = None
    m = re.search(r"Collected : (\d+)", p.stderr)
    if m:
        instr = int(m.group(1))
    try:
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, ValueError):
        return False, instr, None
    return p.returncode == 0 and summary.get("status") == "ok", instr, summary


def study_class(build, name, work, callgrind, combos, res=None):
    spec, horizon, step, scale, measure, tol, ref_combo = CLASSES[name]
    model = model_file(spec, work)
    ref = os.path.join(work, name, "ref")
    ref_rtol = ref_combo[2] if ref_combo and len(ref_combo) > 2 else REF_RTOL
    ref_atol = ref_combo[3] if ref_combo and len(ref_combo) > 2 else REF_RTOL * scale
    if ref_combo:
        ok, _, _ = run(build, model, ref, ref_combo[:2], ref_rtol, ref_atol, horizon, step, False)
        if not ok:
            raise SystemExit("%s: the reference run failed" % name)
    res = res or {"model": spec, "horizon": horizon, "output_step": step, "atol_scale": scale,
           "target": tol, "measure": measure.__doc__.strip(), "reference": {
               "combo": ref_combo[:2], "rtol": ref_rtol, "atol": ref_atol} if ref_combo
           else "exact one-coordinate solution", "combos": {}}
    for combo in combos:
        path = auto_file(model, work) if combo[0] == "auto" else model
        if BOUND:  # one run under callgrind at a loose rtol: a lower bound of the cost
            out = os.path.join(work, name, "bound")
            ok, instr, _ = run(build, path, out, combo, BOUND, BOUND * scale, horizon, step, True)
            res["combos"]["%s+%s" % combo] = {"bound_rtol": BOUND, "atol": BOUND * scale,
                                               "ok": ok, "instructions_lower_bound": instr}
            print("%-16s %s+%s at rtol %.3g: %s instructions" % ((name,) + combo + (BOUND, instr)))
            continue
        key = "%s+%s" % combo
        ladder, robust = [], None
        for rtol in reversed(LADDER):  # tight to loose: stop at the first miss
            out = os.path.join(work, name, key)
            ok, _, summ = run(build, path, out, combo, rtol, rtol * scale, horizon, step, False)
            err = measure(out, ref, horizon) if ok else math.inf
            ladder.append({"rtol": rtol, "atol": rtol * scale, "ok": ok, "error": err})
            print("%-16s %-18s rtol %.3g  error %.3g" % (name, key, rtol, err), flush=True)
            if (not ok and robust is None and summ and "too much accuracy" in
                    (summ.get("message") or "")):
                continue  # rungs CVODE refuses at t = 0 (700 beads at 1e-11) are not misses
            if not err <= tol:
                break
            robust = rtol
            if combo[0] == "auto":
                resolved = (summ["method"], summ["drift"])
        entry = {"ladder": ladder, "robust_rtol": robust}
        if robust is not None:
            entry["atol"] = robust * scale
            if combo[0] == "auto":
                entry["resolved"] = "%s+%s" % resolved
            if callgrind:
                out = os.path.join(work, name, key + "-cg")
                ok, instr, _ = run(build, path, out, combo, robust, robust * scale, horizon, step,
                                   True)
                entry["instructions"] = instr
                print("%-16s %-18s robust rtol %.3g  %s instructions" % (name, key, robust, instr),
                      flush=True)
        res["combos"][key] = entry
    return res


def table(results):
    """the study's table in Markdown (docs/kernel.md): robust rtol and millions of
    instructions per combination, auto's choice and its cost over the best"""
    for name, r in results.items():
        cells, best = [], None
        for key in ["%s+%s" % c for c in COMBOS[:-1]]:
            e = r["combos"].get(key, {})
            if e.get("instructions"):
                best = min(best or e["instructions"], e["instructions"])
                cells.append("%.3g: %.1f" % (e["robust_rtol"], e["instructions"] / 1e6))
            elif e.get("instructions_lower_bound"):
                cells.append("> %.1f (at %.0e)" % (e["instructions_lower_bound"] / 1e6,
                                                   e["bound_rtol"]))
            else:
                cells.append("-")
        a = r["combos"].get("auto+auto", {})
        pick = "%s (%.3g: %.1f)" % (a["resolved"].replace("+", " + "), a["robust_rtol"],
                                    a["instructions"] / 1e6) if a.get("instructions") else "-"
        ratio = "%.2f" % (a["instructions"] / best) if a.get("instructions") and best else "-"
        print("| %s | %s | %s | %s |" % (name, " | ".join(cells), pick, ratio))


def main():
    if "--table" in sys.argv:
        with open(sys.argv[-1]) as f:
            table(json.load(f))
        return
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) < 2:
        raise SystemExit(__doc__)
    build, out = args[0], args[1]
    names = args[2:] or list(CLASSES)
    callgrind = "--no-callgrind" not in sys.argv
    only = [a[9:] for a in sys.argv if a.startswith("--combos=")]
    global BOUND
    BOUND = ([float(a[8:]) for a in sys.argv if a.startswith("--bound=")] or [None])[0]
    combos = [c for c in COMBOS if not only or "%s+%s" % c in only[0].split(",")]
    results = {}
    if os.path.exists(out):
        with open(out) as f:
            results = json.load(f)
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            results[name] = study_class(build, name, work, callgrind, combos,
                                        results.get(name) if only else None)
            with open(out, "w") as f:
                json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
