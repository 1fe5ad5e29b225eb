#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Wall time, CPU time and peak resident memory of the library call
(bench_clearance_slider_crank --once: clink_sim_create, one clink_sim_advance to t_end)
and of `clink run`, on the Hertz granular chain of N beads with the defaults (the model
of bench/run_memory.sh: validation/make_granular_chain.py with <settings> replaced by
t_end = output_step = T and <output> removed). Runs are interleaved (library call,
`clink run`, over every N, ROUNDS times) and the medians over the rounds printed; CPU
time (user + system) comes from wait4's resource usage (microseconds), the peak RSS from
/usr/bin/time (a child forked from Python would report Python's own memory if larger).
docs/performance.md, "The user's path".

usage: run_interleaved.py BUILD [--t-end T] [--rounds R] [--ns 100,700,1000,2000,10000]
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def chain_model(tmp, n, t_end):
    """The chain of n beads with the defaults over t_end, written to tmp; its path."""
    gdir = os.path.join(tmp, f"g{n}")
    os.makedirs(gdir)
    subprocess.run([sys.executable, os.path.join(TOP, "validation", "make_granular_chain.py"),
                    gdir, str(n)], check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(gdir, "granular_chain.xml")) as f:
        text = f.read()
    text = re.sub(r"<settings [^>]*/>",
                  f'<settings t_end="{t_end}" output_step="{t_end}"/>', text)
    text = text.replace('<output rows="grid"/>', "")
    path = os.path.join(tmp, f"chain{n}.xml")
    with open(path, "w") as f:
        f.write(text)
    return path


def measure(cmd, tmp):
    """(wall s, cpu s, peak RSS MB) of one run of cmd; exits on failure."""
    rss_file = os.path.join(tmp, "rss")
    t0 = time.perf_counter()
    p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rss_file] + cmd,
                         stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"run_interleaved: {' '.join(cmd)} failed (status {status})")
    with open(rss_file) as f:
        rss = int(f.read().split()[-1]) / 1024
    return wall, ru.ru_utime + ru.ru_stime, rss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--t-end", default="1e-3")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--ns", default="100,700,1000,2000,10000")
    a = ap.parse_args()
    ns = [int(x) for x in a.ns.split(",")]
    lib = os.path.join(a.build, "bench", "bench_clearance_slider_crank")
    clink = os.path.join(a.build, "clink")
    res = {(n, w): [] for n in ns for w in ("lib", "run")}
    with tempfile.TemporaryDirectory() as tmp:
        models = {n: chain_model(tmp, n, a.t_end) for n in ns}
        # interleaved rounds: lib, run for each N, then again
        for _ in range(a.rounds):
            for n in ns:
                res[(n, "lib")].append(measure([lib, "--once", models[n]], tmp))
                out = os.path.join(tmp, f"out{n}")
                res[(n, "run")].append(measure([clink, "run", models[n], "-o", out, "-q"], tmp))
                subprocess.run(["rm", "-rf", out], check=True)
    print(f"{'N':>6} {'lib_wall':>9} {'lib_cpu':>8} {'lib_MB':>7} "
          f"{'run_wall':>9} {'run_cpu':>8} {'run_MB':>7} {'cpu_ratio':>9}")
    for n in ns:
        m = {w: [statistics.median(r[i] for r in res[(n, w)]) for i in range(3)]
             for w in ("lib", "run")}
        print(f"{n:>6} {m['lib'][0]:>9.4f} {m['lib'][1]:>8.4f} {m['lib'][2]:>7.1f} "
              f"{m['run'][0]:>9.4f} {m['run'][1]:>8.4f} {m['run'][2]:>7.1f} "
              f"{m['run'][1] / m['lib'][1]:>9.2f}")


if __name__ == "__main__":
    main()
