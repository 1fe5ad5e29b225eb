#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent evaluation of the conformal cylinder laws (docs/contact-laws.md,
"Cylinder laws"; Pereira, Ramalho and Ambrosio 2011 and the sources it compares):
the force F at penetrations delta of a steel journal in a steel bearing, written
from the formulas in Python, the implicit ones solved by SciPy's brentq on
delta(F) = delta over (0, F_limit) with F_limit the maximum of delta(F) found by
its own bracketed minimisation (scipy.optimize.minimize_scalar), not by the
closed form the C code uses.

Usage: ref_cylinder_laws.py OUTDIR
Writes OUTDIR/cylinder_laws_ref.csv, lines "law.clearance_um.delta_um,F" and
"law.clearance_um.limit,delta_limit".
"""
import math
import os
import sys

from scipy.optimize import brentq, minimize_scalar

E = 2.07e11
NU = 0.29
RB = 10e-3
L = 20e-3
CLEARANCES_UM = (10.0, 100.0, 500.0)
DELTAS_UM = (0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0)


def estar():
    return 1.0 / (2.0 * (1.0 - NU * NU) / E)


def log_delta(law, F, rj, rb):
    """delta(F) of the logarithmic laws as the sources write them (internal)."""
    es, dr = estar(), rb - rj
    rs = rj * rb / dr
    sig = 2.0 * (1.0 - NU * NU) / (math.pi * E)  # sigma_i + sigma_j, 1/Pa
    if law == "johnson-cylinder":
        return F / (math.pi * L * es) * (math.log(4 * math.pi * L * es * dr / F) - 1)
    if law == "radzimovsky":
        b = math.sqrt(4 * F * rs / (math.pi * L * es))
        return F / (math.pi * L * es) * (2 / 3 + math.log(4 * rj / b) + math.log(4 * rb / b))
    if law == "goldsmith":
        return F * sig / L * (math.log(L ** 3 / (F * sig * rs)) + 1)
    if law == "esdu-78035":
        return math.pi * F * sig / L * (math.log(4 * dr * L / (F * sig)) + 1)
    if law == "dubowsky-freudenstein":
        return F * sig / L * (math.log(L ** 3 * dr / (F * rj * rb * sig)) + 1)
    raise ValueError(law)


def explicit_force(law, d, rj, rb):
    es, dr = estar(), rb - rj
    if law == "lankarani-flores-cylinder":
        return 4.0 / 3.0 * es * math.sqrt(rj * rb / dr) * d ** 1.5
    if law == "pereira":
        drm = dr * 1e3
        y = 1.51 * math.log(1000 * drm) ** -0.151 if drm <= 0.34954 else 0.0151 * drm + 1.151
        n = y * drm ** -0.005
        return (0.965 * drm + 0.0965) / drm * (L * 1e3) * (es * 1e-6) * (d * 1e3) ** n
    if law == "liu-zhang-wang":
        return math.pi / 2 * es * L * d * math.sqrt(d / (2 * (dr + d)))
    if law == "bai-zhao":
        kn = math.pi / 8 * es * math.sqrt(2 * d * (3 * dr + 2 * d) ** 2 / (dr + d) ** 3)
        return kn * d ** 1.5
    raise ValueError(law)


LOGS = ("johnson-cylinder", "radzimovsky", "goldsmith", "esdu-78035", "dubowsky-freudenstein")
EXPLICIT = ("lankarani-flores-cylinder", "pereira", "liu-zhang-wang", "bai-zhao")


def limit(law, rj, rb):
    """(F_limit, delta_limit): the maximum of delta(F), found numerically in log F."""
    res = minimize_scalar(lambda u: -log_delta(law, math.exp(u), rj, rb),
                          bounds=(-20.0, 40.0), method="bounded",
                          options={"xatol": 1e-12})
    return math.exp(res.x), -res.fun


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    lines = []
    for c_um in CLEARANCES_UM:
        rj = RB - c_um * 1e-6
        for law in LOGS:
            F_lim, d_lim = limit(law, rj, RB)
            lines.append(f"{law}.{c_um:g}.limit,{d_lim:.17g}")
            for d_um in DELTAS_UM:
                d = d_um * 1e-6
                if d >= d_lim:
                    continue
                F = brentq(lambda f: log_delta(law, f, rj, RB) - d, 1e-300, F_lim,
                           xtol=1e-300, rtol=4 * sys.float_info.epsilon, maxiter=500)
                lines.append(f"{law}.{c_um:g}.{d_um:g},{F:.17g}")
        for law in EXPLICIT:
            for d_um in DELTAS_UM:
                F = explicit_force(law, d_um * 1e-6, rj, RB)
                lines.append(f"{law}.{c_um:g}.{d_um:g},{F:.17g}")
    path = os.path.join(out, "cylinder_laws_ref.csv")
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    main()
