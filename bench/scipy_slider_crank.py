#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The clearance slider-crank of models/slider_crank_clearance*.xml in SciPy.

The same equations as clink (docs/performance.md, "Mechanisms: saddle solver, Jacobian,
slider-crank, N-four-bar"): three bodies (crank, rod, slider) with q = (x, y, phi) each,
the index-1 saddle-point system

    [ M      Phi_q^T ] [ qdd     ]   [ g + Q_contact                       ]
    [ Phi_q  0       ] [ -lambda ] = [ gamma - 2 alpha Phi_dot - beta^2 Phi ]

with revolute joints ground-crank and crank-rod, a translational guide
(y_slider = 0, phi_slider = 0) and the crank angle driven at a constant rate,
stabilised by Baumgarte (SciPy has no projection hook inside the integrator).
The revolute clearance joint between the rod (journal) and the slider
(bearing): eccentricity e = r_journal - r_bearing, penetration
delta = |e| - (R_b - R_j), normal n = -e/|e|, the Lankarani-Nikravesh force
F = K delta^1.5 (1 + 3 (1 - c_r^2) / 4 * delta_dot / v_impact) (c_r the
restitution; K = 4 / (3 (s1 + s2)) sqrt(R_j R_b / (R_b - R_j)),
s = (1 - nu^2) / E), v_impact = max(delta_dot at onset, 1e-3 m/s), applied at
the contact points r_journal + R_j e/|e| and r_bearing + R_b e/|e|; the modified
Coulomb friction of Ambrosio, F_t = -mu c_d(|v_t|) F sign(v_t) with c_d ramping
from 0 at v0 to 1 at v1, when the model has friction. The onset (delta
crossing zero upwards) is a terminal event of solve_ivp, which restarts with
the new v_impact. The initial state is the model's, projected onto the
constraints in the metric of M, as clink does.

The right-hand side is scalar Python (math module, one tolist() in, one list out: on
18 components this beats small NumPy arrays) with the constants bound once per run.
The saddle-point system is solved exactly by the null-space method: Phi_q of this
mechanism has, at every q, the null space spanned by the slider's x and the rod's
rotation about the crank-rod joint, (0,0,0, b_y,-b_x,1, 0,0,0) with b the rod's vector
to that joint; the crank's accelerations follow from the driver and pin rows, the rod's
translation from the crank-rod rows, the slider's y and phi from the guide rows, and
the two free accelerations from the null-space rows of M qdd = g + Q. This is the
solution of the saddle system for any q (Baumgarte's terms enter as in a dense solve),
not a reduced model; --check compares it with numpy.linalg.solve on the 16 x 16 system
at random states.

Prints one JSON object: wall and CPU time (medians of --reps), right-hand sides, the
impact onsets, the final state, and the rtol and atol passed to solve_ivp.
Usage: scipy_slider_crank.py MODEL.xml [--t-end T] [--no-gravity] [--rtol R]
       [--atol A] [--alpha A --beta B] [--method LSODA] [--reps N]
       [--check]
"""
import argparse
import json
import math
import time
import xml.etree.ElementTree as ET
from math import cos, hypot, sin, sqrt

import numpy as np
from scipy.integrate import solve_ivp


def floats(s):
    return [float(x) for x in s.split()]


class SliderCrank:
    def __init__(self, path, no_gravity, alpha, beta):
        root = ET.parse(path).getroot()
        self.name = root.get("name")
        grav = floats(root.find("gravity").get("g")) if root.find("gravity") is not None else [0, -9.81]
        self.g = [0.0, 0.0] if no_gravity else grav
        bodies = {b.get("name"): b for b in root.find("bodies")}
        order = ["crank", "rod", "slider"]
        self.mass = np.zeros(9)
        q0, v0 = np.zeros(9), np.zeros(9)
        for i, n in enumerate(order):
            b = bodies[n]
            m, J = float(b.get("mass")), float(b.get("inertia"))
            self.mass[3 * i:3 * i + 3] = [m, m, J]
            q0[3 * i:3 * i + 3] = [float(b.get(k, "0")) for k in ("x", "y", "phi")]
            v0[3 * i:3 * i + 3] = [float(b.get(k, "0")) for k in ("vx", "vy", "omega")]
        joints = root.find("joints")
        rev = {j.get("name"): j for j in joints.findall("revolute")}
        self.pin = floats(rev["crank_pin"].get("point2"))  # on the crank
        self.pin_ground = floats(rev["crank_pin"].get("point1"))
        self.cr_a = floats(rev["crank_rod"].get("point1"))  # on the crank
        self.cr_b = floats(rev["crank_rod"].get("point2"))  # on the rod
        cl = joints.find("revolute_clearance")
        self.sj = floats(cl.get("journal_point"))  # on the rod
        self.sb = floats(cl.get("bearing_point"))  # on the slider
        self.Rj, self.Rb = float(cl.get("journal_radius")), float(cl.get("bearing_radius"))
        mats = {m.get("name"): m for m in root.find("materials")}
        s = 0.0
        for key in ("journal_material", "bearing_material"):
            m = mats[cl.get(key)]
            E, nu = float(m.get("E")), float(m.get("nu"))
            s += (1 - nu * nu) / E
        self.K = 4.0 / (3.0 * s) * math.sqrt(self.Rj * self.Rb / (self.Rb - self.Rj))
        law = cl.find("law")
        assert law.get("name") == "lankarani-nikravesh"
        self.cr = float(law.get("e"))
        fr = cl.find("friction")
        self.mu = float(fr.get("mu")) if fr is not None else 0.0
        self.fv0 = float(fr.get("v0")) if fr is not None else 0.0
        self.fv1 = float(fr.get("v1")) if fr is not None else 1.0
        drv = root.find("drivers").find("driver").find("linear")
        self.th0, self.w = float(drv.get("initial", "0")), float(drv.get("rate"))
        self.alpha, self.beta = alpha, beta
        self.q0, self.v0 = self.assemble(q0, v0)

    @staticmethod
    def rot(phi, s):
        c, sn = math.cos(phi), math.sin(phi)
        return np.array([c * s[0] - sn * s[1], sn * s[0] + c * s[1]])

    def constraints(self, t, q, v):
        """Phi (7), Phi_q (7 x 9), nu (7): for the assembly of the initial state only."""
        Phi, J, nu = np.zeros(7), np.zeros((7, 9)), np.zeros(7)
        s1 = self.rot(q[2], self.pin)
        Phi[0:2] = np.array(self.pin_ground) - (q[0:2] + s1)
        J[0:2, 0:2] = -np.eye(2)
        J[0:2, 2] = [s1[1], -s1[0]]
        a = self.rot(q[2], self.cr_a)
        b = self.rot(q[5], self.cr_b)
        Phi[2:4] = q[0:2] + a - q[3:5] - b
        J[2:4, 0:2] = np.eye(2)
        J[2:4, 2] = [-a[1], a[0]]
        J[2:4, 3:5] = -np.eye(2)
        J[2:4, 5] = [b[1], -b[0]]
        Phi[4], Phi[5] = q[7], q[8]
        J[4, 7], J[5, 8] = 1.0, 1.0
        Phi[6] = q[2] - (self.th0 + self.w * t)
        J[6, 2] = 1.0
        nu[6] = self.w
        return Phi, J, nu

    def assemble(self, q, v):
        """Newton on Phi = 0 with the correction minimal in the metric of M, then velocities."""
        q, v = q.copy(), v.copy()
        Minv = 1.0 / self.mass
        for _ in range(50):
            Phi, J, nu = self.constraints(0.0, q, v)
            if np.max(np.abs(Phi)) <= 1e-13:
                break
            S = (J * Minv) @ J.T
            q -= Minv * (J.T @ np.linalg.solve(S, Phi))
        Phi, J, nu = self.constraints(0.0, q, v)
        S = (J * Minv) @ J.T
        v += Minv * (J.T @ np.linalg.solve(S, nu - J @ v))
        return q, v

    def functions(self, v_imp):
        """The right-hand side, the onset event and the contact (delta, delta_dot) for
        the impact speed v_imp, with every constant bound as a closure variable."""
        _, _, _, m2, _, J2, m3, _, _ = self.mass.tolist()
        gfx2, gfy2, gfx3 = m2 * self.g[0], m2 * self.g[1], m3 * self.g[0]  # gravity on rod and slider
        gx, gy = self.pin_ground
        pnx, pny = self.pin
        crax, cray = self.cr_a
        crbx, crby = self.cr_b
        sjx, sjy = self.sj
        sbx, sby = self.sb
        Rj, Rb = self.Rj, self.Rb
        clear = Rb - Rj
        Kc = self.K
        damp = 0.75 * (1.0 - self.cr**2) / v_imp
        mu, fv0, fv1 = self.mu, self.fv0, self.fv1
        th0, wd = self.th0, self.w
        a2, b2 = 2.0 * self.alpha, self.beta**2

        def contact(x2, y2, p2, x3, y3, p3, vx2, vy2, w2, vx3, vy3, w3):
            """delta, delta_dot and the contact forces and torques on rod and slider"""
            c2, s2, c3, s3 = cos(p2), sin(p2), cos(p3), sin(p3)
            ajx, ajy = c2 * sjx - s2 * sjy, s2 * sjx + c2 * sjy
            abx, aby = c3 * sbx - s3 * sby, s3 * sbx + c3 * sby
            ex, ey = (x2 + ajx) - (x3 + abx), (y2 + ajy) - (y3 + aby)
            dist = hypot(ex, ey)
            if dist > 0.0:
                ehx, ehy = ex / dist, ey / dist
            else:
                ehx, ehy = 1.0, 0.0
            delta = dist - clear
            ddot = ehx * ((vx2 - w2 * ajy) - (vx3 - w3 * aby)) + ehy * ((vy2 + w2 * ajx) - (vy3 + w3 * abx))
            if delta <= 0.0:
                return delta, ddot, 0.0, 0.0, 0.0, 0.0
            Fn = Kc * (delta * sqrt(delta)) * (1.0 + damp * ddot)  # delta^1.5, no OverflowError
            if Fn < 0.0:
                Fn = 0.0
            # lever arms of the contact points r_j + R_j e/|e| and r_b + R_b e/|e|
            ujx, ujy = ajx + Rj * ehx, ajy + Rj * ehy
            ubx, uby = abx + Rb * ehx, aby + Rb * ehy
            fx, fy = -Fn * ehx, -Fn * ehy  # on the journal, along n = -e/|e|
            if mu > 0.0:
                tx, ty = ehy, -ehx  # t = (-n_y, n_x)
                vt = tx * ((vx2 - w2 * ujy) - (vx3 - w3 * uby)) + ty * ((vy2 + w2 * ujx) - (vy3 + w3 * ubx))
                sp = abs(vt)
                cd = 0.0 if sp <= fv0 else (1.0 if sp >= fv1 else (sp - fv0) / (fv1 - fv0))
                if cd > 0.0:
                    ft = -math.copysign(mu * cd * Fn, vt)
                    fx, fy = fx + ft * tx, fy + ft * ty
            return delta, ddot, fx, fy, ujx * fy - ujy * fx, uby * fx - ubx * fy

        def rhs(t, y):
            yl = y.tolist()
            x1, y1, p1, x2, y2, p2, x3, y3, p3, vx1, vy1, w1, vx2, vy2, w2, vx3, vy3, w3 = yl
            c1, s1, c2, s2 = cos(p1), sin(p1), cos(p2), sin(p2)
            sx, sy = c1 * pnx - s1 * pny, s1 * pnx + c1 * pny
            ax, ay = c1 * crax - s1 * cray, s1 * crax + c1 * cray
            bx, by = c2 * crbx - s2 * crby, s2 * crbx + c2 * crby
            ww1, ww2 = w1 * w1, w2 * w2
            # c = gamma - 2 alpha (Phi_q v - nu) - beta^2 Phi, rows 0-6
            r0 = -sx * ww1 - a2 * (-vx1 + sy * w1) - b2 * (gx - (x1 + sx))
            r1 = -sy * ww1 - a2 * (-vy1 - sx * w1) - b2 * (gy - (y1 + sy))
            r2 = ax * ww1 - bx * ww2 - a2 * (vx1 - ay * w1 - vx2 + by * w2) - b2 * (x1 + ax - x2 - bx)
            r3 = ay * ww1 - by * ww2 - a2 * (vy1 + ax * w1 - vy2 - bx * w2) - b2 * (y1 + ay - y2 - by)
            _, _, fx, fy, tj, tb = contact(x2, y2, p2, x3, y3, p3, vx2, vy2, w2, vx3, vy3, w3)
            # crank: the driver row gives phi1'', the pin rows r1''
            pdd1 = -a2 * (w1 - wd) - b2 * (p1 - (th0 + wd * t))
            xdd1, ydd1 = sy * pdd1 - r0, -sx * pdd1 - r1
            # rod: r2'' = p + (b_y, -b_x) phi2'' from the crank-rod rows; phi2'' from the
            # null-space row (b_y, -b_x, 1) of M qdd = g + Q
            px, py = xdd1 - ay * pdd1 - r2, ydd1 + ax * pdd1 - r3
            pdd2 = (by * (gfx2 + fx) - bx * (gfy2 + fy) + tj - m2 * (by * px - bx * py)) / (
                J2 + m2 * (bx * bx + by * by))
            # slider: x free, y and phi from the guide rows
            return [vx1, vy1, w1, vx2, vy2, w2, vx3, vy3, w3,
                    xdd1, ydd1, pdd1, px + by * pdd2, py - bx * pdd2, pdd2,
                    (gfx3 - fx) / m3, -a2 * vy3 - b2 * y3, -a2 * w3 - b2 * p3]

        def onset(t, y):
            """delta: the event function"""
            _, _, _, x2, y2, p2, x3, y3, p3 = y[:9].tolist()
            c2, s2, c3, s3 = cos(p2), sin(p2), cos(p3), sin(p3)
            return hypot((x2 + (c2 * sjx - s2 * sjy)) - (x3 + (c3 * sbx - s3 * sby)),
                         (y2 + (s2 * sjx + c2 * sjy)) - (y3 + (s3 * sbx + c3 * sby))) - clear

        onset.terminal, onset.direction = True, 1.0
        return rhs, contact, onset

    def dense_rhs(self, t, y, v_imp):
        """The right-hand side by numpy.linalg.solve on the 16 x 16 saddle system, the
        contact forces from the closed-form contact (for --check)."""
        q, v = y[:9], y[9:]
        Phi, J, nu = self.constraints(t, q, v)
        w = v[2::3]
        s1 = self.rot(q[2], self.pin)
        a, b = self.rot(q[2], self.cr_a), self.rot(q[5], self.cr_b)
        gam = np.zeros(7)
        gam[0:2] = -s1 * w[0]**2
        gam[2:4] = a * w[0]**2 - b * w[1]**2
        contact = self.functions(v_imp)[1]
        _, _, fx, fy, tj, tb = contact(*y[3:9].tolist(), *y[12:18].tolist())
        g = np.array([0.0, 0.0, 0.0, fx, fy, tj, -fx, -fy, tb])
        g[0::3] += self.mass[0::3] * self.g[0]
        g[1::3] += self.mass[1::3] * self.g[1]
        K = np.zeros((16, 16))
        K[range(9), range(9)] = self.mass
        K[:9, 9:] = J.T
        K[9:, :9] = J
        x = np.linalg.solve(K, np.concatenate([g, gam - 2.0 * self.alpha * (J @ v - nu) - self.beta**2 * Phi]))
        return np.concatenate([v, x[:9]])


def run(model, t_end, method, rtol, atol):
    """solve_ivp from the assembled state to t_end, restarting at each onset; the onset
    times, the final state and the right-hand sides evaluated"""
    y = np.concatenate([model.q0, model.v0])
    t, onsets, nrhs = 0.0, [], 0
    v_imp = 1e-3
    while t < t_end:
        rhs, contact, onset = model.functions(v_imp)
        sol = solve_ivp(rhs, (t, t_end), y, method=method, rtol=rtol, atol=atol, events=onset)
        nrhs += sol.nfev
        if sol.status < 0:
            raise RuntimeError(sol.message)
        t, y = sol.t[-1], sol.y[:, -1]
        if sol.status == 1 and t < t_end:
            delta, ddot = contact(*y[3:9].tolist(), *y[12:18].tolist())[:2]
            onsets.append(t)
            v_imp = max(ddot, 1e-3)
            # step just past the root so that the event does not fire again at the restart
            if delta <= 0.0:
                y = y + 1e-12 * np.asarray(rhs(t, y))
                nrhs += 1
                t += 1e-12
    return onsets, y, nrhs


def check(model, n=2000):
    """largest difference of the closed-form and the dense right-hand sides at n random
    states (rod at any angle, the bearing within 2 um of the journal's clearance circle,
    random velocities: separated, penetrating and sliding contacts), relative to the
    largest acceleration component of the state"""
    rng = np.random.default_rng(1)
    y0 = np.concatenate([model.q0, model.v0])
    clear = model.Rb - model.Rj
    worst = 0.0
    for _ in range(n):
        y = y0 + rng.normal(size=18) * np.r_[np.full(9, 1e-4), np.full(9, 3.0)]
        y[[2, 5]] += rng.uniform(-math.pi, math.pi, 2)
        rj = y[3:5] + model.rot(y[5], model.sj)
        ang, d = rng.uniform(0.0, 2.0 * math.pi), clear + rng.uniform(-2e-6, 2e-6)
        y[6:9] = rj[0] - d * math.cos(ang), rj[1] - d * math.sin(ang), 1e-4 * rng.normal()
        v_imp = rng.uniform(1e-3, 2.0)
        fast = np.asarray(model.functions(v_imp)[0](0.37e-3, y))
        dense = model.dense_rhs(0.37e-3, y, v_imp)
        worst = max(worst, float(np.max(np.abs(fast - dense)) / np.max(np.abs(dense[9:]))))
    return worst


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--t-end", type=float, default=0.1)
    ap.add_argument("--no-gravity", action="store_true")
    ap.add_argument("--method", default="LSODA")
    ap.add_argument("--rtol", type=float, default=1e-8)
    ap.add_argument("--atol", type=float, default=1e-11)
    ap.add_argument("--alpha", type=float, default=5.0)
    ap.add_argument("--beta", type=float, default=5.0)
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--check", action="store_true",
                    help="compare the closed-form right-hand side with the dense saddle solve")
    a = ap.parse_args()
    model = SliderCrank(a.model, a.no_gravity, a.alpha, a.beta)
    if a.check:
        print(json.dumps({"model": model.name, "closed_vs_dense_max_rel": check(model)}))
        return
    walls, cpus = [], []
    for _ in range(a.reps):
        t0, c0 = time.perf_counter(), time.process_time()
        onsets, y, nrhs = run(model, a.t_end, a.method, a.rtol, a.atol)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    walls.sort()
    cpus.sort()
    cpu = cpus[len(cpus) // 2]
    print(json.dumps({"model": model.name, "method": a.method, "rtol": a.rtol, "atol": a.atol,
                      "gravity": model.g, "K": model.K, "wall_s": walls[len(walls) // 2], "cpu_s": cpu,
                      "rhs": nrhs, "cpu_us_per_rhs": 1e6 * cpu / nrhs, "impacts": len(onsets),
                      "onsets": onsets, "crank_angle_end": float(y[2]), "slider_x_end": float(y[6])}))


if __name__ == "__main__":
    main()
