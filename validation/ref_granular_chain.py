#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for the elastic granular chain of Wang, Liu and Liu
(2022), Sect. 5.2 (models/granular_chain.xml, validation/granular_chain_model.h):
its steady solitary wave's peak contact force and speed.

Not clink's formulation: a one-dimensional chain of point masses in the
displacements u from the initial positions (clink integrates free planar bodies
in absolute coordinates with circle-circle geometry), the Hertz forces written
out here: F = K delta^(3/2), K = (4/3) E* sqrt(R*), 1/E* = 2 (1 - nu^2) / E,
R* = R/2 bead to bead and R* = R bead to wall (a half-space of the same steel).
Beads of stainless steel 316, R = 2.38 mm, E = 193 GPa, nu = 0.3, density 8000
kg/m^3 (m = 4/3 pi R^3 rho); 70 beads touching, the last against the wall, a
striker bead 10 um away at speed v. SciPy DOP853 at rtol 1e-12, atol 1e-18 m
(displacements) and 1e-12 m/s; contact forces sampled every 1 us from 1 us.
The wave is measured as val_granular_chain.c measures clink's (the same
definition, written again here): per contact the first local maximum above 20%
of the contact's largest force, refined by the parabola through the three
samples; the speed is the least-squares slope of the contact positions
(2 R k) against those peak times over contacts 10..55; F_m their mean.

Usage: ref_granular_chain.py OUTDIR [v1,v2,...] [T1,T2,...]
Writes OUTDIR/granular_chain_ref.csv: lines "v<i>.F_m,...", "v<i>.V,..." for
each striker speed in the order given, and "mass,...", "K,...".
"""
import math
import os
import sys

try:
    import numpy as np
    from scipy.integrate import solve_ivp
except ImportError as exc:
    sys.exit(f"ref_granular_chain.py: {exc}; install python3-scipy (scripts/install-deps)")

N = 70
R, E, NU, RHO = 2.38e-3, 193e9, 0.3, 8000.0
GAP = 10e-6
DT = 1e-6
MASS = 4.0 / 3.0 * math.pi * R**3 * RHO
ESTAR = E / (2.0 * (1.0 - NU * NU))
K_BB = 4.0 / 3.0 * ESTAR * math.sqrt(R / 2.0)
K_WALL = 4.0 / 3.0 * ESTAR * math.sqrt(R)


def overlaps(u):
    """u[0] the striker, u[1..N] the beads (displacements along +x, the striker
    moving towards -x); overlap of contact k (k = 0: striker - bead 1, ...,
    N - 1: bead N-1 - bead N) and of the wall (index N)."""
    d = np.empty(N + 1)
    d[:N] = u[1:] - u[:-1]
    d[0] -= GAP
    d[N] = -u[N]
    return d


def forces(u):
    d = overlaps(u)
    k = np.full(N + 1, K_BB)
    k[N] = K_WALL
    return k * np.where(d > 0.0, d, 0.0) ** 1.5


def rhs(t, y):
    u, w = y[:N + 1], y[N + 1:]
    f = forces(u)
    a = np.zeros(N + 1)
    # contact k pushes body k towards +x and body k+1 towards -x; the wall pushes bead N to +x
    a[:N] += f[:N]
    a[1:] -= f[:N]
    a[N] += f[N]
    return np.concatenate([w, a / MASS])


def run(v, t_end):
    y0 = np.zeros(2 * (N + 1))
    y0[N + 1] = -v
    nt = int(round(t_end / DT))
    ts = DT * np.arange(1, nt + 1)
    atol = np.concatenate([np.full(N + 1, 1e-18), np.full(N + 1, 1e-12)])
    sol = solve_ivp(rhs, (0.0, ts[-1]), y0, method="DOP853", rtol=1e-12, atol=atol, t_eval=ts)
    if sol.status != 0:
        raise RuntimeError(sol.message)
    return np.array([forces(sol.y[:N + 1, i]) for i in range(nt)]).T  # [contact][sample]


def first_peak(f):
    top = f.max()
    for i in range(1, len(f) - 1):
        y0, y1, y2 = f[i - 1], f[i], f[i + 1]
        if y1 > 0.2 * top and y1 >= y0 and y1 > y2:
            den = y0 - 2.0 * y1 + y2
            s = 0.5 * (y0 - y2) / den if den < 0.0 else 0.0
            return (i + 1 + s) * DT, y1 - 0.25 * (y0 - y2) * s
    raise RuntimeError("no peak")


def wave(F):
    ts, xs, ps = [], [], []
    for k in range(10, 56):
        t, p = first_peak(F[k])
        ts.append(t)
        xs.append(2.0 * R * k)
        ps.append(p)
    V = np.polyfit(ts, xs, 1)[0]
    return float(np.mean(ps)), float(V)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    vs = [float(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "1.77").split(",")]
    Ts = [float(x) for x in (sys.argv[3] if len(sys.argv) > 3 else "0.6e-3").split(",")]
    lines = [f"mass,{MASS:.17g}", f"K,{K_BB:.17g}"]
    for i, (v, T) in enumerate(zip(vs, Ts)):
        Fm, V = wave(run(v, T))
        lines += [f"v{i}.F_m,{Fm:.17g}", f"v{i}.V,{V:.17g}"]
    path = os.path.join(out, "granular_chain_ref.csv")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
