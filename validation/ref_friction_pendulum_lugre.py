#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for a pendulum with LuGre friction in its revolute joint
(validation/val_friction_pendulum_lugre.c).

Not clink's formulation: one angle theta from the downward vertical and the bristle
deflection z instead of three coordinates, constraint multipliers and the integrator's
friction state. A body of mass m, inertia J about its centre, pinned at distance l above
its centre; the pin (radius r, preload P) carries the LuGre friction torque of Canudas de
Wit, Olsson, Astrom and Lischinsky (1995), written per unit normal force:
    v = r theta',  g(v) = mu + (mu_s - mu) exp(-(|v| / v_s)^2),
    z' = v - sigma0 |v| z / g(v),
    T = r (-F_n (sigma0 z + sigma1 z') - sigma2 v),  F_n = |R| + P,
with R the pin's reaction from Newton's law of the centre p = l (sin theta, -cos theta):
    R = m p'' + (0, m g),   p'' = l theta'' (cos, sin) + l theta'^2 (-sin, cos),
    (J + m l^2) theta'' = -m g l sin theta + T(|R|).
The implicit dependence of T on R (through theta'') is solved at each evaluation for
theta'' by Brent's method on the scalar residual (not by clink's fixed-point iteration).
Integrated with SciPy's Radau at rtol = 1e-11, atol = 1e-14 (z is of order 1e-6 m).

Writes OUTDIR/friction_pendulum_lugre_ref.csv: turn_K and time_K (the angle and time of
the K-th reversal of theta', K = 1..N, located by the event theta' = 0, while the
pendulum still swings: the reversals before it sticks), n_turns, theta_end and z_end
(at T_END).
Usage: ref_friction_pendulum_lugre.py OUTDIR
"""
import math
import sys

try:
    from scipy.integrate import solve_ivp
    from scipy.optimize import brentq
except ImportError as exc:
    sys.exit(f"ref_friction_pendulum_lugre.py: {exc}; install python3-scipy (scripts/install-deps)")

M, J, L, G = 1.0, 1.0 / 12.0, 0.5, 9.81
R_PIN, PRELOAD = 0.02, 1.0
MU, MU_S, V_S, SIGMA0, SIGMA1, SIGMA2 = 0.3, 0.4, 1e-3, 1e5, 316.0, 0.05
TH0, T_END = 0.5, 20.0


def zdot(w, z):
    v = R_PIN * w
    g = MU + (MU_S - MU) * math.exp(-((abs(v) / V_S) ** 2))
    return v - SIGMA0 * abs(v) * z / g


def residual(acc, th, w, z):
    c, s = math.cos(th), math.sin(th)
    rx = M * (L * acc * c - L * w * w * s)
    ry = M * (L * acc * s + L * w * w * c) + M * G
    fn = math.hypot(rx, ry) + PRELOAD
    force = -fn * (SIGMA0 * z + SIGMA1 * zdot(w, z)) - SIGMA2 * R_PIN * w
    return (J + M * L * L) * acc - (-M * G * L * math.sin(th) + R_PIN * force)


def rhs(t, y):
    th, w, z = y
    lim = 20.0 * G / L
    acc = brentq(residual, -lim, lim, args=(th, w, z), xtol=1e-15, rtol=1e-15)
    return [w, acc, zdot(w, z)]


def turn(t, y):
    return y[1]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    sol = solve_ivp(rhs, (0.0, T_END), [TH0, 0.0, 0.0], method="Radau", rtol=1e-11,
                    atol=[1e-13, 1e-13, 1e-16], events=turn)
    if not sol.success:
        sys.exit(f"ref_friction_pendulum_lugre.py: {sol.message}")
    # the reversals of the swing: until the pendulum sticks, theta' crosses zero at
    # turning points about 0.8 s apart; once it sticks it rings in the bristle spring
    # (crossings some 0.09 s apart), which are not reversals of the swing
    turns, last = [], 0.0
    for t, y in zip(sol.t_events[0], sol.y_events[0]):
        if t < 1e-6:
            continue
        if t - last < 0.3:
            break
        turns.append((t, y[0]))
        last = t
    with open(f"{out}/friction_pendulum_lugre_ref.csv", "w") as fh:
        for k, (t, th) in enumerate(turns):
            fh.write(f"turn_{k + 1},{th:.17g}\n")
            fh.write(f"time_{k + 1},{t:.17g}\n")
        fh.write(f"n_turns,{len(turns)}\n")
        fh.write(f"theta_end,{sol.y[0][-1]:.17g}\n")
        fh.write(f"z_end,{sol.y[2][-1]:.17g}\n")


if __name__ == "__main__":
    main()
