# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for validation/val_beam_static.c: the elastica of a cantilever
under a vertical dead load P at its tip (Bisshopp and Drucker 1945), inextensible and
unshearable, by shooting.

With theta(s) the angle of the tangent at arc length s from the clamp (theta(0) = 0), the
moment at s is M = EI theta' = -P (x_tip - x(s)) for a load (0, -P), so

    theta'' = (P / EI) cos(theta),  theta(0) = 0,  theta'(L) = 0 (no moment at the tip),

x' = cos(theta), y' = sin(theta). The unknown curvature at the clamp theta'(0) is found by
Brent's method on theta'(L) (SciPy brentq), each trial integrated by DOP853 at rtol 1e-12.
In the dimensionless form (L = 1, EI = 1) the load parameter is alpha = P L^2 / EI; the
tip displacements are written as fractions of L.

usage: ref_beam_elastica.py OUTDIR ALPHA [ALPHA ...]
Writes OUTDIR/beam_elastica_ref.csv with lines "key,value": <alpha>.dx, <alpha>.dy (tip
displacement over L, dx <= 0, dy <= 0), <alpha>.theta (tip rotation, rad).
"""
import os
import sys

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq


def shoot(kappa0, alpha):
    """theta'(1) and the tip state for the clamp curvature kappa0"""

    def rhs(_s, y):
        theta, dtheta = y[0], y[1]
        return [dtheta, alpha * np.cos(theta), np.cos(theta), np.sin(theta)]

    sol = solve_ivp(rhs, (0.0, 1.0), [0.0, kappa0, 0.0, 0.0], method="DOP853", rtol=1e-12,
                    atol=1e-14)
    return sol.y[:, -1]


def elastica(alpha):
    """(dx, dy, theta_tip) of the tip over L"""
    # theta'(0) lies in [-alpha, 0]: the moment at the clamp is at most P L
    kappa0 = brentq(lambda k: shoot(k, alpha)[1], -alpha, 0.0, xtol=1e-15, rtol=1e-15)
    y = shoot(kappa0, alpha)
    return y[2] - 1.0, y[3], y[0]


def main():
    out = sys.argv[1]
    lines = []
    for a in sys.argv[2:]:
        dx, dy, th = elastica(float(a))
        lines += [f"{a}.dx,{dx:.16e}", f"{a}.dy,{dy:.16e}", f"{a}.theta,{th:.16e}"]
    with open(os.path.join(out, "beam_elastica_ref.csv"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
