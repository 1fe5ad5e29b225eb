# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for validation/val_film_coefficients.c: the short bearing's
stiffness and damping coefficients by central differences of Ocvirk's closed-form pi-film
force (Pinkus and Sternlicht 1961), in NumPy alone, with its own frame and its own steady
position (the closed-form attitude angle), and the textbook closed forms of the same
coefficients (Friswell, Penny, Garvey and Lees 2010) evaluated here for comparison.

Dimensionless: K c / W and C c omega / W, in the frame (u, v) with the load W along -v
(v vertical up, u horizontal, right-handed, rotation counter-clockwise). Writes
OUTDIR/film_coefficients_ref.csv with lines "key,value": fd.<eps>.k_uu ... (differences),
cf.<eps>.k_uu ... (closed forms), for eps in 0.2, 0.5, 0.8.

usage: ref_film_coefficients.py OUTDIR
"""
import os
import sys

import numpy as np

PI = np.pi


def film_force(p, v, omega):
    """Ocvirk's pi-film force on the journal (K = mu R L^3 / c^2 = 1, c = 1) at position p
    and velocity v relative to the bearing, shaft speed omega."""
    e = np.hypot(p[0], p[1])
    gam = np.arctan2(p[1], p[0])
    er = np.array([np.cos(gam), np.sin(gam)])
    et = np.array([-np.sin(gam), np.cos(gam)])
    eps_dot = er @ v
    big_omega = omega - 2.0 * (et @ v) / e
    s = 1.0 - e * e
    f_r = -(e * e * big_omega / s**2 + PI * (1 + 2 * e * e) * eps_dot / (2 * s**2.5))
    f_t = PI * e * big_omega / (4 * s**1.5) + 2 * e * eps_dot / s**2
    return f_r * er + f_t * et


def differences(eps, omega=1.0, h=1e-6):
    """K, C (dimensionless, (u, v) frame) by central differences with step h (in c and in
    c omega): truncation O(h^2) ~ 1e-12, rounding ~ 1e-16 / h ~ 1e-10."""
    s = 1.0 - eps * eps
    w = omega * eps / s**2 * np.sqrt(PI**2 * s + 16 * eps * eps) / 4.0
    phi = np.arctan2(PI * np.sqrt(s), 4.0 * eps)
    # load along -v: the journal sits at phi from -v, turned in the sense of rotation
    p0 = eps * np.array([np.sin(phi), -np.cos(phi)])
    f0 = film_force(p0, np.zeros(2), omega)
    assert np.allclose(f0, [0.0, w], rtol=1e-12, atol=1e-12 * w), f0
    k = np.zeros((2, 2))
    c = np.zeros((2, 2))
    for j in range(2):
        d = np.zeros(2)
        d[j] = h
        z = np.zeros(2)
        k[:, j] = -(film_force(p0 + d, z, omega) - film_force(p0 - d, z, omega)) / (2 * h)
        c[:, j] = -(film_force(p0, d * omega, omega) - film_force(p0, -d * omega, omega)) / (2 * h)
    return k / w, c / w


def closed_forms(eps):
    """The short bearing's dimensionless coefficients (Friswell et al. 2010)."""
    s = 1.0 - eps * eps
    r = np.sqrt(s)
    h0 = 1.0 / (PI**2 * s + 16 * eps * eps) ** 1.5
    e2 = eps * eps
    k = h0 * np.array([
        [4 * (PI**2 * (2 - e2) + 16 * e2), PI * (PI**2 * s * s - 16 * e2 * e2) / (eps * r)],
        [-PI * (PI**2 * s * (1 + 2 * e2) + 32 * e2 * (1 + e2)) / (eps * r),
         4 * (PI**2 * (1 + 2 * e2) + 32 * e2 * (1 + e2) / s)]])
    g = PI**2 * (1 + 2 * e2) - 16 * e2
    c = h0 * np.array([
        [2 * PI * r * g / eps, -8 * g],
        [-8 * g, 2 * PI * (PI**2 * s * s + 48 * e2) / (eps * r)]])
    return k, c


def main():
    out = sys.argv[1]
    names = ["uu", "uv", "vu", "vv"]
    lines = []
    for eps in (0.2, 0.5, 0.8):
        for tag, (k, c) in (("fd", differences(eps)), ("cf", closed_forms(eps))):
            for n, a, b in zip(names, k.ravel(), c.ravel()):
                lines.append(f"{tag}.{eps:g}.k_{n},{a:.17g}")
                lines.append(f"{tag}.{eps:g}.c_{n},{b:.17g}")
    path = os.path.join(out, "film_coefficients_ref.csv")
    with open(path + ".tmp", "w", encoding="ascii") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
