#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Auto by measurement (docs/performance.md, "Auto: the method switched while running"): the
CPU of `clink run` with method "auto" (Adams and BDF switched while running, src/sim/sim_auto.c)
against each explicit method and against today's rule (the method auto starts with, kept to
the end: what auto ran before the switches), on the cases of issue 39:

  lubricated        models/slider_crank_lubricated.xml, method and drift left to auto, 10 ms
  lubricated_stiff  the same with the stiff film: clearance c = 0.05 mm (journal 9.95 mm)
  lugre             models/slider_crank_clearance.xml with LuGre friction
                    (bench/friction_lugre.sh's law), 10 ms
  translational     models/slider_crank_translational_clearance.xml
  chain70, chain700 the granular chain of models/granular_chain.xml with 70 and 700 beads
                    (700: over 2 ms, the wave through 300 beads)
  n_four_bar        models/n_four_bar.xml (IFToMM A02)
  double_pendulum   models/double_pendulum.xml

Each case runs with --set settings.method=M for M in auto, adams, bdf, and today's rule (the
method auto starts with), drift left to auto (--set settings.drift=auto), `--rows grid`; REPS
rounds interleaved (one run of every variant per round), the median CPU of the child process
reported with the steps and right-hand sides (+ the Jacobians'). For the two lubricated cases
the accuracy is measured too: the journal orbit's largest distance from that of a reference
run (BDF, projection, rtol 1e-12, atol 1e-15) on the output grid, over the clearance c.

With --shipped, every model of models/ instead: `clink run` with method auto against today's
rule (the method auto starts with, kept), drift auto (the model's where auto is refused:
iftomm_a03 gives Baumgarte's alpha and beta), REPS rounds interleaved, median CPU, steps and
the switches (auto / rule must stay below 1.3).

usage: auto_switch.py BUILD_DIR OUT.json [--reps N] [--cases a,b,...] [--shipped]
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

from benchlib import child_cpu, with_settings, write

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
LUGRE = '<friction type="lugre" mu="0.01" mu_s="0.015" v_s="1e-3" sigma0="1e5"/>'


def model(name):
    return open(os.path.join(TOP, "models", name)).read()


def chain(n, t_end):
    """the chain of models/granular_chain.xml with n beads (spacing 2 R, the striker 10 um
    away at 1.77 m/s, the wall behind bead n), as validation/make_granular_chain.py writes it"""
    text = model("granular_chain.xml")
    r = 0.00238  # the beads' radius, m (validation/make_granular_chain.py's positions)
    body = re.search(r'    <body name="b01"[^\n]*\n', text).group(0)
    pair = re.search(r'    <pair name="c01">[^\n]*\n', text).group(0)
    bodies = "".join(re.sub(r'name="b01"', 'name="b%03d"' % k,
                            re.sub(r'x="[^"]*"', 'x="%r"' % ((2.0 * (n - k) + 1.0) * r), body))
                     for k in range(1, n + 1))
    pairs = "".join(pair.replace('name="c01"', 'name="c%03d"' % k)
                    .replace('body="b01"', 'body="b%03d"' % k)
                    .replace('body="b02"', 'body="b%03d"' % (k + 1)) for k in range(1, n))
    text = re.sub(r'(    <body name="b\d\d"[^\n]*\n)+', lambda m: bodies, text)
    text = re.sub(r'(    <pair name="c(0[1-9]|[1-9]\d)">[^\n]*\n)+', lambda m: pairs, text)
    text = text.replace('body="b01"', 'body="b001"').replace('body="b70"', 'body="b%03d"' % n)
    text = re.sub(r'(<body name="striker"[^>]*?)x="[^"]*"',
                  lambda m: m.group(1) + 'x="%r"' % ((2.0 * n + 1.0) * r + 10e-6), text)
    return with_settings(text, t_end=t_end)


def cases():
    lub = model("slider_crank_lubricated.xml")
    stiff = lub.replace('journal_radius="0.0095"', 'journal_radius="0.00995"')
    lugre = re.sub(r'<friction type="coulomb"[^>]*/>', LUGRE, model("slider_crank_clearance.xml"))
    return {
        "lubricated": with_settings(lub, t_end=0.01),
        "lubricated_stiff": with_settings(stiff, t_end=0.01),
        "lugre": with_settings(lugre, t_end=0.01),
        "translational": model("slider_crank_translational_clearance.xml"),
        "chain70": chain(70, 1e-3),
        "chain700": chain(700, 2e-3),
        "n_four_bar": model("n_four_bar.xml"),
        "double_pendulum": model("double_pendulum.xml"),
    }


def run(build, path, outdir, method, drift="auto"):
    """CPU and summary of `clink run` with the method (and drift, None: the model's)"""
    args = [os.path.join(build, "clink"), "run", path, "-q", "-o", outdir, "--rows", "grid",
            "--set", "settings.method=" + method]
    if drift:
        args += ["--set", "settings.drift=" + drift]
    try:
        cpu = child_cpu(args)
    except subprocess.CalledProcessError:
        cpu = None
    with open(os.path.join(outdir, "summary.json")) as f:
        return cpu, json.load(f)


def orbit(outdir):
    """(t, ex, ey) of the clearance joint rod_slider on the output grid"""
    path = os.path.join(outdir, "timeseries.csv")
    with open(path) as f:
        head = f.readline().strip().split(",")
        cols = [head.index(k) for k in ("t [s]", "rod_slider.ex [m]", "rod_slider.ey [m]")]
        return [tuple(float(x.split(",")[c]) for c in cols) for x in f if x.strip()]


def orbit_error(a, b, c):
    if len(a) != len(b) or any(abs(p[0] - q[0]) > 1e-12 for p, q in zip(a, b)):
        raise RuntimeError("output grids differ")
    return max(((p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2) ** 0.5 for p, q in zip(a, b)) / c


def rule_method(summary):
    """the method auto started with: today's rule"""
    sw = summary.get("method_switches")
    return sw[0]["from"] if sw else summary["method"]


def shipped(build, out, reps):
    """auto against today's rule on every model of models/"""
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for f in sorted(os.listdir(os.path.join(TOP, "models"))):
            if not f.endswith(".xml"):
                continue
            path = os.path.join(TOP, "models", f)
            od = os.path.join(tmp, f)
            drift = "auto"
            try:
                _, s0 = run(build, path, od, "auto")
            except FileNotFoundError:  # drift auto refused (baumgarte_alpha given): the model's
                drift = None
                _, s0 = run(build, path, od, "auto", drift)
            variants = {"auto": "auto", "rule": rule_method(s0)}
            cpu = {v: [] for v in variants}
            summ = {}
            for _ in range(reps):
                for v, m in variants.items():
                    c, summ[v] = run(build, path, od + v, m, drift)
                    if c is not None and summ[v]["status"] == "ok":
                        cpu[v].append(c)
            row = {"model": f, "rule_method": variants["rule"],
                   "switch_count": summ["auto"].get("method_switch_count", 0)}
            for v in variants:
                row[v] = {"status": summ[v]["status"], "steps": summ[v]["steps"],
                          "cpu_s": statistics.median(cpu[v]) if cpu[v] else None}
            a, r = row["auto"]["cpu_s"], row["rule"]["cpu_s"]
            row["auto_over_rule"] = a / r if a and r else None
            results.append(row)
            print("%-44s rule %-5s switches %3d  steps %8d / %8d  cpu %s / %s  auto/rule %s" % (
                f, variants["rule"], row["switch_count"], row["auto"]["steps"],
                row["rule"]["steps"], a, r,
                "%.2f" % row["auto_over_rule"] if row["auto_over_rule"] else "-"), flush=True)
    with open(out, "w") as fo:
        json.dump({"reps": reps, "shipped": results}, fo, indent=1)


def main():
    argv = sys.argv[1:]
    if len(argv) < 2:
        sys.exit(__doc__)
    build, out = os.path.abspath(argv[0]), argv[1]
    reps = int(argv[argv.index("--reps") + 1]) if "--reps" in argv else 3
    if "--shipped" in argv:
        return shipped(build, out, reps)
    allc = cases()
    names = argv[argv.index("--cases") + 1].split(",") if "--cases" in argv else list(allc)
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            path = write(tmp, name + ".xml", allc[name])
            od = os.path.join(tmp, "o")
            _, s0 = run(build, path, od, "auto")
            variants = {"auto": "auto", "adams": "adams", "bdf": "bdf", "rule": rule_method(s0)}
            cpu = {v: [] for v in variants}
            summ = {}
            for _ in range(reps):
                for v, m in variants.items():
                    c, summ[v] = run(build, path, od + v, m)
                    if c is not None and summ[v]["status"] == "ok":
                        cpu[v].append(c)
            row = {"case": name}
            for v in variants:
                s = summ[v]
                row[v] = {"method": variants[v], "status": s["status"],
                          "cpu_s": statistics.median(cpu[v]) if cpu[v] else None,
                          "steps": s["steps"], "rhs": s["rhs_calls"],
                          "rhs_jacobian": s["rhs_calls_jacobian"]}
            row["switches"] = [(x["t"], x["from"], x["to"], x["reason"])
                               for x in summ["auto"].get("method_switches", [])]
            row["switch_count"] = summ["auto"].get("method_switch_count", 0)
            if name.startswith("lubricated"):
                ref = with_settings(allc[name], rtol=1e-12, atol=1e-15, method="bdf",
                                    drift="projection")
                rp = write(tmp, name + "_ref.xml", ref)
                subprocess.run([os.path.join(build, "clink"), "run", rp, "-q", "-o",
                                od + "ref", "--rows", "grid"], check=True)
                c = 0.0005 if name == "lubricated" else 0.00005
                oref = orbit(od + "ref")
                for v in variants:
                    row[v]["orbit_error_over_c"] = orbit_error(orbit(od + v), oref, c)
            ok = [row[v]["cpu_s"] for v in ("adams", "bdf") if row[v]["cpu_s"]]
            best = min(ok) if ok else None
            a, r = row["auto"]["cpu_s"], row["rule"]["cpu_s"]
            row["auto_over_best"] = a / best if a and best else None
            row["auto_over_rule"] = a / r if a and r else None
            results.append(row)
            print("%-17s auto %s %8.3f s (%d switches)  adams %s  bdf %s  rule(%s) %s  "
                  "auto/best %s  auto/rule %s" % (
                      name, row["auto"]["status"], a or float("nan"), row["switch_count"],
                      row["adams"]["cpu_s"], row["bdf"]["cpu_s"], variants["rule"],
                      row["rule"]["cpu_s"],
                      "%.2f" % row["auto_over_best"] if row["auto_over_best"] else "-",
                      "%.2f" % row["auto_over_rule"] if row["auto_over_rule"] else "-"),
                  flush=True)
    with open(out, "w") as f:
        json.dump({"reps": reps, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
