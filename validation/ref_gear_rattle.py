#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for the spur gear pair with backlash (models/gear_rattle.xml):
the single-degree-of-freedom mesh of Kahraman and Singh (1990) in its non-dimensional form,
driven through a prescribed oscillation of the pinion.

Not clink's formulation. The pinion's angle is prescribed, phi1 = A sin(W t); the gear
(inertia I2, base radius r2) is free on its bearing under a constant torque T2. With the
dynamic transmission error x = r1 phi1 + r2 phi2 (along the line of action), the equation of
the gear is one equation in x:

    m_e x'' + F(x, x') = T2 / r2 - m_e r1 A W^2 sin(W t),    m_e = I2 / r2^2,

and in Kahraman and Singh's variables (x_ = x / b, tau = w_n t, w_n^2 = k / m_e, b half the
backlash):

    x_'' + f(x_, x_') = F_m - F_a sin(W_ tau),   F_m = T2 / (r2 k b),
    F_a = m_e r1 A W^2 / (k b),  W_ = W / w_n,

the mesh force f of two flanks with the backlash as a dead zone: the drive flank in
contact from x_ rising through 1 until it falls back through 1, with the force
(x_ - 1) + 2 zeta x_' (a Kelvin-Voigt mesh: stiffness k, damping c = 2 zeta sqrt(k m_e),
pulling within an episode, as clink's law with zero_force = 0), the back flank from x_
falling through -1 until it rises back, with (x_ + 1) + 2 zeta x_', none in between. SciPy
DOP853 (rtol 1e-11, atol 1e-13, steps at most 1/200 of a natural period) with the four
crossings as terminal events, restarted after each; the extremes of x_ from the steps and
the dense output on a grid of 1e-3.

The mesh stiffness over the mesh cycle (Kahraman and Singh 1991's time-varying stiffness):
with the pinion turning at a constant speed (A = 0), the cycle's fraction is
u = frac(W_m tau / (2 pi) + phase), W_m the mesh frequency over w_n, and the mesh force is
s(u) f(x_, x_'), s = 1 + 2 a (h(u) - d), d = contact ratio - floor(contact ratio), h the
indicator of [0, d) with each of its two steps replaced by a 3-4-5 polynomial ramp over the
width w (a fraction of the cycle) centred on the step: written here from that statement, h
the periodic sum of the smooth steps up at k and down at k + d (its terms k = -1, 0, 1). Only w > 0 (a
rectangular wave would need events at its steps).

Usage: ref_gear_rattle.py OUTDIR --Fm F --Fa F --W W --zeta Z --x0 X --v0 V --t-end T --out N
[--amp a --ratio eps --Wm W_m --smooth w --phase p]
(non-dimensional; x0, v0 the initial x_ and x_'). Writes OUTDIR/N, lines "key,value":
imp.K.t, imp.K.flank (1 drive, 2 back), imp.K.v (approach speed |x_'|) of the K-th impact,
n_imp; n_drive, n_back the impacts on each flank whose episode ended before the end (those
clink has recorded); max, min of x_ over the second half of the run.
"""
import argparse
import math
import os
import sys

import numpy as np
from scipy.integrate import solve_ivp


def smooth_step(y):
    """0 below 0, 1 above 1, 10 y^3 - 15 y^4 + 6 y^5 between"""
    y = min(max(y, 0.0), 1.0)
    return y * y * y * (10.0 - 15.0 * y + 6.0 * y * y)


def stiffness_factor(mesh, t):
    """s at non-dimensional time t; mesh = (a, ratio, Wm, w, phase) or None"""
    if mesh is None:
        return 1.0
    a, ratio, Wm, w, phase = mesh
    d = ratio - math.floor(ratio)
    u = Wm * t / (2.0 * math.pi) + phase
    u -= math.floor(u)
    # the periodic sum over k of (up at k) - (down at k + d), its terms for k = -1, 0, 1
    h = 0.0
    for k in (-1.0, 0.0, 1.0):
        h += smooth_step((u - k) / w + 0.5) - smooth_step((u - k - d) / w + 0.5)
    return 1.0 + 2.0 * a * (h - d)


def run(Fm, Fa, W, zeta, x0, v0, t_end, mesh=None):
    def force(x, v, mode):
        if mode == 1:
            return (x - 1.0) + 2.0 * zeta * v
        if mode == 2:
            return (x + 1.0) + 2.0 * zeta * v
        return 0.0

    def rhs(mode):
        if mesh is None:
            return lambda t, z: [z[1], Fm - Fa * math.sin(W * t) - force(z[0], z[1], mode)]
        return lambda t, z: [z[1], Fm - Fa * math.sin(W * t) -
                             stiffness_factor(mesh, t) * force(z[0], z[1], mode)]

    def ev(level, direction):
        f = lambda t, z: z[0] - level
        f.terminal, f.direction = True, direction
        return f

    # mode 0 free, 1 drive flank, 2 back flank
    t, z = 0.0, [x0, v0]
    mode = 1 if x0 > 1.0 else (2 if x0 < -1.0 else 0)
    imps, xs = [], []
    while t < t_end:
        events = {0: [ev(1.0, 1), ev(-1.0, -1)], 1: [ev(1.0, -1)], 2: [ev(-1.0, 1)]}[mode]
        sol = solve_ivp(rhs(mode), (t, t_end), z, method="DOP853", rtol=1e-11, atol=1e-13,
                        max_step=2.0 * math.pi / 200.0, events=events, dense_output=True)
        if sol.status < 0:
            sys.exit("ref_gear_rattle: " + sol.message)
        # x_ on a grid of 1e-3 (dense output) besides the steps, for its extremes
        grid = np.arange(sol.t[0], sol.t[-1], 1e-3)
        xs.append((np.concatenate([sol.t, grid]), np.concatenate([sol.y[0], sol.sol(grid)[0]])))
        hit = [(te[0], i) for i, te in enumerate(sol.t_events) if len(te) > 0]
        if sol.status != 1 or not hit:
            break
        te, i = min(hit)
        ze = list(sol.y_events[i][0])
        if mode == 0:
            mode = 1 if i == 0 else 2
            imps.append([te, mode, abs(ze[1]), False])
        else:
            imps[-1][3] = True  # the episode ended: clink writes its record now
            mode = 0
        t, z = te, ze
    return imps, xs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    for k in ("Fm", "Fa", "W", "zeta", "x0", "v0", "t-end"):
        ap.add_argument("--" + k, type=float, required=True)
    ap.add_argument("--out", required=True)
    for k in ("amp", "ratio", "Wm", "smooth", "phase"):
        ap.add_argument("--" + k, type=float, default=0.0)
    a = ap.parse_args()
    mesh = None
    if a.amp > 0.0:
        if not a.smooth > 0.0:
            sys.exit("ref_gear_rattle: a varying stiffness needs --smooth > 0")
        mesh = (a.amp, a.ratio, a.Wm, a.smooth, a.phase)
    imps, xs = run(a.Fm, a.Fa, a.W, a.zeta, a.x0, a.v0, a.t_end, mesh)
    half = 0.5 * a.t_end
    hi = max(max(y[t >= half]) for t, y in xs if (t >= half).any())
    lo = min(min(y[t >= half]) for t, y in xs if (t >= half).any())
    with open(os.path.join(a.outdir, a.out), "w") as f:
        for k, (t, fl, v, _) in enumerate(imps, 1):
            f.write(f"imp.{k}.t,{t!r}\nimp.{k}.flank,{fl}\nimp.{k}.v,{v!r}\n")
        f.write(f"n_imp,{len(imps)}\n")
        f.write(f"n_drive,{sum(1 for i in imps if i[1] == 1 and i[3])}\n")
        f.write(f"n_back,{sum(1 for i in imps if i[1] == 2 and i[3])}\n")
        f.write(f"max,{hi!r}\nmin,{lo!r}\n")


if __name__ == "__main__":
    main()
