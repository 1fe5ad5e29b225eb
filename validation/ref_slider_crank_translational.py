#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for the slider-crank with a translational clearance
joint at the slider (Flores, Ambrosio, Claro and Lankarani 2008; the same
mechanism as Flores, Leine and Glocker 2010): every impact of the slider's four
corners on the guide's two surfaces, the slider's motion and the crank moment.

Not clink's formulation. The crank is driven (theta = theta0 + w t), the rod is
pinned to the crank and the slider to the rod, so the mechanism has two degrees
of freedom, the rod angle phi and the slider angle psi, and no constraint
equation is left (no multipliers, no drift, no stabilisation). With A(t) the
crank pin, d and b the rod's centre and slider pin from the crank pin (rod
frame), s the pin and k_i the corners in the slider's frame (from its centre
of mass), E the rotation by +90 degrees and R(.) the rotation matrix:

  G2 = A + R(phi) d                           (rod centre)
  G3 = A + R(phi) b - R(psi) s                (slider centre)
  P_i = A + R(phi) b + R(psi) (k_i - s)       (corner i)

Lagrange's equations in (phi, psi), derived by hand and checked at start-up by a
finite-difference Lagrange residual (T and V differentiated numerically):

  [J2 + m2|d|^2 + m3|b|^2     -m3 R(phi)b.R(psi)s] [phi'']   [Q_phi]
  [-m3 R(phi)b.R(psi)s        J3 + m3|s|^2       ] [psi''] = [Q_psi]

  Q_phi = u2.(m2 g - m2 c2) + u3.(m3 g - m3 c3) + sum_i u3.F_i
  Q_psi = w3.(m3 g - m3 c3) + sum_i E R(psi)(k_i - s).F_i
  u2 = E R(phi) d, u3 = E R(phi) b, w3 = -E R(psi) s,
  c2 = A'' - phi'^2 R(phi) d, c3 = A'' - phi'^2 R(phi) b + psi'^2 R(psi) s.

Contact (the joint of Flores et al. 2008): the guide's surfaces are the lines at
+-h = +-(H/2 + c) from its mid-line (through guide_point along axis, normal
n = E axis); each corner i against each surface (sigma = +1 the +n surface,
-1 the other) is one contact with penetration delta = sigma n.(P_i - g0) - h and
rate delta' = sigma n.P_i', 8 in all. Each runs the Lankarani-Nikravesh law as
clink does (docs/contact-laws.md): at the onset (delta crossing 0 upwards) the
approach speed v = max(delta', v_ref) fixes the damping, the force is
F = max(0, K delta^1.5 (1 + 3 (1 - e^2)/4 delta'/v)) along -sigma n on the
slider, and the contact ends when delta falls back through 0. Optional friction
is clink's modified Coulomb law, -mu c_d(|v_t|) F sign(v_t) along the axis,
v_t = axis.P_i', c_d rising linearly from 0 at v0 to 1 at v1. SciPy DOP853
(rtol 1e-10, atol 1e-13 by default, steps at most 1e-5 s) with the onset and
the separation of each of the 8 contacts located as terminal events (restart
after each); the peak force and largest penetration of each impact from the
dense output, refined by a bounded scalar search.

Usage:
  ref_slider_crank_translational.py [OUTDIR] --t-end T --json OUT.json [--model PATH]
      [--csv OUT.csv] [--rtol R] [--atol A] [--output-step DT] [--no-self-checks]
OUTDIR (optional) is where relative --json and --csv names go; --csv writes the
impacts as lines "key,value" for validation/vjson.c's vref_load: n, and for
impact k = 1, 2, ..: k.t, k.v, k.F_max, k.delta_max, k.duration and k.contact
(the contact's index in clink's order, 2 (corner - 1) + (1 if upper)).
Without --model the paper's values below are used (DEFAULTS). --output-step
(default 1e-4 s, 0 for none) samples the slider's motion and the crank moment.
The JSON holds the parameters used, the impacts in order of onset, the
self-checks and the samples.

PARAMETERS AND WHERE THEY COME FROM
-----------------------------------
Flores, Ambrosio, Claro and Lankarani (2008) could be read only as far as its
title page and abstract (the copy on fdocumentos.com is served here only from
its beginning): the four contact situations (free flight; one corner; two
adjacent corners on one surface; two opposite corners on opposite surfaces)
come from that abstract. The body of the paper (its tables, figures, initial
conditions and integration settings) could NOT be read. Flores, Leine and
Glocker (2010), "Modeling and analysis of planar rigid multibody systems with
translational clearance joints based on the non-smooth dynamics approach",
Multibody Syst. Dyn. 23, 165-190, studies the same slider-crank; its Table 1
was read through the transcription in the Siconos examples
(examples/Mechanics/SliderCrank, "parameters according to Table 1"), which also
gives its equations (slider pinned to the rod at the slider's centre, corners at
(+-a, +-b) from it, guide surfaces at +-(b + c)):

  value                          | default here          | source
  crank length l1                | 0.1530 m              | FLG 2010, Table 1
  rod length l2                  | 0.3060 m              | FLG 2010, Table 1
  slider half-length a           | 0.05 m (L = 0.10 m)   | FLG 2010, Table 1
  slider half-height b           | 0.025 m (H = 0.05 m)  | FLG 2010, Table 1
  clearance c (each side)        | 0.001 m               | FLG 2010, Table 1
  masses m1, m2, m3              | 0.038, 0.038, 0.076 kg| FLG 2010, Table 1
  inertias J1, J2, J3 (centre)   | 7.4e-5, 5.9e-4, 2.7e-6 kg m^2 | FLG 2010, Table 1
  centres of crank and rod       | mid-length            | FLG 2010 (mass matrix
                                 |                       |   l^2/4 terms)
  slider pin                     | slider centre         | FLG 2010 (g_i, W_i)
  gravity                        | 9.81 m/s^2, -y        | FLG 2010 (potential)
  crank speed                    | 150 rad/s, driven     | CHOSEN: FLG 2010 starts the
                                 |                       |   crank free at 150 rad/s;
                                 |                       |   the element's brief drives it
  initial state                  | theta = phi = psi = 0,| FLG 2010 (q0 = 0; rod
                                 | phi' = -75 rad/s,     |   -75 rad/s = ideal rate at
                                 | psi' = 0; slider      |   the dead centre); slider
                                 | centred in the guide  |   centred: CHOSEN
  contact law                    | Lankarani-Nikravesh   | brief; FLG 2010 is impulsive
                                 |                       |   (Newton e_N = 0.4, mu 0.01)
  restitution e                  | 0.9                   | CHOSEN: the value of
                                 |                       |   models/slider_crank_
                                 |                       |   clearance.xml (the revolute
                                 |                       |   clearance benchmark); FLG's
                                 |                       |   0.4 is an impact law's
  stiffness K                    | 1.0e10 N/m^1.5        | CHOSEN: the order of the
                                 |                       |   Hertz stiffness of steel
                                 |                       |   on steel (4/3 E* sqrt(R),
                                 |                       |   E* = 113.7 GPa, R ~ 8 mm);
                                 |                       |   a flat corner on a plane
                                 |                       |   has no Hertz stiffness
  friction                       | mu 0.01, v0 1e-4 m/s, | mu: FLG 2010, Table 1; the
                                 | v1 1e-3 m/s           |   modified Coulomb law and
                                 |                       |   v0, v1: clink's defaults
  v_ref                          | 1e-3 m/s              | clink's default
  integration                    | DOP853, rtol 1e-10    | this script's own
What the papers report could not be read (no figure, no printed number): the
Siconos example says its output reproduces FLG 2010's Fig. 11 (d), the corners'
lateral positions normalised by c, with the crank's revolutions, over 0.2 s.
This script writes the slider's position, tilt, velocity and acceleration, the
crank moment and each impact. With --model the values come from the XML model
(bodies, revolute joints, the driver, gravity, <translational_clearance> and
its law, which must give K).
"""
import argparse
import json
import math
import os
import sys
import xml.etree.ElementTree as ET

try:
    import numpy as np
    from scipy.integrate import solve_ivp
    from scipy.optimize import minimize_scalar
except ImportError as exc:
    sys.exit(f"ref_slider_crank_translational.py: {exc}; install python3-scipy")

V_REF = 1e-3  # m/s: clink's reference velocity of the laws with chi ~ 1/v
MAX_STEP = 1e-5  # s: no step may jump over a whole corner impact
SAMPLES = 48  # dense-output samples per segment for the peaks
SPINS = (0.0, 200.0)  # rad/s: added to the slider's initial spin in the energy checks
ENERGY_T_END = 0.02  # s: the energy checks' horizon (at most the run's)
# corners 1..4 (along the axis, along the normal), and the 8 contacts in clink's order
# (element_translational_clearance.c): index 2 (k - 1) + side, side 0 the lower surface
# (-n), 1 the upper (+n), named corner<k>_<lower|upper>
CORNER_SIGNS = ((-1, -1), (1, -1), (1, 1), (-1, 1))

DEFAULTS = {
    "g": (0.0, -9.81),
    "O": (0.0, 0.0), "crank_arm": (0.1530, 0.0), "crank_com": (0.0765, 0.0),
    "m1": 0.038, "J1": 7.4e-5, "theta0": 0.0, "w": 150.0,
    "m2": 0.038, "J2": 5.9e-4, "d": (0.1530, 0.0), "b": (0.3060, 0.0),
    "m3": 0.076, "J3": 2.7e-6, "s": (0.0, 0.0), "slider_point": (0.0, 0.0),
    "guide_point": (0.0, 0.0), "axis": (1.0, 0.0),
    "L": 0.10, "H": 0.05, "c": 0.001, "guide_length": None,
    "K": 1.0e10, "e": 0.9, "v_ref": V_REF, "mu": 0.01, "v0": 1e-4, "v1": 1e-3,
    "phi0": 0.0, "psi0": 0.0, "phid0": -75.0, "psid0": 0.0,
}


def contact_name(j):
    i, sg = Mechanism.CONTACTS[j]
    return f"corner{i + 1}_{'upper' if sg > 0 else 'lower'}"


def rot(a, v):
    c, s = math.cos(a), math.sin(a)
    return (c * v[0] - s * v[1], s * v[0] + c * v[1])


def perp(v):
    return (-v[1], v[0])


def dot(u, v):
    return u[0] * v[0] + u[1] * v[1]


def cross(u, v):
    return u[0] * v[1] - u[1] * v[0]


def vec(s):
    return tuple(float(x) for x in s.split())


def read_model(path):
    """The parameters of DEFAULTS from a clink XML model."""
    p = dict(DEFAULTS)
    root = ET.parse(path).getroot()
    g = root.find("gravity")
    p["g"] = vec(g.get("g")) if g is not None else (0.0, 0.0)
    bodies = {b.get("name"): b for b in root.find("bodies")}
    joints = root.find("joints")
    tc = joints.find("translational_clearance")
    if tc is None:
        sys.exit("ref_slider_crank_translational.py: the model has no <translational_clearance>")
    if tc.get("guide", "ground") != "ground":
        sys.exit("ref_slider_crank_translational.py: only a guide on the ground")
    slider = tc.get("slider")
    drv = root.find("drivers").find("driver")
    lin = drv.find("linear")
    revs = {j.get("name"): j for j in joints.findall("revolute")}
    pin = revs[drv.get("joint")]
    crank = pin.get("body2") if pin.get("body1") == "ground" else pin.get("body1")
    gpt, cpt = ("point1", "point2") if pin.get("body1") == "ground" else ("point2", "point1")

    def between(a, c_):
        for j in revs.values():
            if {j.get("body1"), j.get("body2")} == {a, c_}:
                pa = j.get("point1") if j.get("body1") == a else j.get("point2")
                pc = j.get("point2") if j.get("body1") == a else j.get("point1")
                return vec(pa), vec(pc)
        sys.exit(f"ref_slider_crank_translational.py: no revolute between {a} and {c_}")

    rod = None
    for j in revs.values():
        pair = {j.get("body1"), j.get("body2")}
        if crank in pair and "ground" not in pair:
            rod = (pair - {crank}).pop()
    crank_pin_on_crank, crank_pin_on_rod = between(crank, rod)
    slider_pin_on_rod, slider_pin_on_slider = between(rod, slider)
    num = lambda b, k, dflt="0": float(bodies[b].get(k, dflt))
    piv = vec(pin.get(cpt))
    p["O"] = vec(pin.get(gpt))
    p["crank_arm"] = (crank_pin_on_crank[0] - piv[0], crank_pin_on_crank[1] - piv[1])
    p["crank_com"] = (-piv[0], -piv[1])
    p["m1"], p["J1"] = num(crank, "mass"), num(crank, "inertia")
    p["theta0"], p["w"] = float(lin.get("initial", "0")), float(lin.get("rate"))
    p["m2"], p["J2"] = num(rod, "mass"), num(rod, "inertia")
    p["d"] = (-crank_pin_on_rod[0], -crank_pin_on_rod[1])
    p["b"] = (slider_pin_on_rod[0] - crank_pin_on_rod[0], slider_pin_on_rod[1] - crank_pin_on_rod[1])
    p["m3"], p["J3"] = num(slider, "mass"), num(slider, "inertia")
    p["s"] = slider_pin_on_slider
    p["slider_point"] = vec(tc.get("slider_point", "0 0"))
    p["guide_point"] = vec(tc.get("guide_point", "0 0"))
    p["axis"] = vec(tc.get("axis", "1 0"))
    p["L"], p["H"], p["c"] = float(tc.get("length")), float(tc.get("height")), float(tc.get("clearance"))
    p["guide_length"] = float(tc.get("guide_length")) if tc.get("guide_length") else None
    law = tc.find("law")
    if law is None or law.get("name") != "lankarani-nikravesh":
        sys.exit("ref_slider_crank_translational.py: only the lankarani-nikravesh law")
    if law.get("K") is None:
        sys.exit("ref_slider_crank_translational.py: give K on the <law> (a corner on a "
                 "plane has no Hertz stiffness from materials)")
    p["K"], p["e"] = float(law.get("K")), float(law.get("e"))
    if law.get("n") is not None and float(law.get("n")) != 1.5:
        sys.exit("ref_slider_crank_translational.py: only n = 1.5")
    p["v_ref"] = float(law.get("v_ref", V_REF))
    fr = tc.find("friction")
    if fr is not None:
        p["mu"] = float(fr.get("mu"))
        p["v0"], p["v1"] = float(fr.get("v0", "1e-4")), float(fr.get("v1", "1e-3"))
    else:
        p["mu"] = 0.0
    p["phi0"], p["phid0"] = num(rod, "phi"), num(rod, "omega")
    p["psi0"], p["psid0"] = num(slider, "phi"), num(slider, "omega")
    p["_slider_xy0"] = (num(slider, "x"), num(slider, "y"))
    return p


class Mechanism:
    """The rod angle phi and the slider angle psi; the crank angle theta0 + w t."""

    CONTACTS = [(i, sg) for i in range(4) for sg in (-1, 1)]  # (corner, surface sign)

    def __init__(self, p):
        self.p = p
        for k in ("m1", "J1", "theta0", "w", "m2", "J2", "m3", "J3", "K", "e", "mu", "v0", "v1"):
            setattr(self, k, p[k])
        self.g, self.O, self.arm, self.c1 = p["g"], p["O"], p["crank_arm"], p["crank_com"]
        self.d, self.b, self.s = p["d"], p["b"], p["s"]
        n_ax = math.hypot(*p["axis"])
        self.ax = (p["axis"][0] / n_ax, p["axis"][1] / n_ax)
        self.nv = perp(self.ax)
        self.g0 = p["guide_point"]
        self.h = 0.5 * p["H"] + p["c"]
        # the corners from the slider's centre (slider frame; the rectangle's long
        # side along `axis`, so aligned with the guide when psi equals the guide's angle)
        sp = p["slider_point"]
        self.k = [(sp[0] + sa * 0.5 * p["L"] * self.ax[0] + sn * 0.5 * p["H"] * self.nv[0],
                   sp[1] + sa * 0.5 * p["L"] * self.ax[1] + sn * 0.5 * p["H"] * self.nv[1])
                  for sa, sn in CORNER_SIGNS]
        self.contacts = Mechanism.CONTACTS
        self.damp = 0.75 * (1.0 - self.e ** 2)
        self.v_ref = p["v_ref"]
        self.active = [False] * 8
        self.v_imp = [self.v_ref] * 8

    # -- kinematics
    def crank(self, t):
        """crank angle, pin A, A', A''."""
        th = self.theta0 + self.w * t
        r = rot(th, self.arm)
        A = (self.O[0] + r[0], self.O[1] + r[1])
        return th, A, (-self.w * r[1], self.w * r[0]), (-self.w ** 2 * r[0], -self.w ** 2 * r[1])

    def corner(self, t, y, i):
        """corner i's position and velocity."""
        phi, psi, wp, ws = y[0], y[1], y[2], y[3]
        _, A, Ad, _ = self.crank(t)
        rb = rot(phi, self.b)
        q = (self.k[i][0] - self.s[0], self.k[i][1] - self.s[1])
        rq = rot(psi, q)
        P = (A[0] + rb[0] + rq[0], A[1] + rb[1] + rq[1])
        Pd = (Ad[0] - wp * rb[1] - ws * rq[1], Ad[1] + wp * rb[0] + ws * rq[0])
        return P, Pd

    def gap(self, t, y, j):
        """penetration and its rate of contact j."""
        i, sg = self.contacts[j]
        P, Pd = self.corner(t, y, i)
        return (sg * (self.nv[0] * (P[0] - self.g0[0]) + self.nv[1] * (P[1] - self.g0[1])) - self.h,
                sg * dot(self.nv, Pd))

    def force(self, t, y, j):
        """contact j's normal force and its force vector on the slider (with friction)."""
        if not self.active[j]:
            return 0.0, (0.0, 0.0)
        delta, ddot = self.gap(t, y, j)
        if delta <= 0.0:
            return 0.0, (0.0, 0.0)
        Fn = self.K * delta ** 1.5 * (1.0 + self.damp * ddot / self.v_imp[j])
        if Fn <= 0.0:
            return 0.0, (0.0, 0.0)
        sg = self.contacts[j][1]
        fx, fy = -sg * Fn * self.nv[0], -sg * Fn * self.nv[1]
        if self.mu > 0.0:
            vt = dot(self.ax, self.corner(t, y, self.contacts[j][0])[1])
            sp = abs(vt)
            cd = 0.0 if sp <= self.v0 else (1.0 if sp >= self.v1 else (sp - self.v0) / (self.v1 - self.v0))
            ft = -math.copysign(self.mu * cd * Fn, vt) if cd > 0.0 else 0.0
            fx, fy = fx + ft * self.ax[0], fy + ft * self.ax[1]
        return Fn, (fx, fy)

    def generalised(self, t, y):
        """generalised contact forces (Q_phi, Q_psi) and the total contact force."""
        phi, psi = y[0], y[1]
        u3 = perp(rot(phi, self.b))
        Qp = Qs = Fx = Fy = 0.0
        for j in range(8):
            if not self.active[j]:
                continue
            Fn, F = self.force(t, y, j)
            if Fn == 0.0:
                continue
            i = self.contacts[j][0]
            wq = perp(rot(psi, (self.k[i][0] - self.s[0], self.k[i][1] - self.s[1])))
            Qp += dot(u3, F)
            Qs += dot(wq, F)
            Fx, Fy = Fx + F[0], Fy + F[1]
        return Qp, Qs, (Fx, Fy)

    def accelerations(self, t, y):
        """phi'', psi'' and the pieces the outputs need."""
        phi, psi, wp, ws = y[0], y[1], y[2], y[3]
        _, A, Ad, Add = self.crank(t)
        rd, rb, rs = rot(phi, self.d), rot(phi, self.b), rot(psi, self.s)
        u2, u3, w3 = perp(rd), perp(rb), (rs[1], -rs[0])
        c2 = (Add[0] - wp * wp * rd[0], Add[1] - wp * wp * rd[1])
        c3 = (Add[0] - wp * wp * rb[0] + ws * ws * rs[0], Add[1] - wp * wp * rb[1] + ws * ws * rs[1])
        Qc_p, Qc_s, Fc = self.generalised(t, y)
        g = self.g
        f2 = (self.m2 * (g[0] - c2[0]), self.m2 * (g[1] - c2[1]))
        f3 = (self.m3 * (g[0] - c3[0]), self.m3 * (g[1] - c3[1]))
        Qp = dot(u2, f2) + dot(u3, f3) + Qc_p
        Qs = dot(w3, f3) + Qc_s
        M11 = self.J2 + self.m2 * dot(self.d, self.d) + self.m3 * dot(self.b, self.b)
        M12 = -self.m3 * dot(rb, rs)
        M22 = self.J3 + self.m3 * dot(self.s, self.s)
        det = M11 * M22 - M12 * M12
        phidd = (M22 * Qp - M12 * Qs) / det
        psidd = (M11 * Qs - M12 * Qp) / det
        G2dd = (phidd * u2[0] + c2[0], phidd * u2[1] + c2[1])
        G3dd = (phidd * u3[0] + psidd * w3[0] + c3[0], phidd * u3[1] + psidd * w3[1] + c3[1])
        return phidd, psidd, G2dd, G3dd, Fc, A, Ad

    def pin_force(self, t, y):
        """the force of the crank on the rod at the pin, from Newton's law for rod + slider."""
        _, _, G2dd, G3dd, Fc, A, Ad = self.accelerations(t, y)
        mt = self.m2 + self.m3
        F = (self.m2 * G2dd[0] + self.m3 * G3dd[0] - mt * self.g[0] - Fc[0],
             self.m2 * G2dd[1] + self.m3 * G3dd[1] - mt * self.g[1] - Fc[1])
        return F, A, Ad, G3dd

    def rhs(self, t, y):
        phidd, psidd, G2dd, G3dd, Fc, A, Ad = self.accelerations(t, y)
        mt = self.m2 + self.m3
        FA = (self.m2 * G2dd[0] + self.m3 * G3dd[0] - mt * self.g[0] - Fc[0],
              self.m2 * G2dd[1] + self.m3 * G3dd[1] - mt * self.g[1] - Fc[1])
        return [y[2], y[3], phidd, psidd, dot(FA, Ad)]

    # -- outputs
    def slider_state(self, t, y):
        """slider centre, its velocity, the crank pin (for the kinematic checks)."""
        phi, psi, wp, ws = y[0], y[1], y[2], y[3]
        _, A, Ad, _ = self.crank(t)
        rb, rs = rot(phi, self.b), rot(psi, self.s)
        G3 = (A[0] + rb[0] - rs[0], A[1] + rb[1] - rs[1])
        G3d = (Ad[0] - wp * rb[1] + ws * rs[1], Ad[1] + wp * rb[0] - ws * rs[0])
        return G3, G3d

    def crank_moment(self, t, y):
        """the driver's moment on the crank (about its pivot; theta'' = 0)."""
        F, A, _, _ = self.pin_force(t, y)
        rc = rot(self.theta0 + self.w * t, self.c1)  # crank centre from the pivot
        return cross((A[0] - self.O[0], A[1] - self.O[1]), F) - cross(
            rc, (self.m1 * self.g[0], self.m1 * self.g[1]))

    def energy(self, t, y):
        """kinetic + gravity + elastic energy of rod and slider (the crank is driven)."""
        phi, wp, ws = y[0], y[2], y[3]
        _, A, Ad, _ = self.crank(t)
        rd = rot(phi, self.d)
        G2 = (A[0] + rd[0], A[1] + rd[1])
        G2d = (Ad[0] - wp * rd[1], Ad[1] + wp * rd[0])
        G3, G3d = self.slider_state(t, y)
        T = 0.5 * (self.m2 * dot(G2d, G2d) + self.J2 * wp * wp + self.m3 * dot(G3d, G3d) + self.J3 * ws * ws)
        V = -self.m2 * dot(self.g, G2) - self.m3 * dot(self.g, G3)
        for j in range(8):
            if self.active[j]:
                delta = self.gap(t, y, j)[0]
                if delta > 0.0:
                    V += self.K * delta ** 2.5 / 2.5
        return T + V, T


def lagrangian(mech, t, q, qd):
    """T - V of rod and slider (gravity only), from positions and velocities alone."""
    y = (q[0], q[1], qd[0], qd[1])
    _, A, Ad, _ = mech.crank(t)
    rd = rot(q[0], mech.d)
    G2 = (A[0] + rd[0], A[1] + rd[1])
    G2d = (Ad[0] - qd[0] * rd[1], Ad[1] + qd[0] * rd[0])
    G3, G3d = mech.slider_state(t, y)
    T = 0.5 * (mech.m2 * dot(G2d, G2d) + mech.J2 * qd[0] ** 2
               + mech.m3 * dot(G3d, G3d) + mech.J3 * qd[1] ** 2)
    return T + mech.m2 * dot(mech.g, G2) + mech.m3 * dot(mech.g, G3)


def ddx(f, h):
    """the derivative at 0 of f by the fourth-order central difference."""
    return (8.0 * (f(h) - f(-h)) - (f(2 * h) - f(-2 * h))) / (12.0 * h)


def lagrange_residual(mech, states, h=1e-5, eps=1e-5):
    """Largest relative residual of d/dt dL/dq' - dL/dq - Q = 0 at the given states,
    every derivative by central differences of T, V and the corner positions
    (not of the hand-derived mass matrix and velocity terms), the accelerations
    from the equations of motion and every contact active. L is quadratic in q',
    so dL/dq' is differenced with a unit step (exact); d/dt is the derivative
    along (t + s, q + s q', q' + s q'')."""
    worst = 0.0
    saved = (list(mech.active), list(mech.v_imp))
    mech.active, mech.v_imp = [True] * 8, [1.0] * 8
    for t, y in states:
        qdd = mech.accelerations(t, y)[:2]
        q, qd = (y[0], y[1]), (y[2], y[3])

        def mom(tt, qq, vv, k):
            up, dn = list(vv), list(vv)
            up[k] += 1.0
            dn[k] -= 1.0
            return (lagrangian(mech, tt, qq, up) - lagrangian(mech, tt, qq, dn)) / 2.0

        for k in range(2):
            e_k = [1.0 if m == k else 0.0 for m in range(2)]
            ddt = ddx(lambda a: mom(t + a, [q[m] + a * qd[m] for m in range(2)],
                                    [qd[m] + a * qdd[m] for m in range(2)], k), h)
            dLdq = ddx(lambda a: lagrangian(mech, t, [q[m] + a * e_k[m] for m in range(2)], qd), eps)
            # generalised contact force by virtual work: F_j . dP_i/dq_k
            Q = 0.0
            for j in range(8):
                Fn, F = mech.force(t, y, j)
                if Fn == 0.0:
                    continue
                i = mech.contacts[j][0]
                for c in range(2):
                    pos = lambda a: mech.corner(t, [q[0] + a * e_k[0], q[1] + a * e_k[1]] + list(qd), i)[0][c]
                    Q += F[c] * ddx(pos, eps)
            scale = abs(ddt) + abs(dLdq) + abs(Q)
            if scale > 0.0:
                worst = max(worst, abs(ddt - dLdq - Q) / scale)
    mech.active, mech.v_imp = saved
    return worst


def simulate(mech, t_end, rtol, atol, out_step=0.0, probe=None, peaks=True):
    """Integrates from the model's initial state to t_end: the impacts (onset to
    separation, in order of onset) and the samples probe(t, y) every out_step."""
    p = mech.p
    y = [p["phi0"], p["psi0"], p["phid0"], p["psid0"], 0.0]
    t = 0.0
    impacts, cur, samples = [], [None] * 8, []
    for j in range(8):
        if mech.gap(t, y, j)[0] > 0.0:
            sys.exit("ref_slider_crank_translational.py: a corner starts inside a guide surface")
    k_out = 0
    while t < t_end:
        evs = []
        for j in range(8):
            ev = (lambda jj: lambda tt, yy: mech.gap(tt, yy, jj)[0])(j)
            ev.terminal, ev.direction = True, (-1.0 if mech.active[j] else 1.0)
            evs.append(ev)
        sol = solve_ivp(mech.rhs, (t, t_end), y, method="DOP853", rtol=rtol, atol=atol, events=evs,
                        dense_output=True, max_step=MAX_STEP)
        if sol.status < 0:
            raise RuntimeError(sol.message)
        t1, y1 = float(sol.t[-1]), list(sol.y[:, -1])
        # samples in [t, t1] (the active set is that of the segment)
        if out_step > 0.0 and probe is not None:
            while k_out * out_step <= t1 * (1 + 1e-14) and k_out * out_step <= t_end * (1 + 1e-14):
                ts = min(k_out * out_step, t1)
                samples.append(probe(ts, list(sol.sol(ts)) if ts > t else list(y)))
                k_out += 1
        if peaks:
            track_peaks(mech, sol, t, t1, cur)
        t, y = t1, y1
        if sol.status != 1:
            break
        for j in range(8):
            delta, ddot = mech.gap(t, y, j)
            fired = len(sol.t_events[j]) > 0 and abs(sol.t_events[j][-1] - t1) <= 1e-12 * max(1.0, t1)
            # a crossing at (nearly) the same instant as the one that stopped the
            # step is not reported by the solver: the signs decide
            if not fired:
                if mech.active[j] and not (delta <= 0.0 and ddot < 0.0):
                    continue
                if not mech.active[j] and not (delta >= 0.0 and ddot > 0.0):
                    continue
            if mech.active[j]:
                mech.active[j] = False
                if cur[j] is not None:
                    cur[j]["duration"] = t - cur[j]["t"]
                    cur[j]["v_sep"] = -ddot
                    cur[j] = None
            else:
                mech.active[j] = True
                mech.v_imp[j] = max(ddot, mech.v_ref)
                i, sg = mech.contacts[j]
                cur[j] = {"t": t, "contact": contact_name(j), "contact_index": j, "corner": i + 1,
                          "surface": "upper" if sg > 0 else "lower", "v": ddot, "F_max": 0.0,
                          "t_F_max": t, "delta_max": 0.0, "duration": None, "v_sep": None}
                impacts.append(cur[j])
    return impacts, samples


def track_peaks(mech, sol, t0, t1, cur):
    """the largest force and penetration of each open impact over [t0, t1]."""
    if t1 <= t0:
        return
    n = int(min(max(SAMPLES, math.ceil((t1 - t0) / 1e-6)), 20000))
    ts = np.linspace(t0, t1, n + 1)
    ys = sol.sol(ts)
    for j in range(8):
        if cur[j] is None or not mech.active[j]:
            continue
        f = lambda s: -mech.force(s, sol.sol(s), j)[0]
        dl = lambda s: -mech.gap(s, sol.sol(s), j)[0]
        fv = [-mech.force(ts[m], ys[:, m], j)[0] for m in range(n + 1)]
        dv = [-mech.gap(ts[m], ys[:, m], j)[0] for m in range(n + 1)]
        for fun, vals, key in ((f, fv, "F_max"), (dl, dv, "delta_max")):
            k = int(np.argmin(vals))
            best, tb = -vals[k], ts[k]
            if 0 < k < n:
                r = minimize_scalar(fun, bounds=(ts[k - 1], ts[k + 1]), method="bounded",
                                    options={"xatol": 1e-14 * max(1.0, t1)})
                if -r.fun > best:
                    best, tb = -r.fun, r.x
            if best > cur[j][key]:
                cur[j][key] = best
                if key == "F_max":
                    cur[j]["t_F_max"] = float(tb)


def pin_angle(mech, t, lateral):
    """the rod angle that puts the slider pin at `lateral` from the guide's mid-line."""
    _, A, _, _ = mech.crank(t)
    phi = 0.0
    for _ in range(50):
        rb = rot(phi, mech.b)
        f = dot(mech.nv, (A[0] + rb[0] - mech.g0[0], A[1] + rb[1] - mech.g0[1])) - lateral
        phi -= f / dot(mech.nv, perp(rb))
    return phi


def ideal_position(mech, t):
    """the slider pin's position along the guide in the ideal mechanism (pin on the mid-line)."""
    _, A, _, _ = mech.crank(t)
    l = math.hypot(*mech.b)
    ra = (A[0] - mech.g0[0], A[1] - mech.g0[1])
    return dot(mech.ax, ra) + math.sqrt(l * l - dot(mech.nv, ra) ** 2)


def main_probe(mech):
    """what a sample of the main run holds."""
    sp = mech.p["slider_point"]

    def probe(t, y):
        F, A, Ad, G3dd = mech.pin_force(t, y)
        G3, G3d = mech.slider_state(t, y)
        rc = rot(y[1], sp)
        C = (G3[0] + rc[0] - mech.g0[0], G3[1] + rc[1] - mech.g0[1])  # slider centre from g0
        rb = rot(y[0], mech.b)
        pin = (A[0] + rb[0] - mech.g0[0], A[1] + rb[1] - mech.g0[1])
        return {"t": t, "x": G3[0], "y": G3[1], "psi": y[1], "vx": G3d[0], "vy": G3d[1],
                "ax": G3dd[0], "ay": G3dd[1], "M_crank": mech.crank_moment(t, y),
                "centre_lat": dot(mech.nv, C), "centre_ax": dot(mech.ax, C),
                "pin_ax": dot(mech.ax, pin), "pin_lat": dot(mech.nv, pin),
                "pin_ideal": ideal_position(mech, t),
                "contacts": sum(1 << j for j in range(8) if mech.gap(t, y, j)[0] > 0.0)}
    return probe


def overlaps(impacts, t_end):
    """pairs of impacts open at the same time: on one surface, and on opposite ones."""
    same = opposite = 0
    span = [(r["t"], r["t"] + (r["duration"] if r["duration"] is not None else t_end), r["surface"])
            for r in impacts]
    for m, a in enumerate(span):
        for b in span[m + 1:]:
            if b[0] >= a[1]:
                continue
            if a[0] < b[1]:
                same, opposite = (same + 1, opposite) if a[2] == b[2] else (same, opposite + 1)
    return {"same_surface": same, "opposite_surfaces": opposite}


def self_checks(p, t_end, rtol, atol, impacts, samples):
    """the finite-difference Lagrange residual, the energy balance with e = 1 and no
    friction, and the geometry of the main run."""
    out = {}
    # the model's geometry, and one with every offset nonzero (pin off the slider's
    # centre, rod centre and pin off the rod's line, slider point off the centre)
    skew = dict(p, d=(0.45 * math.hypot(*p["b"]), 0.01), b=(p["b"][0], p["b"][1] - 0.02),
                s=(0.01, -0.005), slider_point=(0.004, 0.002), J3=p["J3"] * 3)
    worst = 0.0
    for q in (p, skew):
        mech = Mechanism(q)
        rng = np.random.default_rng(7)
        states = []
        for n in range(8):
            # half in free flight (small tilt, pin near the mid-line), half in contact
            t = float(rng.uniform(0, 0.04))
            tilt = 0.005 if n % 2 == 0 else 0.05
            phi = pin_angle(mech, t, float(rng.uniform(-0.3, 0.3) * p["c"]))
            states.append((t, [phi, float(rng.uniform(-tilt, tilt)), float(rng.uniform(-100, 100)),
                               float(rng.uniform(-2000, 2000)), 0.0]))
        worst = max(worst, lagrange_residual(mech, states))
    out["lagrange_fd_residual"] = worst
    # energy: rod + slider energy - E(0) = work of the crank pin (e = 1: no damping),
    # once as the model starts and once with the slider spun (opposite corners wedge)
    te = min(t_end, ENERGY_T_END)
    out["energy_t_end"] = te
    worst = 0.0
    for spin in SPINS:
        em = Mechanism(dict(p, e=1.0, mu=0.0, psid0=p["psid0"] + spin))
        imp_e, rows = simulate(em, te, rtol, atol, out_step=1e-5,
                               probe=lambda t, y: (t, em.energy(t, y)[0], em.energy(t, y)[1], y[4]),
                               peaks=False)
        E0 = rows[0][1]
        scale = max(max(abs(r[3]) for r in rows), max(r[2] for r in rows))
        rel = max(abs(r[1] - E0 - r[3]) for r in rows) / scale
        worst = max(worst, rel)
        out[f"energy_spin_{spin:g}"] = {"impacts": len(imp_e), "scale_J": scale, "balance_rel": rel,
                                        "overlapping_impacts": overlaps(imp_e, te)}
    out["energy_balance_rel"] = worst
    # geometry of the main run: the rectangle fits the channel (+ penetration)
    if samples:
        dmax = max([r["delta_max"] for r in impacts] + [0.0])
        L, H = p["L"], p["H"]
        h = 0.5 * H + p["c"]
        fit = max(0.5 * L * abs(math.sin(s["psi"])) + 0.5 * H * math.cos(s["psi"]) + abs(s["centre_lat"])
                  for s in samples)
        out["channel_fit_excess"] = fit - (h + dmax)
        out["max_penetration"] = dmax
        out["max_pin_lateral"] = max(abs(s["pin_lat"]) for s in samples)
        out["max_pin_vs_ideal"] = max(abs(s["pin_ax"] - s["pin_ideal"]) for s in samples)
        out["max_tilt_rad"] = max(abs(s["psi"]) for s in samples)
        # the contact situations of Flores et al. (2008), counted on the samples
        kinds = {"free": 0, "one_corner": 0, "two_adjacent_one_surface": 0,
                 "two_opposite_both_surfaces": 0, "other": 0}
        for smp in samples:
            on = [Mechanism.CONTACTS[j] for j in range(8) if smp["contacts"] >> j & 1]
            if not on:
                kinds["free"] += 1
            elif len(on) == 1:
                kinds["one_corner"] += 1
            elif len(on) == 2 and on[0][1] == on[1][1]:
                kinds["two_adjacent_one_surface"] += 1
            elif len(on) == 2:
                kinds["two_opposite_both_surfaces"] += 1
            else:
                kinds["other"] += 1
        out["samples_by_situation"] = kinds
        out["overlapping_impacts"] = overlaps(impacts, t_end)
        gl = p.get("guide_length")
        if gl:
            out["corners_within_guide"] = all(
                abs(s["centre_ax"]) + 0.5 * L * abs(math.cos(s["psi"])) + 0.5 * H * abs(math.sin(s["psi"]))
                <= 0.5 * gl for s in samples)
    return out


LIMITS = {  # the self-checks' bounds (the run exits with status 2 past one)
    "lagrange_fd_residual": 1e-6,  # the differences' own error is ~1e-8
    "energy_balance_rel": 1e-7,  # rtol 1e-10 gives ~1e-9 over hundreds of impacts
    "channel_fit_excess": 1e-12,  # m: the rectangle stays in the channel + penetration
}


def write_csv(path, impacts):
    """The impacts as "key,value" lines (validation/vjson.c, vref_load); an impact
    still open at the end has no duration (the key is left out)."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"n,{len(impacts)}\n")
        for k, r in enumerate(impacts, 1):
            for key in ("t", "v", "F_max", "delta_max", "duration", "contact_index"):
                if r[key] is not None:
                    f.write(f"{k}.{'contact' if key == 'contact_index' else key},{r[key]!r}\n")
    os.replace(tmp, path)


def parse():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", nargs="?", default=None)
    ap.add_argument("--t-end", type=float, required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--csv", default=None)
    ap.add_argument("--model", default=None, help="a clink XML model (else the defaults)")
    ap.add_argument("--rtol", type=float, default=1e-10)
    ap.add_argument("--atol", type=float, default=1e-13)
    ap.add_argument("--output-step", type=float, default=1e-4)
    ap.add_argument("--no-self-checks", action="store_true")
    return ap.parse_args()


def main():
    a = parse()
    p = read_model(a.model) if a.model else dict(DEFAULTS)
    mech = Mechanism(p)
    if "_slider_xy0" in p:
        G3 = mech.slider_state(0.0, [p["phi0"], p["psi0"], p["phid0"], p["psid0"]])[0]
        if math.hypot(G3[0] - p["_slider_xy0"][0], G3[1] - p["_slider_xy0"][1]) > 1e-9:
            print(f"warning: the model's slider starts at {p['_slider_xy0']}, the rod's pin puts it at {G3}")
    impacts, samples = simulate(mech, a.t_end, a.rtol, a.atol, a.output_step, main_probe(mech))
    checks = {} if a.no_self_checks else self_checks(p, a.t_end, a.rtol, a.atol, impacts, samples)
    params = {k: v for k, v in p.items() if not k.startswith("_")}
    doc = {"reference": "ref_slider_crank_translational.py", "model": a.model, "t_end": a.t_end,
           "rtol": a.rtol, "atol": a.atol, "parameters": params, "contacts": 8,
           "corners_slider_frame": {f"corner{i + 1}": list(mech.k[i]) for i in range(4)},
           "n_impacts": len(impacts), "impacts": impacts, "self_checks": checks,
           "series": {k: [s[k] for s in samples] for k in (samples[0] if samples else {})}}
    if a.outdir:
        a.json = os.path.join(a.outdir, a.json)
        a.csv = os.path.join(a.outdir, a.csv) if a.csv else None
    tmp = a.json + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(tmp, a.json)
    if a.csv:
        write_csv(a.csv, impacts)
    print(f"{len(impacts)} impacts in [0, {a.t_end}] s")
    print(f"{'t (s)':>12} {'contact':>14} {'v (m/s)':>11} {'F_max (N)':>11} "
          f"{'delta_max (m)':>13} {'duration (s)':>12}")
    for r in impacts[:8]:
        dur = f"{r['duration']:.4e}" if r["duration"] is not None else "open"
        print(f"{r['t']:12.7f} {r['contact']:>14} {r['v']:11.5e} {r['F_max']:11.5e} "
              f"{r['delta_max']:13.5e} {dur:>12}")
    failed = []
    for k, v in checks.items():
        verdict = ""
        if k in LIMITS:
            verdict = " ok" if v <= LIMITS[k] else f" FAILED (limit {LIMITS[k]:g})"
            if v > LIMITS[k]:
                failed.append(k)
        print(f"self-check {k}: {v}{verdict}")
    if failed:
        sys.exit(2)


if __name__ == "__main__":
    main()
