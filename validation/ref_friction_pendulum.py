#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for a pendulum with friction in its revolute joint
(validation/val_friction_pendulum.c).

Not clink's formulation: one angle theta from the downward vertical instead of three
coordinates and constraint multipliers. A body of mass m, inertia J about its centre,
pinned at distance l above its centre; the pin (radius r) carries the friction torque
T = r F_t(r theta', |R|), F_t(v, F_n) = -mu F_n tanh(v / v1) (coulomb-tanh), with R the
pin's reaction from Newton's law of the centre p = l (sin theta, -cos theta):
    R = m p'' + (0, m g),   p'' = l theta'' (cos, sin) + l theta'^2 (-sin, cos),
    (J + m l^2) theta'' = -m g l sin theta + T(|R|).
The implicit dependence of T on R (through theta'') is solved at each evaluation for
theta'' by Brent's method on the scalar residual (not by clink's fixed-point iteration).
Integrated with SciPy's Radau at rtol = 1e-11, atol = 1e-13 over 20 s.

Writes OUTDIR/friction_pendulum_ref.csv: turn_K (the angle at the K-th reversal of
theta', K = 1..N, located by the event theta' = 0), n_turns, theta_end (at 20 s).
Usage: ref_friction_pendulum.py OUTDIR
"""
import math
import sys

try:
    from scipy.integrate import solve_ivp
    from scipy.optimize import brentq
except ImportError as exc:
    sys.exit(f"ref_friction_pendulum.py: {exc}; install python3-scipy (scripts/install-deps)")

M, J, L, G = 1.0, 1.0 / 12.0, 0.5, 9.81
R_PIN, MU, V1 = 0.02, 0.3, 1e-5
TH0, T_END = 0.5, 20.0


def residual(acc, th, w):
    c, s = math.cos(th), math.sin(th)
    rx = M * (L * acc * c - L * w * w * s)
    ry = M * (L * acc * s + L * w * w * c) + M * G
    fn = math.hypot(rx, ry)
    torque = R_PIN * (-MU * fn * math.tanh(R_PIN * w / V1))
    return (J + M * L * L) * acc - (-M * G * L * math.sin(th) + torque)


def rhs(t, y):
    th, w = y
    lim = 10.0 * G / L
    return [w, brentq(residual, -lim, lim, args=(th, w), xtol=1e-15, rtol=1e-15)]


def turn(t, y):
    return y[1]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    sol = solve_ivp(rhs, (0.0, T_END), [TH0, 0.0], method="Radau", rtol=1e-11, atol=1e-13,
                    events=turn, dense_output=True)
    if not sol.success:
        sys.exit(f"ref_friction_pendulum.py: {sol.message}")
    # reversals: theta' crosses zero with the pendulum swinging (not the creep at the end)
    turns = [y[0] for t, y in zip(sol.t_events[0], sol.y_events[0]) if t > 1e-6]
    with open(f"{out}/friction_pendulum_ref.csv", "w") as fh:
        for k, th in enumerate(turns[:12]):
            fh.write(f"turn_{k + 1},{th:.17g}\n")
        fh.write(f"n_turns,{min(len(turns), 12)}\n")
        fh.write(f"theta_end,{sol.y[0][-1]:.17g}\n")


if __name__ == "__main__":
    main()
