#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The benchmark impact of bench/bench_impact.c in SciPy, for the speed ratio.

Feng's power-law Tsuji oscillator (Feng 2026, Eq. 1), p = 1.5, alpha from Eq. 14
for each target restitution e, m = 1 kg, K = 1e6 N/m^1.5, v0 = 1 m/s:
    m x'' + alpha sqrt(m K) x^((p-1)/2) x' + K x^p = 0,  x(0) = 0, x'(0) = v0,
integrated with solve_ivp(DOP853) to the separation event x = 0 (terminal,
direction -1) with the end of compression x' = 0 located as a second event.

Two modes, each printing one JSON object on one line:
  --find: for each e of --es, the loosest rtol of the ladder (1e-13 up to 1e-6,
          atol = rtol times the natural scales) such that it and every tighter one
          give |e_out - e| <= --accuracy;
  --rtols R1,R2,...: seconds per impact (median of --reps calls) for each e at its rtol.
Each case records the rtol and the atol (a list: displacement, velocity) exactly as
passed to solve_ivp.
"""
import argparse
import json
import math
import statistics
import time

import numpy as np
from scipy.integrate import solve_ivp

P, M, K, V0 = 1.5, 1.0, 1e6, 1.0
LADDER = [1e-6, 3e-7, 1e-7, 3e-8, 1e-8, 3e-9, 1e-9, 3e-10, 1e-10, 3e-11, 1e-11, 1e-12, 1e-13]


def impact(e, rtol):
    ln = math.log(e)
    alpha = math.sqrt(2 * (P + 1)) * (-ln) / math.sqrt(math.pi**2 + ln * ln)
    c = alpha * math.sqrt(M * K)
    mexp = (P - 1) / 2
    dscale = ((P + 1) * M * V0 * V0 / (2 * K)) ** (1 / (P + 1))

    def rhs(t, y):
        d, v = y.tolist()  # Python floats: math on numpy scalars costs several times more
        ad = abs(d)
        f = math.copysign(K * ad**P, d) + c * ad**mexp * v
        return [v, -f / M]

    def sep(t, y):
        return y[0]

    sep.terminal = True
    sep.direction = -1

    def comp(t, y):
        return y[1]

    comp.direction = -1
    atol = [rtol * dscale, rtol * V0]
    sol = solve_ivp(rhs, (0.0, 1000 * dscale / V0), [0.0, V0], method="DOP853", rtol=rtol,
                    atol=atol, events=[sep, comp])
    return -sol.y_events[0][0][1] / V0, sol.nfev, atol


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--es", default="0.3,0.4,0.5,0.6,0.7,0.8,0.9")
    ap.add_argument("--accuracy", type=float, default=1e-8)
    ap.add_argument("--find", action="store_true")
    ap.add_argument("--rtols", default="")
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    es = [float(x) for x in a.es.split(",")]
    out = {"scipy": __import__("scipy").__version__, "numpy": np.__version__, "cases": []}
    if a.find:
        for e in es:
            found = None
            for r in reversed(LADDER):
                eo, nfev, atol = impact(e, r)
                if abs(eo - e) > a.accuracy:
                    break
                found = (r, eo, nfev, atol)
            out["cases"].append({"e": e, "rtol": found[0] if found else None,
                                 "atol": found[3] if found else None,
                                 "e_error": abs(found[1] - e) if found else None,
                                 "nfev": found[2] if found else None})
    else:
        rtols = [float(x) for x in a.rtols.split(",")]
        for e, r in zip(es, rtols):
            times = []
            for _ in range(a.reps):
                s = time.perf_counter()
                eo, nfev, atol = impact(e, r)
                times.append(time.perf_counter() - s)
            out["cases"].append({"e": e, "rtol": r, "atol": atol, "seconds": statistics.median(times),
                                 "e_error": abs(eo - e), "nfev": nfev})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
