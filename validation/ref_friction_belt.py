#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for the stick-slip of a mass on a moving belt through a
spring (validation/val_friction_belt.c), for the friction laws stribeck, lugre and
stribeck-tanh.

Not clink's formulation: one coordinate x of the mass (m = 1 kg) on a belt moving at
vb = 0.1 m/s, tied to the ground by a spring k = 2 N/m (free at x = 0), a rigid normal
contact with F_n = m g = 1 N (g = 1 m/s^2), and the friction law written anew from its
equations (docs/friction.md), v = x' - vb the slip of the mass on the belt:

    stribeck  F = -F_n mu(v) sat(v / v1) - sigma2 v,
    lugre     z' = v - sigma0 |v| z / mu(v),  F = -F_n (sigma0 z + sigma1 z') - sigma2 v,
    stribeck-tanh  F = -F_n mu(v) tanh(v / eps) - sigma2 v  (eps = 1e-4 m/s),
    mu(v) = mu + (mu_s - mu) exp(-(v / v_s)^2),

m x'' = -k x + F, from rest at x = 0 (z = 0), integrated with SciPy's Radau at
rtol = 1e-10, atol = 1e-12 over 40 s. The period is the mean spacing of the maxima of x
after t = 10 s, the amplitude half the mean difference of its maxima and minima there.

Writes OUTDIR/friction_belt_ref.csv, lines "key,value": LAW_period, LAW_amplitude,
LAW_xmax. Usage: ref_friction_belt.py OUTDIR
"""
import math
import sys

try:
    import numpy as np
    from scipy.integrate import solve_ivp
except ImportError as exc:
    sys.exit(f"ref_friction_belt.py: {exc}; install python3-scipy (scripts/install-deps)")

M, K, VB, FN = 1.0, 2.0, 0.1, 1.0
MU, MU_S, V_S, S0, S1, S2, V1 = 1.0, 1.5, 1e-3, 1e5, math.sqrt(1e5), 0.4, 1e-4
EPS = 1e-4


def mu_of(v):
    return MU + (MU_S - MU) * math.exp(-(v / V_S) ** 2)


def rhs_stribeck(t, y):
    x, xd = y
    v = xd - VB
    s = max(-1.0, min(1.0, v / V1))
    f = -FN * mu_of(v) * s - S2 * v
    return [xd, (-K * x + f) / M]


def rhs_stribeck_tanh(t, y):
    x, xd = y
    v = xd - VB
    f = -FN * mu_of(v) * math.tanh(v / EPS) - S2 * v
    return [xd, (-K * x + f) / M]


def rhs_lugre(t, y):
    x, xd, z = y
    v = xd - VB
    zd = v - S0 * abs(v) * z / mu_of(v)
    f = -FN * (S0 * z + S1 * zd) - S2 * v
    return [xd, (-K * x + f) / M, zd]


def measure(t, x):
    """period and amplitude of x after t = 10 s from its sampled extrema"""
    sel = t > 10.0
    t, x = t[sel], x[sel]
    imax = [i for i in range(1, len(x) - 1) if x[i] > x[i - 1] and x[i] >= x[i + 1]]
    imin = [i for i in range(1, len(x) - 1) if x[i] < x[i - 1] and x[i] <= x[i + 1]]
    tmax = [t[i] for i in imax]
    period = (tmax[-1] - tmax[0]) / (len(tmax) - 1)
    amp = 0.5 * (np.mean([x[i] for i in imax]) - np.mean([x[i] for i in imin]))
    return period, amp, max(x[i] for i in imax)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    t_eval = np.arange(0.0, 40.0 + 1e-9, 1e-3)
    rows = []
    for name, f, y0 in (("stribeck", rhs_stribeck, [0.0, 0.0]),
                        ("lugre", rhs_lugre, [0.0, 0.0, 0.0]),
                        ("stribeck_tanh", rhs_stribeck_tanh, [0.0, 0.0])):
        sol = solve_ivp(f, (0.0, 40.0), y0, method="Radau", t_eval=t_eval, rtol=1e-10,
                        atol=1e-12)
        if not sol.success:
            sys.exit(f"ref_friction_belt.py: {name}: {sol.message}")
        p, a, xm = measure(sol.t, sol.y[0])
        rows += [(f"{name}_period", p), (f"{name}_amplitude", a), (f"{name}_xmax", xm)]
    with open(f"{out}/friction_belt_ref.csv", "w") as fh:
        for k, v in rows:
            fh.write(f"{k},{v:.17g}\n")


if __name__ == "__main__":
    main()
