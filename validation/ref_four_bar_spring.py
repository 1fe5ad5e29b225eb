# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for validation/val_analysis_four_bar_spring.c: the four-bar with a
diagonal spring-damper of models/four_bar_spring.xml, in the minimal coordinate th (the
crank angle), derived here by hand with NumPy/SciPy (no clink code).

Geometry: ground pivots O2 = (0, 0), O4 = (d, 0); crank a (O2 -> A), coupler b (A -> B),
rocker c (O4 -> B); uniform rods of 1 kg/m (J = m L^2 / 12); gravity g; a spring-damper
(k, free length l0, damping cd) from O2 to B.

  positions   A = a e(th); B the intersection of the circles |B - A| = b, |B - O4| = c on the
              model's branch (B above the line A O4); the coupler and rocker angles from A->B
              and O4->B
  velocity    the coefficients h3 = dth3/dth = a sin(th4 - th) / (b sin(th3 - th4)),
  coefficients h4 = dth4/dth = a sin(th - th3) / (c sin(th4 - th3)) (loop closure differentiated)
  potential   V'(th) = sum m g dy_G/dth + k (l - l0) dl/dth, l = |B|
  equilibrium V'(th) = 0 by brentq; K = V''(th) by a central difference of V' (h = 1e-6)
  mass        M(th) = sum m |dr_G/dth|^2 + J (dphi/dth)^2
  damping     C(th) = cd (dl/dth)^2
  eigenvalues lambda = (-C +- sqrt(C^2 - 4 M K)) / (2 M)

Writes OUTDIR/four_bar_spring_ref.csv: key,value lines.
"""

import math
import sys

import numpy as np
from scipy.optimize import brentq

a, b, c, d = 0.5, 1.0, 0.8, 0.9
g, k, l0, cd = 9.81, 50.0, 0.9, 0.3


def pose(th):
    """A, B and the three angles at crank angle th (B above the line A O4)."""
    A = np.array([a * math.cos(th), a * math.sin(th)])
    O4 = np.array([d, 0.0])
    e = O4 - A
    L = math.hypot(e[0], e[1])
    # B = A + x e/L + y n, n the left normal of A -> O4
    x = (b * b - c * c + L * L) / (2 * L)
    y = math.sqrt(b * b - x * x)
    n = np.array([-e[1], e[0]]) / L
    B = A + x * e / L + y * n
    th3 = math.atan2(B[1] - A[1], B[0] - A[0])
    th4 = math.atan2(B[1], B[0] - d)
    return A, B, th3, th4


def rates(th):
    """Centres of mass and their derivatives with respect to th."""
    A, B, th3, th4 = pose(th)
    h3 = a * math.sin(th4 - th) / (b * math.sin(th3 - th4))
    h4 = a * math.sin(th - th3) / (c * math.sin(th4 - th3))
    dA = a * np.array([-math.sin(th), math.cos(th)])
    dB = dA + b * h3 * np.array([-math.sin(th3), math.cos(th3)])
    bodies = [
        (a, 0.5 * A, 0.5 * dA, 1.0),
        (b, 0.5 * (A + B), 0.5 * (dA + dB), h3),
        (c, 0.5 * (B + np.array([d, 0.0])), 0.5 * dB, h4),
    ]
    return bodies, B, dB


def dV(th):
    bodies, B, dB = rates(th)
    s = sum(L * g * dr[1] for (L, r, dr, w) in bodies)
    l = math.hypot(B[0], B[1])
    dl = (B[0] * dB[0] + B[1] * dB[1]) / l
    return s + k * (l - l0) * dl


def main():
    out = sys.argv[1]
    ths = np.linspace(0.0, 2 * math.pi, 721)
    vals = [dV(t) for t in ths]
    roots = []
    for i in range(720):
        if vals[i] * vals[i + 1] < 0:
            r = brentq(dV, ths[i], ths[i + 1], xtol=1e-15, rtol=1e-15)
            K = (dV(r + 1e-6) - dV(r - 1e-6)) / 2e-6
            if K > 0:
                roots.append((r, K))
    # the stable equilibrium nearest the model's start (60 degrees)
    th, K = min(roots, key=lambda rk: abs(rk[0] - math.radians(60)))
    bodies, B, dB = rates(th)
    M = sum(L * (dr[0] ** 2 + dr[1] ** 2) + L**3 / 12 * w * w for (L, r, dr, w) in bodies)
    l = math.hypot(B[0], B[1])
    dl = (B[0] * dB[0] + B[1] * dB[1]) / l
    C = cd * dl * dl
    disc = complex(C * C - 4 * M * K)
    lam = (-C + np.sqrt(disc)) / (2 * M)
    _, _, th3, th4 = pose(th)
    with open(out + "/four_bar_spring_ref.csv", "w") as f:
        f.write("theta,%.17g\n" % th)
        f.write("theta3,%.17g\n" % th3)
        f.write("theta4,%.17g\n" % th4)
        f.write("K,%.17g\nM,%.17g\nC,%.17g\n" % (K, M, C))
        f.write("lambda_re,%.17g\nlambda_im,%.17g\n" % (lam.real, abs(lam.imag)))
        f.write("roots,%d\n" % len(roots))


main()
