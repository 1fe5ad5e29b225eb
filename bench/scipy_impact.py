#!/usr/bin/env python3
"""The benchmark impact of bench/bench_impact.c in SciPy, for the speed ratio.

Feng's power-law Tsuji oscillator (seed 000 Eq. 1), p = 1.5, e = 0.5,
alpha from Eq. 14, m = 1 kg, K = 1e6 N/m^1.5, v0 = 1 m/s:
    m x'' + alpha sqrt(m K) x^((p-1)/2) x' + K x^p = 0,  x(0) = 0, x'(0) = v0,
integrated with solve_ivp(DOP853) to the separation event x = 0 (terminal,
direction -1) with the end of compression x' = 0 located as a second event.
Prints one JSON object: seconds per impact, e_out, delta_max, statistics.
Usage: scipy_impact.py [--reps N] [--rtol R]
"""
import argparse
import json
import math
import time

import numpy as np
from scipy.integrate import solve_ivp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--rtol", type=float, default=1e-12)
    a = ap.parse_args()
    p, e, m, K, v0 = 1.5, 0.5, 1.0, 1e6, 1.0
    ln = math.log(e)
    alpha = math.sqrt(2 * (p + 1)) * (-ln) / math.sqrt(math.pi**2 + ln * ln)
    c = alpha * math.sqrt(m * K)
    mexp = (p - 1) / 2
    dscale = ((p + 1) * m * v0 * v0 / (2 * K)) ** (1 / (p + 1))

    def rhs(t, y):
        d, v = y
        ad = abs(d)
        f = math.copysign(K * ad**p, d) + c * ad**mexp * v
        return [v, -f / m]

    def sep(t, y):
        return y[0]

    sep.terminal = True
    sep.direction = -1

    def comp(t, y):
        return y[1]

    comp.direction = -1

    atol = [a.rtol * dscale, a.rtol * v0]
    t_end = 1000 * dscale / v0
    best = float("inf")
    sol = None
    t0 = time.perf_counter()
    for _ in range(a.reps):
        s = time.perf_counter()
        sol = solve_ivp(rhs, (0.0, t_end), [0.0, v0], method="DOP853", rtol=a.rtol,
                        atol=atol, events=[sep, comp])
        best = min(best, time.perf_counter() - s)
    total = time.perf_counter() - t0
    ysep = sol.y_events[0][0]
    ymax = sol.y_events[1][0]
    print(json.dumps({
        "seconds_per_impact_mean": total / a.reps,
        "seconds_per_impact_best": best,
        "reps": a.reps,
        "rtol": a.rtol,
        "e_out": -ysep[1] / v0,
        "delta_max": float(ymax[0]),
        "duration": float(sol.t_events[0][0]),
        "nfev": int(sol.nfev),
        "scipy": __import__("scipy").__version__,
        "numpy": np.__version__,
    }))


if __name__ == "__main__":
    main()
