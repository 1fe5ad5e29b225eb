#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for the slider-crank with a revolute clearance joint
(models/slider_crank_clearance*.xml): its impacts, and an ensemble of runs for
the chaotic regime.

Not clink's formulation (nor bench/scipy_slider_crank.py's, which integrates
clink's absolute coordinates with multipliers): the crank is driven, so the
mechanism has two degrees of freedom, the rod angle phi and the slider
position x, and Lagrange's equations in them are

    (J_rod + m_rod |d|^2) phi'' + m_rod (R(phi) d)^perp . A'' = Q_phi + m_rod g . (R(phi) d)^perp
    m_slider x''                                              = Q_x + m_slider g_x

with A(t) the crank pin (prescribed by the driver), d the vector from the crank
pin to the rod's centre (body frame), and Q the generalised forces of the
clearance contact (no constraint equations, no drift, no stabilisation). The
contact follows the literature: eccentricity e = journal centre - bearing
centre, penetration delta = |e| - (R_b - R_j), the Lankarani-Nikravesh force
F = K delta^1.5 (1 + 3 (1 - c_r^2) / 4 delta' / v_imp) (>= 0) with
K = 4 / (3 (s_1 + s_2)) sqrt(R_j R_b / (R_b - R_j)), s = (1 - nu^2) / E, and
v_imp the approach speed of the current impact (every up-crossing of delta = 0
is a new impact; at least 1e-3 m/s, clink's settle speed), acting along -e/|e|
at the contact points; Ambrosio's modified Coulomb friction when the model has
it, or the Stribeck law (type="stribeck": F_t = -F_n mu(v) sat(v / v1) - sigma2 v,
mu(v) = mu + (mu_s - mu) exp(-(|v| / v_s)^delta), docs/friction.md). SciPy DOP853 (rtol 1e-11, atol 1e-14 by default) with the onset and the
separation located as events; peak force and largest penetration of each impact
from the dense output.

Usage:
  ref_slider_crank.py OUTDIR impacts MODEL.xml NAME [--t-end T] [--rtol R]
      OUTDIR/NAME_ref.csv: key,value lines: n (impacts), i.t, i.v, i.F_max,
      i.delta_max, i.duration for every impact i = 1..n (onset to separation)
  ref_slider_crank.py OUTDIR ensemble MODEL.xml NAME [--t-end T] --rtols R1,R2
      --perturbations P1,P2,...
      the slider's initial x (the bearing centre) moved by each P (m), at each tolerance:
      OUTDIR/NAME_ensemble_ref.csv: key,value lines: runs, and per run k the
      impacts (penetration up-crossings), the time in contact (exact, and
      counted on samples every 1e-5 s) and the peak |slider acceleration| on
      those samples, over the whole run and from 0.05 s on
"""
import math
import os
import sys
import xml.etree.ElementTree as ET

try:
    import numpy as np
    from scipy.integrate import solve_ivp
    from scipy.optimize import minimize_scalar
except ImportError as exc:
    sys.exit(f"ref_slider_crank.py: {exc}; install python3-scipy (scripts/install-deps)")

SETTLE = 1e-3  # m/s: slowest approach speed that sets the damping (clink's settle speed)
LATE = 0.05  # s: the peak acceleration is also taken over [LATE, t_end], in the chaotic regime
MAX_STEP = 1e-5  # s: a trial step may not jump deep into the stiff contact (overflow)


def vec(s):
    return [float(x) for x in s.split()]


def rot(a, v):
    c, s = math.cos(a), math.sin(a)
    return (c * v[0] - s * v[1], s * v[0] + c * v[1])


class Mechanism:
    """The rod angle and the slider position; the crank angle theta0 + w t."""

    def __init__(self, path, perturbation=0.0):
        root = ET.parse(path).getroot()
        g = root.find("gravity")
        self.g = vec(g.get("g")) if g is not None else [0.0, -9.81]
        bodies = {b.get("name"): b for b in root.find("bodies")}
        num = lambda b, k, d="0": float(bodies[b].get(k, d))
        self.m2, self.J2 = num("rod", "mass"), num("rod", "inertia")
        self.m3 = num("slider", "mass")
        joints = root.find("joints")
        rev = {j.get("name"): j for j in joints.findall("revolute")}
        ground_pin = vec(rev["crank_pin"].get("point1"))
        crank_pivot = vec(rev["crank_pin"].get("point2"))
        crank_a = vec(rev["crank_rod"].get("point1"))
        rod_b = vec(rev["crank_rod"].get("point2"))
        cl = joints.find("revolute_clearance")
        rod_j = vec(cl.get("journal_point"))
        slider_b = vec(cl.get("bearing_point"))
        self.Rj, self.Rb = float(cl.get("journal_radius")), float(cl.get("bearing_radius"))
        mats = {m.get("name"): m for m in root.find("materials")}
        s = sum((1 - float(mats[cl.get(k)].get("nu")) ** 2) / float(mats[cl.get(k)].get("E"))
                for k in ("journal_material", "bearing_material"))
        self.K = 4.0 / (3.0 * s) * math.sqrt(self.Rj * self.Rb / (self.Rb - self.Rj))
        law = cl.find("law")
        if law.get("name") != "lankarani-nikravesh":
            raise SystemExit("ref_slider_crank.py: only lankarani-nikravesh")
        self.damp = 0.75 * (1.0 - float(law.get("e")) ** 2)
        fr = cl.find("friction")
        self.mu = float(fr.get("mu")) if fr is not None else 0.0
        self.fv0 = float(fr.get("v0", "1e-4")) if fr is not None else 0.0
        self.fv1 = float(fr.get("v1")) if fr is not None else 1.0
        self.fkind = fr.get("type") if fr is not None else "none"
        if self.fkind == "stribeck":
            self.fv1 = float(fr.get("v1", "1e-3"))
            self.mu_s, self.v_s = float(fr.get("mu_s")), float(fr.get("v_s"))
            self.fdelta, self.sigma2 = float(fr.get("delta", "2")), float(fr.get("sigma2", "0"))
        lin = root.find("drivers").find("driver").find("linear")
        self.th0, self.w = float(lin.get("initial", "0")), float(lin.get("rate"))
        # the crank pin relative to the ground pivot, in the crank frame
        self.arm = (crank_a[0] - crank_pivot[0], crank_a[1] - crank_pivot[1])
        self.O = ground_pin
        # on the rod, from the crank pin: to the centre (d) and to the journal (j)
        self.d = (-rod_b[0], -rod_b[1])
        self.j = (rod_j[0] - rod_b[0], rod_j[1] - rod_b[1])
        self.sb = slider_b
        # initial state: the model's rod angle and rate, slider position and speed
        phi0 = num("rod", "phi")
        self.y0 = [phi0, num("slider", "x"), num("rod", "omega"), num("slider", "vx")]
        # the slider (the bearing centre) moved along the guide by `perturbation`
        self.y0[1] += perturbation
        self.v_imp = SETTLE

    def pin(self, t):
        th = self.th0 + self.w * t
        a = rot(th, self.arm)
        return (self.O[0] + a[0], self.O[1] + a[1]), (-self.w * a[1], self.w * a[0]), \
            (-self.w ** 2 * a[0], -self.w ** 2 * a[1])

    def contact(self, t, y):
        """delta, delta', f on the journal, its point, slider acceleration pieces."""
        phi, x, wp, vx = y
        (ax, ay), (vax, vay), _ = self.pin(t)
        rj = rot(phi, self.j)
        J = (ax + rj[0], ay + rj[1])
        Jd = (vax - wp * rj[1], vay + wp * rj[0])
        B = (x + self.sb[0], self.sb[1])
        ex, ey = J[0] - B[0], J[1] - B[1]
        r = math.hypot(ex, ey)
        ux, uy = (ex / r, ey / r) if r > 0 else (1.0, 0.0)
        delta = r - (self.Rb - self.Rj)
        ddot = ux * (Jd[0] - vx) + uy * Jd[1]
        return delta, ddot, (ux, uy), (ax, ay), (vax, vay), J

    def forces(self, t, y):
        delta, ddot, (ux, uy), A, Av, J = self.contact(t, y)
        if delta <= 0.0:
            return 0.0, 0.0, 0.0
        Fn = self.K * delta ** 1.5 * (1.0 + self.damp * ddot / self.v_imp)
        Fn = max(Fn, 0.0)
        nx, ny = -ux, -uy  # on the journal
        pj = (J[0] + self.Rj * ux, J[1] + self.Rj * uy)
        fx, fy = Fn * nx, Fn * ny
        if self.mu > 0.0 and Fn > 0.0:
            tx, ty = -ny, nx
            phi, x, wp, vx = y
            vpj = (Av[0] - wp * (pj[1] - A[1]), Av[1] + wp * (pj[0] - A[0]))
            vt = tx * (vpj[0] - vx) + ty * vpj[1]
            sp = abs(vt)
            if self.fkind == "stribeck":
                mu = self.mu + (self.mu_s - self.mu) * math.exp(-(sp / self.v_s) ** self.fdelta)
                ft = -Fn * mu * max(-1.0, min(1.0, vt / self.fv1)) - self.sigma2 * vt
            else:
                cd = 0.0 if sp <= self.fv0 else (1.0 if sp >= self.fv1 else (sp - self.fv0) / (self.fv1 - self.fv0))
                ft = -math.copysign(self.mu * cd * Fn, vt)
            fx += ft * tx
            fy += ft * ty
        Qphi = (pj[0] - A[0]) * fy - (pj[1] - A[1]) * fx
        return Fn, Qphi, -fx

    def rhs(self, t, y):
        phi, x, wp, vx = y
        _, _, Aa = self.pin(t)
        rd = rot(phi, self.d)
        perp = (-rd[1], rd[0])
        Fn, Qphi, Qx = self.forces(t, y)
        Ieff = self.J2 + self.m2 * (self.d[0] ** 2 + self.d[1] ** 2)
        phidd = (Qphi + self.m2 * (self.g[0] * perp[0] + self.g[1] * perp[1])
                 - self.m2 * (perp[0] * Aa[0] + perp[1] * Aa[1])) / Ieff
        xdd = (Qx + self.m3 * self.g[0]) / self.m3
        return [wp, vx, phidd, xdd]


def simulate(mech, t_end, rtol, atol, record_peaks=True, acc_window=None):
    """Impacts (onset to separation), the time in contact and, when acc_window =
    (t0, dt), the peak |slider acceleration| on samples every dt after t0 and the
    time in contact counted on those samples (dt per sample with delta > 0)."""
    y, t = list(mech.y0), 0.0
    impacts, in_contact = [], mech.contact(0.0, y)[0] > 0.0
    contact_time, peak_acc, sampled_contact, peak_late = 0.0, 0.0, 0.0, 0.0

    def onset(t, y):
        return mech.contact(t, y)[0]

    onset.terminal, onset.direction = True, 1.0

    def separation(t, y):
        return mech.contact(t, y)[0]

    separation.terminal, separation.direction = True, -1.0
    cur = None
    while t < t_end:
        ev = separation if in_contact else onset
        sol = solve_ivp(mech.rhs, (t, t_end), y, method="DOP853", rtol=rtol, atol=atol,
                        events=[ev], dense_output=True, max_step=MAX_STEP)
        if sol.status < 0:
            raise RuntimeError(sol.message)
        t1, y1 = sol.t[-1], list(sol.y[:, -1])
        if acc_window is not None:
            t0, dt = acc_window
            k0 = max(math.ceil((t - t0) / dt - 1e-9), 0)
            k1 = math.floor((t1 - t0) / dt + 1e-9)
            for k in range(k0, k1 + 1):
                ts = t0 + k * dt
                if t < ts <= t1:
                    ys = sol.sol(ts)
                    acc = abs(mech.rhs(ts, ys)[3])
                    peak_acc = max(peak_acc, acc)
                    if ts >= LATE:
                        peak_late = max(peak_late, acc)
                    if mech.contact(ts, ys)[0] > 0.0:
                        sampled_contact += dt
        if in_contact:
            contact_time += t1 - t
            if cur is not None and record_peaks:
                f = lambda s: -mech.forces(s, sol.sol(s))[0]
                dl = lambda s: -mech.contact(s, sol.sol(s))[0]
                ts = np.linspace(t, t1, 201)
                for fun, key in ((f, "F_max"), (dl, "delta_max")):
                    vals = [fun(s) for s in ts]
                    k = int(np.argmin(vals))
                    lo, hi = ts[max(k - 1, 0)], ts[min(k + 1, 200)]
                    r = minimize_scalar(fun, bounds=(lo, hi), method="bounded",
                                        options={"xatol": 1e-13 * max(1.0, t1)})
                    cur[key] = max(-vals[k], -r.fun)
            if cur is not None:
                cur["duration"] = t1 - cur["t"]
                cur["v_sep"] = -mech.contact(t1, y1)[1]
        t, y = t1, y1
        if sol.status != 1:
            break
        if in_contact:
            in_contact = False
        else:
            d, dd = mech.contact(t, y)[:2]
            mech.v_imp = max(dd, SETTLE)
            cur = {"t": t, "v": dd, "F_max": 0.0, "delta_max": 0.0, "duration": 0.0}
            impacts.append(cur)
            in_contact = True
    return impacts, contact_time, peak_acc, sampled_contact, peak_late


def write(path, lines):
    with open(path + ".tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    out, mode, model, name = sys.argv[1:5]
    t_end = float(option("--t-end", "0.02"))
    if mode == "impacts":
        rtol = float(option("--rtol", "1e-11"))
        mech = Mechanism(model)
        imp = simulate(mech, t_end, rtol, rtol * 1e-3)[0]
        lines = [f"n,{len(imp)}", f"K,{mech.K:.17g}"]
        for i, r in enumerate(imp, 1):
            lines += [f"{i}.{k},{r[k]:.17g}" for k in ("t", "v", "F_max", "delta_max", "duration")]
        write(f"{out}/{name}_ref.csv", lines)
    elif mode == "ensemble":
        rtols = [float(r) for r in option("--rtols", "1e-9,1e-11").split(",")]
        perts = [float(p) for p in option("--perturbations", "0").split(",")]
        lines, k = [], 0
        for rtol in rtols:
            for p in perts:
                mech = Mechanism(model, p)
                imp, tc, acc, tcs, late = simulate(mech, t_end, rtol, rtol * 1e-3, record_peaks=False,
                                             acc_window=(0.0, 1e-5))
                lines += [f"{k}.rtol,{rtol:.17g}", f"{k}.perturbation,{p:.17g}",
                          f"{k}.impacts,{len(imp)}", f"{k}.contact_time,{tc:.17g}",
                          f"{k}.sampled_contact_time,{tcs:.17g}", f"{k}.peak_acc_late,{late:.17g}",
                          f"{k}.peak_acc,{acc:.17g}"]
                k += 1
        write(f"{out}/{name}_ensemble_ref.csv", [f"runs,{k}"] + lines)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
