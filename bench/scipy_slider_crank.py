#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The clearance slider-crank of models/slider_crank_clearance*.xml in SciPy.

The same equations as clink (docs/performance.md, "Mechanisms: saddle solver, Jacobian, slider-crank, N-four-bar"): three bodies (crank,
rod, slider) with q = (x, y, phi) each, the index-1 saddle-point system

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

Prints one JSON object: wall and CPU time (medians of --reps), right-hand sides, the
impact onsets, the final state. Parameters are read from the model file.
Usage: scipy_slider_crank.py MODEL.xml [--t-end T] [--no-gravity] [--rtol R]
       [--atol A] [--alpha A --beta B] [--method LSODA] [--reps N]
"""
import argparse
import json
import math
import time
import xml.etree.ElementTree as ET

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
        self.index = {n: i for i, n in enumerate(order)}
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
        self.pin = floats(rev["crank_pin"].get("point2"))  # on the crank; ground point (0, 0)
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
        self.v_imp = 1e-3
        self.nrhs = 0
        self.q0, self.v0 = self.assemble(q0, v0)

    @staticmethod
    def rot(phi, s):
        c, sn = math.cos(phi), math.sin(phi)
        return np.array([c * s[0] - sn * s[1], sn * s[0] + c * s[1]])

    def constraints(self, t, q, v):
        """Phi (7), Phi_q (7 x 9), nu (7), gamma (7)."""
        Phi, J = np.zeros(7), np.zeros((7, 9))
        gam, nu = np.zeros(7), np.zeros(7)
        w = v[2::3]
        # revolute ground-crank: ground point - (r1 + A1 s)
        s1 = self.rot(q[2], self.pin)
        Phi[0:2] = np.array(self.pin_ground) - (q[0:2] + s1)
        J[0:2, 0:2] = -np.eye(2)
        J[0:2, 2] = [s1[1], -s1[0]]
        gam[0:2] = -s1 * w[0] ** 2
        # revolute crank-rod: (r1 + A1 a) - (r2 + A2 b)
        a = self.rot(q[2], self.cr_a)
        b = self.rot(q[5], self.cr_b)
        Phi[2:4] = q[0:2] + a - q[3:5] - b
        J[2:4, 0:2] = np.eye(2)
        J[2:4, 2] = [-a[1], a[0]]
        J[2:4, 3:5] = -np.eye(2)
        J[2:4, 5] = [b[1], -b[0]]
        gam[2:4] = a * w[0] ** 2 - b * w[1] ** 2
        # translational guide along x through the origin: y_s = 0, phi_s = 0
        Phi[4], Phi[5] = q[7], q[8]
        J[4, 7], J[5, 8] = 1.0, 1.0
        # driver: phi_crank - (th0 + w t)
        Phi[6] = q[2] - (self.th0 + self.w * t)
        J[6, 2] = 1.0
        nu[6] = self.w
        return Phi, J, nu, gam

    def assemble(self, q, v):
        """Newton on Phi = 0 with the correction minimal in the metric of M, then velocities."""
        q, v = q.copy(), v.copy()
        Minv = 1.0 / self.mass
        for _ in range(50):
            Phi, J, nu, _ = self.constraints(0.0, q, v)
            if np.max(np.abs(Phi)) <= 1e-13:
                break
            S = (J * Minv) @ J.T
            q -= Minv * (J.T @ np.linalg.solve(S, Phi))
        Phi, J, nu, _ = self.constraints(0.0, q, v)
        S = (J * Minv) @ J.T
        v += Minv * (J.T @ np.linalg.solve(S, nu - J @ v))
        return q, v

    def contact(self, q, v):
        """delta, delta_dot, generalised contact forces (9)."""
        rod, sl = 3, 6
        aj = self.rot(q[rod + 2], self.sj)
        ab = self.rot(q[sl + 2], self.sb)
        rj, rb = q[rod:rod + 2] + aj, q[sl:sl + 2] + ab
        vj = v[rod:rod + 2] + v[rod + 2] * np.array([-aj[1], aj[0]])
        vb = v[sl:sl + 2] + v[sl + 2] * np.array([-ab[1], ab[0]])
        e = rj - rb
        dist = math.hypot(e[0], e[1])
        eh = e / dist if dist > 0.0 else np.array([1.0, 0.0])
        delta = dist - (self.Rb - self.Rj)
        ddot = float(eh @ (vj - vb))
        Q = np.zeros(9)
        if delta <= 0.0:
            return delta, ddot, Q
        Fn = self.K * delta ** 1.5 * (1.0 + 0.75 * (1.0 - self.cr ** 2) * ddot / self.v_imp)
        Fn = max(Fn, 0.0)
        n = -eh
        tvec = np.array([-n[1], n[0]])
        pj, pb = rj + self.Rj * eh, rb + self.Rb * eh  # contact points on journal and bearing
        ft = 0.0
        if self.mu > 0.0:
            uj, ub = pj - q[rod:rod + 2], pb - q[sl:sl + 2]
            vpj = v[rod:rod + 2] + v[rod + 2] * np.array([-uj[1], uj[0]])
            vpb = v[sl:sl + 2] + v[sl + 2] * np.array([-ub[1], ub[0]])
            vt = float(tvec @ (vpj - vpb))
            sp = abs(vt)
            cd = 0.0 if sp <= self.fv0 else (1.0 if sp >= self.fv1 else (sp - self.fv0) / (self.fv1 - self.fv0))
            ft = -math.copysign(self.mu * cd * Fn, vt) if cd > 0.0 else 0.0
        f = Fn * n + ft * tvec  # on the journal (rod) at pj, the opposite on the slider at pb
        for body, p, ff in ((rod, pj, f), (sl, pb, -f)):
            u = p - q[body:body + 2]
            Q[body:body + 2] += ff
            Q[body + 2] += u[0] * ff[1] - u[1] * ff[0]
        return delta, ddot, Q

    def rhs(self, t, y):
        self.nrhs += 1
        q, v = y[:9], y[9:]
        Phi, J, nu, gam = self.constraints(t, q, v)
        _, _, Q = self.contact(q, v)
        g = Q.copy()
        g[0::3] += self.mass[0::3] * self.g[0]
        g[1::3] += self.mass[1::3] * self.g[1]
        rhs2 = gam - 2.0 * self.alpha * (J @ v - nu) - self.beta ** 2 * Phi
        K = np.zeros((16, 16))
        K[range(9), range(9)] = self.mass
        K[:9, 9:] = J.T
        K[9:, :9] = J
        x = np.linalg.solve(K, np.concatenate([g, rhs2]))
        return np.concatenate([v, x[:9]])

    def onset(self, t, y):
        d, _, _ = self.contact(y[:9], y[9:])
        return d


def run(model, t_end, method, rtol, atol):
    y = np.concatenate([model.q0, model.v0])
    t, onsets = 0.0, []
    model.nrhs = 0
    model.v_imp = 1e-3

    def event(t, y):
        return model.onset(t, y)

    event.terminal, event.direction = True, 1.0
    while t < t_end:
        sol = solve_ivp(model.rhs, (t, t_end), y, method=method, rtol=rtol, atol=atol, events=event)
        if sol.status < 0:
            raise RuntimeError(sol.message)
        t, y = sol.t[-1], sol.y[:, -1]
        if sol.status == 1 and t < t_end:
            _, ddot, _ = model.contact(y[:9], y[9:])
            onsets.append(t)
            model.v_imp = max(ddot, 1e-3)
            # step just past the root so that the event does not fire again at the restart
            if model.onset(t, y) <= 0.0:
                y = y + 1e-12 * model.rhs(t, y)
                t += 1e-12
    return onsets, y


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
    a = ap.parse_args()
    model = SliderCrank(a.model, a.no_gravity, a.alpha, a.beta)
    walls, cpus = [], []
    for _ in range(a.reps):
        t0, c0 = time.perf_counter(), time.process_time()
        onsets, y = run(model, a.t_end, a.method, a.rtol, a.atol)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    walls.sort()
    cpus.sort()
    print(json.dumps({"model": model.name, "method": a.method, "rtol": a.rtol, "atol": a.atol,
                      "gravity": model.g, "K": model.K, "wall_s": walls[len(walls) // 2], "cpu_s": cpus[len(cpus) // 2],
                      "rhs": model.nrhs, "impacts": len(onsets), "onsets": onsets,
                      "crank_angle_end": float(y[2]), "slider_x_end": float(y[6])}))


if __name__ == "__main__":
    main()
