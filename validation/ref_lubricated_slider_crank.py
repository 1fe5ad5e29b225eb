#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for the slider-crank with a lubricated revolute clearance joint
(models/slider_crank_lubricated.xml) over its first milliseconds.

Coordinates: the crank is driven (theta = theta0 + w t), so the mechanism has two degrees
of freedom, the rod angle phi and the slider position x. With A(t) the crank-rod pin,
u(phi) = (cos phi, sin phi), u'(phi) = (-sin phi, cos phi), l the pin-to-rod-centre and
lj the pin-to-journal distances along the rod, Lagrange's equations are

    (J_rod + m_rod l^2) phi'' = -m_rod l A'' . u'(phi) - m_rod g l cos(phi) + lj F . u'(phi)
    m_slider x''              = -F_x

F the film force on the journal (at its centre, the rod's point lj u(phi) from A; the slider
takes -F at the bearing centre (x, 0)). No constraint equations, no stabilisation.

The film force is the short-bearing (Ocvirk) solution of Reynolds' equation, derived here
from the pressure, not taken from clink. In the world frame, with e = journal centre - bearing
centre, the film thickness at the bore angle psi is h = c - e . (cos psi, sin psi); the thin-film
equation without circumferential pressure flow, d^2p/dz^2 = 12 mu S / h^3 with
S = (w_j + w_b) / 2 dh/dpsi + dh/dt (both surfaces dragging the oil, the film squeezed), and
p = 0 at z = +-L/2 give p = 6 mu S (z^2 - L^2/4) / h^3. The journal takes -p n dA,
n = (cos psi, sin psi), dA = R dpsi dz; the z integral is -L^3/6, so

    F = mu R L^3 int S n / h^3 dpsi   over the film that carries load.

Writing psi = gamma + pi + theta (gamma the direction of e, theta from the thickest film),
h = c (1 + eps cos theta), S = c (eps' cos theta - eps Omega / 2 sin theta) with
Omega = w_j + w_b - 2 gamma', and n = -(cos theta e_r + sin theta e_t) (e_r along e, e_t
e_r turned by +90 degrees). Half-Sommerfeld (Gumbel) cavitation: the pressure's negative
part is set to zero. Since h > 0 and z^2 - L^2/4 < 0, p > 0 exactly where S < 0, and
S / c = eps' cos theta - eps Omega / 2 sin theta = r cos(theta - t0) is negative on the half
t0 + pi/2 < theta < t0 + 3 pi/2, which turns with the squeeze and with the sense of
rotation (for eps' = 0, Omega > 0 it is the pi-film 0 < theta < pi of Flores, Ambrosio,
Claro and Lankarani 2009; --cavitation pi-film keeps that half whatever the sign of Omega,
the rule clink had before its radial force was found pulling outwards when Omega < 0).
The three integrals int {cos^2, sin cos, sin^2} / (1 + eps cos)^3 over that half are
evaluated by 96-point Gauss-Legendre quadrature in theta (the integrands are analytic on
the interval); --check compares the force with scipy.integrate.dblquad of the pressure
field itself in world coordinates, over the half where it is positive found there from the
zeros of S, at random states.

Transition (clink's rule, docs/contact-mechanics.md): beyond eps_t the force is evaluated at
eps_t with the actual direction, eps' and Omega. The dry law once the journal touches is not
modelled: the script stops with an error if |e| reaches c (the shipped model's journal stays
below e / c = 0.82).

SciPy DOP853 (explicit Runge-Kutta of order 8 with dense output) at --rtol (default 1e-12)
and atol 1e-14 rad / m; the run is repeated at 100 times the rtol and the largest difference
of the two is written as the reference's own error.

Usage: ref_lubricated_slider_crank.py OUTDIR MODEL.xml CLINK.csv NAME [--rtol R]
       [--viscosity-factor F] [--cavitation pi-film|positive|full] [--check]
CLINK.csv: clink's samples, a header line then t, ex, ey, eps, x, ax, Fx, Fy (s, m, m, -, m,
m/s^2, N, N). Writes OUTDIR/NAME_ref.csv, key,value lines: for each quantity Q in ex, ey, eps, x,
ax, Fx, Fy: Q.dev (largest |clink - reference| over the samples), Q.scale (largest
|reference|), Q.self (the reference's own error estimate), Q.ref.K and Q.clink.K at the
checkpoints K = 5, 10, 15, 20 ms; eps_max; rhs; and with --check check.quad_rel.
The altered force laws (--viscosity-factor, --cavitation positive: the load-carrying half
where the pressure is positive, --cavitation full: the whole film) exist to show that the
comparison detects a changed law.
"""
import argparse
import math
import sys
import xml.etree.ElementTree as ET
from math import cos, hypot, pi, sin, sqrt

import numpy as np
from scipy.integrate import dblquad, solve_ivp

GL_X, GL_W = np.polynomial.legendre.leggauss(96)  # the nodes and weights, computed once


def vec(s):
    return [float(v) for v in s.split()]


class Mechanism:
    """the model's numbers, read from the XML (bodies crank, rod, slider)"""

    def __init__(self, path, visc_factor, cavitation):
        root = ET.parse(path).getroot()
        self.g = vec(root.find("gravity").get("g")) if root.find("gravity") is not None else [0.0, -9.81]
        bodies = {b.get("name"): b for b in root.find("bodies")}
        rod, slider = bodies["rod"], bodies["slider"]
        self.m2, self.J2 = float(rod.get("mass")), float(rod.get("inertia"))
        self.m3 = float(slider.get("mass"))
        joints = root.find("joints")
        rev = {j.get("name"): j for j in joints.findall("revolute")}
        # crank: pivot at the crank point p0, pin at p1 (crank frame); rod: pin at r1 (rod frame)
        p0 = vec(rev["crank_pin"].get("point2"))
        p1 = vec(rev["crank_rod"].get("point1"))
        r1 = vec(rev["crank_rod"].get("point2"))
        assert vec(rev["crank_pin"].get("point1")) == [0.0, 0.0] and p0[1] == p1[1] == r1[1] == 0.0
        self.a = p1[0] - p0[0]  # crank length
        cl = joints.find("revolute_clearance")
        sj = vec(cl.get("journal_point"))
        assert cl.get("journal") == "rod" and cl.get("bearing") == "slider" and sj[1] == 0.0
        assert vec(cl.get("bearing_point")) == [0.0, 0.0]
        self.l = -r1[0]  # pin to rod centre
        self.lj = sj[0] - r1[0]  # pin to journal centre
        self.R = float(cl.get("journal_radius"))
        self.c = float(cl.get("bearing_radius")) - self.R
        lub = cl.find("lubrication")
        assert lub.get("theory", "short") == "short"
        self.mu = float(lub.get("viscosity")) * visc_factor
        self.L = float(lub.get("length"))
        self.eps_t = float(lub.get("transition", "0.95"))
        self.cavitation = cavitation
        drv = root.find("drivers").find("driver").find("linear")
        self.th0, self.w = float(drv.get("initial", "0")), float(drv.get("rate"))
        guide = joints.find("translational")
        assert vec(guide.get("axis")) == [1.0, 0.0] and guide.get("body2") == "slider"
        # initial state: the rod's angle and rate, the slider's x and rate
        phi0, w2 = float(rod.get("phi", "0")), float(rod.get("omega", "0"))
        self.y0 = [phi0, float(slider.get("x")), w2, float(slider.get("vx", "0"))]

    def film(self, ex, ey, vx, vy, w_sum):
        """the film force on the journal (world frame) for e, e' and w_j + w_b"""
        K = self.mu * self.R * self.L ** 3 / (self.c * self.c)
        d = hypot(ex, ey)
        if d >= self.c:
            raise RuntimeError("the journal touches the bore: the dry law is not modelled here")
        if d == 0.0:  # concentric: the pure squeeze limit of the integrals (all cavitation rules
            k = pi / 2.0 if self.cavitation != "full" else pi  # but the full film, whose is twice)
            return -K * k * vx / self.c, -K * k * vy / self.c
        er = (ex / d, ey / d)
        et = (-er[1], er[0])
        eps = min(d / self.c, self.eps_t)
        eps_dot = (er[0] * vx + er[1] * vy) / self.c
        Omega = w_sum - 2.0 * (ex * vy - ey * vx) / (d * d)
        Icc, Isc, Iss = self.integrals(eps, eps_dot, Omega)
        # F = -(mu R L^3 / c^2) int (eps' cos - eps Omega / 2 sin)(cos e_r + sin e_t) / (1 + eps cos)^3
        Fr = -K * (eps_dot * Icc - 0.5 * eps * Omega * Isc)
        Ft = -K * (eps_dot * Isc - 0.5 * eps * Omega * Iss)
        return Fr * er[0] + Ft * et[0], Fr * er[1] + Ft * et[1]

    def integrals(self, eps, eps_dot, Omega):
        """int {cos^2, sin cos, sin^2} / (1 + eps cos)^3 over the load-carrying film"""
        s = 1.0 - eps * eps
        if self.cavitation == "pi-film":  # 0 < theta < pi
            return pi * (1 + 2 * eps * eps) / (2 * s ** 2.5), -2 * eps / s ** 2, pi / (2 * s ** 1.5)
        if self.cavitation == "full":  # 0 < theta < 2 pi, the odd integrand drops out
            return pi * (1 + 2 * eps * eps) / s ** 2.5, 0.0, pi / s ** 1.5
        # "positive": where S < 0, i.e. eps' cos - eps Omega / 2 sin < 0 (numerically)
        # S / c = a cos + b sin = r cos(theta - t0): negative on (t0 + pi / 2, t0 + 3 pi / 2)
        t0 = math.atan2(-0.5 * eps * Omega, eps_dot)
        lo, hi = t0 + 0.5 * pi, t0 + 1.5 * pi
        t = 0.5 * (hi - lo) * GL_X + 0.5 * (hi + lo)
        c, s_ = np.cos(t), np.sin(t)
        wd = 0.5 * (hi - lo) * GL_W / (1.0 + eps * c) ** 3
        return float(wd @ (c * c)), float(wd @ (s_ * c)), float(wd @ (s_ * s_))

    def kinematics(self, t, phi, x, w2, vx3):
        """journal eccentricity e, its rate, and the crank pin's acceleration"""
        th = self.th0 + self.w * t
        ct, st, cp, sp = cos(th), sin(th), cos(phi), sin(phi)
        ex = self.a * ct + self.lj * cp - x
        ey = self.a * st + self.lj * sp
        vx = -self.a * self.w * st - self.lj * w2 * sp - vx3
        vy = self.a * self.w * ct + self.lj * w2 * cp
        return ex, ey, vx, vy, -self.a * self.w ** 2 * ct, -self.a * self.w ** 2 * st

    def rhs(self, t, y):
        phi, x, w2, vx3 = y
        ex, ey, vx, vy, Ax, Ay = self.kinematics(t, phi, x, w2, vx3)
        Fx, Fy = self.film(ex, ey, vx, vy, w2)  # the slider does not turn: w_b = 0
        sp, cp = sin(phi), cos(phi)
        m2, l = self.m2, self.l
        gen = -m2 * l * (-Ax * sp + Ay * cp) + m2 * l * (self.g[1] * cp - self.g[0] * sp) \
            + self.lj * (-Fx * sp + Fy * cp)
        return [w2, vx3, gen / (self.J2 + m2 * l * l), -Fx / self.m3 + self.g[0]]

    def outputs(self, t, y):
        """ex, ey, eps, x, ax, Fx, Fy at (t, y)"""
        phi, x, w2, vx3 = y
        ex, ey, vx, vy, _, _ = self.kinematics(t, phi, x, w2, vx3)
        Fx, Fy = self.film(ex, ey, vx, vy, w2)
        return [ex, ey, hypot(ex, ey) / self.c, x, -Fx / self.m3 + self.g[0], Fx, Fy]


NAMES = ["ex", "ey", "eps", "x", "ax", "Fx", "Fy"]


def integrate(m, t_end, rtol):
    sol = solve_ivp(m.rhs, (0.0, t_end), m.y0, method="DOP853", rtol=rtol, atol=1e-14,
                    dense_output=True)
    if sol.status != 0:
        raise RuntimeError(sol.message)
    return sol


def check(m, n=200):
    """largest relative difference of the film force and dblquad of the pressure field"""
    rng = np.random.default_rng(7)
    worst = 0.0
    for _ in range(n):
        eps = rng.uniform(0.0, 0.9)
        gam = rng.uniform(-pi, pi)
        ex, ey = eps * m.c * cos(gam), eps * m.c * sin(gam)
        vx, vy = rng.normal(size=2) * 0.05
        w = rng.normal() * 300.0
        Fx, Fy = m.film(ex, ey, vx, vy, w)
        # the pressure field in world coordinates, integrated over the bore and the length
        def p(z, psi):
            h = m.c - ex * cos(psi) - ey * sin(psi)
            S = 0.5 * w * (ex * sin(psi) - ey * cos(psi)) - (vx * cos(psi) + vy * sin(psi))
            return 6.0 * m.mu * S * (z * z - 0.25 * m.L ** 2) / h ** 3

        # S = A cos psi + B sin psi = r cos(psi - psi0) < 0 (p > 0) on (psi0 + pi/2, psi0 + 3 pi/2)
        psi0 = math.atan2(0.5 * w * ex - vy, -0.5 * w * ey - vx)
        lo, hi = psi0 + 0.5 * pi, psi0 + 1.5 * pi
        opts = dict(epsabs=0.0, epsrel=1e-12)
        fx = -dblquad(lambda z, s: p(z, s) * cos(s) * m.R, lo, hi, -m.L / 2, m.L / 2, **opts)[0]
        fy = -dblquad(lambda z, s: p(z, s) * sin(s) * m.R, lo, hi, -m.L / 2, m.L / 2, **opts)[0]
        worst = max(worst, hypot(fx - Fx, fy - Fy) / hypot(fx, fy))
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("model")
    ap.add_argument("clink_csv")
    ap.add_argument("name")
    ap.add_argument("--rtol", type=float, default=1e-12)
    ap.add_argument("--viscosity-factor", type=float, default=1.0)
    ap.add_argument("--cavitation", default="positive", choices=["pi-film", "positive", "full"])
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    m = Mechanism(a.model, a.viscosity_factor, a.cavitation)
    data = np.loadtxt(a.clink_csv, delimiter=",", skiprows=1, ndmin=2)
    t = data[:, 0]
    sol = integrate(m, float(t[-1]), a.rtol)
    loose = integrate(m, float(t[-1]), 100.0 * a.rtol)
    ref = np.array([m.outputs(ti, sol.sol(ti)) for ti in t])
    ref_loose = np.array([m.outputs(ti, loose.sol(ti)) for ti in t])
    out = {"rhs": sol.nfev, "eps_max": float(ref[:, 2].max())}
    for k, name in enumerate(NAMES):
        out[name + ".dev"] = float(np.max(np.abs(data[:, 1 + k] - ref[:, k])))
        out[name + ".scale"] = float(np.max(np.abs(ref[:, k])))
        out[name + ".self"] = float(np.max(np.abs(ref_loose[:, k] - ref[:, k])))
        for ms in (5, 10, 15, 20):
            i = int(np.argmin(np.abs(t - ms * 1e-3)))
            if abs(t[i] - ms * 1e-3) < 1e-9:
                out["%s.ref.%d" % (name, ms)] = float(ref[i, k])
    if a.check:
        out["check.quad_rel"] = check(m)
    path = "%s/%s_ref.csv" % (a.outdir, a.name)
    with open(path, "w") as f:
        for key, val in out.items():
            f.write("%s,%.17g\n" % (key, val))
    print("ref_lubricated_slider_crank: %d right-hand sides, e/c <= %.4f -> %s" % (out["rhs"], out["eps_max"], path))


if __name__ == "__main__":
    sys.exit(main())
