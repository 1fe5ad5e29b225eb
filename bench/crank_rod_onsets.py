#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Impact onsets of the slider-crank with the clearance at the crank-rod joint
(bench/slider_crank_clearance_crank_rod.xml, 0.048 s) per drift mode, against two tight
references, at rtol and at rtol x 0.9, 0.95, 1.05, 1.1 (docs/kernel.md, "Booked against
actual"): is projection less accurate there, or is one count at one tolerance chance?

BDF throughout, atol = rtol / 100 (the exact values passed are printed). Onsets are
those clink locates (impacts.csv, t_onset), not sampled. For each run: the leading
onsets within 1e-9 s and within 1e-6 s of each reference, and the median of
|onset - reference| over the first 10 onsets.

usage: crank_rod_onsets.py BUILD_DIR [RTOL ...]   (default RTOL: 1e-8 1e-10)
"""
import os
import statistics
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
MODEL = os.path.join(TOP, "bench", "slider_crank_clearance_crank_rod.xml")
FACTORS = (0.9, 0.95, 1.0, 1.05, 1.1)


def onsets(build, tmp, drift, rtol):
    atol = rtol / 100.0
    text = open(MODEL).read().replace(
        'method="adams" rtol="1e-9" atol="1e-12" drift="baumgarte"',
        'method="bdf" rtol="%r" atol="%r" drift="%s"' % (rtol, atol, drift))
    path = os.path.join(tmp, "m.xml")
    with open(path, "w") as f:
        f.write(text)
    out = os.path.join(tmp, "out")
    subprocess.run([os.path.join(build, "clink"), "run", path, "-q", "-o", out, "--rows", "grid"],
                   check=True)
    with open(os.path.join(out, "impacts.csv")) as f:
        return [float(line.split(",")[0]) for line in list(f)[1:] if line.strip()]


def agree(a, b, w):
    n = 0
    while n < len(a) and n < len(b) and abs(a[n] - b[n]) <= w:
        n += 1
    return n


def main():
    build = sys.argv[1]
    rtols = [float(x) for x in sys.argv[2:]] or [1e-8, 1e-10]
    with tempfile.TemporaryDirectory() as tmp:
        refs = {d: onsets(build, tmp, d, 1e-12) for d in ("none", "projection")}
        print("references (rtol 1e-12, atol 1e-14): none %d onsets, projection %d; they agree on "
              "%d within 1e-9 s, %d within 1e-6 s" % (len(refs["none"]), len(refs["projection"]),
                                                      agree(refs["none"], refs["projection"], 1e-9),
                                                      agree(refs["none"], refs["projection"], 1e-6)))
        print("%-11s %-24s %s" % ("drift", "rtol", "vs none-ref: n(1e-9) n(1e-6) med10 | vs projection-ref: n(1e-9) n(1e-6) med10"))
        for r0 in rtols:
            for drift in ("none", "baumgarte", "projection"):
                for fct in FACTORS:
                    r = r0 * fct
                    a = onsets(build, tmp, drift, r)
                    cols = []
                    for ref in (refs["none"], refs["projection"]):
                        med = statistics.median(abs(x - y) for x, y in zip(a[:10], ref[:10]))
                        cols.append("%3d %3d %9.2e" % (agree(a, ref, 1e-9), agree(a, ref, 1e-6), med))
                    print("%-11s %-24r %s | %s" % (drift, r, cols[0], cols[1]), flush=True)


if __name__ == "__main__":
    main()
