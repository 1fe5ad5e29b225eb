#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for the two-pendulum impact of Poursina and Nikravesh
(2020), Sect. 6, in the three treatments of models/double_pendulum_impact*.xml.

Not clink's formulation: two generalised coordinates (the rod angles theta1,
theta2 from the downward vertical, counter-clockwise) instead of three absolute
coordinates per body with constraint multipliers, Lagrange's equations of two
uniform rods pinned at O1 = (0, 0) and O2 = (-a, 0):

    (m_i L_i^2 / 3) theta_i'' = -m_i g (L_i / 2) sin theta_i + Q_i.

The contact is the paper's point-against-line: the tip P of rod2 against the
axis of rod1, penetration delta = (P - O1) . n1 with n1 = (cos theta1,
sin theta1) the normal of rod1 (the tip starts on the side delta < 0),
generalised force Q = -F_n grad(delta), effective mass 1 / (grad(delta)^T M^-1
grad(delta)) (the mass matrix M of the angles is diagonal). Integrated with
SciPy's DOP853 at rtol = atol = 1e-12 with event location of the onset
(delta = 0 rising), of the separation and of the peak force.

Treatments:
  flores     F = K delta^n (1 + 8 (1 - e) / (5 e) delta' / v0), separation at delta = 0
             (Hunt and Crossley's form with the factor of Poursina and Nikravesh
             (2020), Eq. 16);
  piecewise  Newton's restitution at the onset: an impulse along grad(delta) that
             sends delta' to -e v0 (impulse-momentum in the angles);
  poursina   F = K delta^n + c delta', c = alpha (e^beta - 1) (K v0^(n-1) m^n)^(1/(n+1))
             with alpha, beta of Eqs. 46-47 (Eq. 49), m the effective mass at the
             onset; separation where F returns to zero (Eq. 50), then no force until
             delta is negative again (or climbs back to the separation penetration).

Writes OUTDIR/double_pendulum_ref.csv, lines "key,value": per treatment and
impact the onset time, approach speed, effective mass, restitution, peak force,
largest penetration, duration, and the angular rates at 8 s.
Usage: ref_double_pendulum.py OUTDIR [--t-end 8]
"""
import math
import sys

try:
    import numpy as np
    from scipy.integrate import solve_ivp
except ImportError as exc:  # the validation test fails with the package to install
    sys.exit(f"ref_double_pendulum.py: {exc}; install python3-scipy (scripts/install-deps)")

M1, M2, L1, L2, A = 1.0, 0.2, 6.0, 4.0, 2.0
G = 9.81
K, N, E = 1e8, 1.5, 0.3
I1, I2 = M1 * L1 * L1 / 3.0, M2 * L2 * L2 / 3.0
RTOL = ATOL = 1e-12


def geometry(y):
    """delta, grad(delta) w.r.t. (theta1, theta2), delta', position of the tip along rod1."""
    t1, t2, w1, w2 = y
    px, py = -A + L2 * math.sin(t2), -L2 * math.cos(t2)
    c1, s1 = math.cos(t1), math.sin(t1)
    delta = px * c1 + py * s1
    xi = px * s1 - py * c1  # distance of the tip's projection from O1 along rod1
    g1 = -xi  # d delta / d theta1
    g2 = L2 * (math.cos(t2) * c1 + math.sin(t2) * s1)  # d delta / d theta2
    return delta, g1, g2, g1 * w1 + g2 * w2, xi


def curvature(y):
    """w^T H w, H the Hessian of delta in the angles: delta'' = grad . theta'' + w^T H w."""
    t1, t2, w1, w2 = y
    c1, s1, c2, s2 = math.cos(t1), math.sin(t1), math.cos(t2), math.sin(t2)
    px, py = -A + L2 * s2, -L2 * c2
    h11 = -(px * c1 + py * s1)
    h22 = L2 * (-s2 * c1 + c2 * s1)
    h12 = L2 * (-c2 * s1 + s2 * c1)
    return h11 * w1 * w1 + 2.0 * h12 * w1 * w2 + h22 * w2 * w2


def m_eff(g1, g2):
    return 1.0 / (g1 * g1 / I1 + g2 * g2 / I2)


def poursina_c(v0, m):
    a = 0.3331 * N**4 - 1.48 * N**3 + 3.077 * N**2 - 2.306 * N + 1.794
    b = 1.285 * N**0.2553 - 1.725
    return a * (E**b - 1.0) * (K * v0 ** (N - 1.0) * m**N) ** (1.0 / (N + 1.0))


class Pendulums:
    def __init__(self, treatment):
        self.treatment = treatment
        self.phase = "open"  # open, contact, released
        self.v0 = self.c = self.delta_sep = 0.0

    def force(self, y):
        d, g1, g2, dd, _ = geometry(y)
        if self.phase != "contact" or d <= 0.0:
            return 0.0, g1, g2
        if self.treatment == "flores":
            f = K * d**N * (1.0 + 8.0 * (1.0 - E) / (5.0 * E) * dd / self.v0)
        else:
            f = K * d**N + self.c * dd
        return f, g1, g2

    def rhs(self, t, y):
        t1, t2, w1, w2 = y
        f, g1, g2 = self.force(y)
        return [w1, w2, (-M1 * G * L1 / 2 * math.sin(t1) - f * g1) / I1,
                (-M2 * G * L2 / 2 * math.sin(t2) - f * g2) / I2]


def run(treatment, t_end):
    p = Pendulums(treatment)
    y = [math.pi / 12.0, -math.pi / 2.0, 0.0, 0.0]
    t, impacts, cur = 0.0, [], None

    def onset(t, y):
        d, _, _, _, xi = geometry(y)
        return d if 0.0 <= xi <= L1 else -1.0

    onset.terminal, onset.direction = True, 1.0

    def separation(t, y):  # flores: delta = 0; poursina: F = 0
        if p.treatment == "flores":
            return geometry(y)[0]
        d, _, _, dd, _ = geometry(y)
        return K * max(d, 0.0) ** N + p.c * dd

    separation.terminal, separation.direction = True, -1.0

    def peak(t, y):  # dF/dt = 0 from above: the largest force of the contact
        d, g1, g2, dd, _ = geometry(y)
        if d <= 0.0:
            return -1.0
        acc = p.rhs(t, y)
        ddd = g1 * acc[2] + g2 * acc[3] + curvature(y)
        if p.treatment == "flores":
            D = 8.0 * (1.0 - E) / (5.0 * E) / p.v0
            return K * N * d ** (N - 1) * dd * (1 + D * dd) + K * d**N * D * ddd
        return K * N * d ** (N - 1) * dd + p.c * ddd

    peak.terminal, peak.direction = False, -1.0

    def end_of_compression(t, y):  # delta' = 0 from above: the largest penetration
        return geometry(y)[3]

    end_of_compression.terminal, end_of_compression.direction = False, -1.0

    def released_open(t, y):  # poursina after separation: delta < 0 again (open)
        return geometry(y)[0]

    released_open.terminal, released_open.direction = True, -1.0

    def released_back(t, y):  # ... or back to the separation penetration (re-contact)
        return geometry(y)[0] - p.delta_sep * (1.0 + 1e-9)

    released_back.terminal, released_back.direction = True, 1.0

    while t < t_end:
        if p.phase == "open":
            events = [onset]
        elif p.phase == "contact":
            events = [separation, peak, end_of_compression]
        else:
            events = [released_open, released_back]
        sol = solve_ivp(p.rhs, (t, t_end), y, method="DOP853", rtol=RTOL, atol=ATOL,
                        events=events, dense_output=False)
        if sol.status < 0:
            raise RuntimeError(sol.message)
        if p.phase == "contact":
            for tp, yp in zip(sol.t_events[1], sol.y_events[1]):
                f = p.force(yp)[0]
                if f > cur["F_max"]:
                    cur["F_max"] = f
            for yp in sol.y_events[2]:
                cur["delta_max"] = max(cur["delta_max"], geometry(yp)[0])
            # the samples too (a peak at an end point is no root)
            for k in range(sol.y.shape[1]):
                cur["F_max"] = max(cur["F_max"], p.force(sol.y[:, k])[0])
                cur["delta_max"] = max(cur["delta_max"], geometry(sol.y[:, k])[0])
        t, y = sol.t[-1], list(sol.y[:, -1])
        if sol.status != 1:
            break
        d, g1, g2, dd, xi = geometry(y)
        if p.phase == "open":
            me = m_eff(g1, g2)
            cur = {"t": t, "v": dd, "m_eff": me, "F_max": 0.0, "delta_max": 0.0, "xi": xi}
            if treatment == "piecewise":
                # impulse P along -grad(delta): delta' -> -e dd
                P = (1.0 + E) * dd * me
                y[2] -= P * g1 / I1
                y[3] -= P * g2 / I2
                cur.update(e=-geometry(y)[3] / dd, duration=0.0)
                impacts.append(cur)
                continue
            p.phase, p.v0 = "contact", dd
            p.c = poursina_c(dd, me) if treatment == "poursina" else 0.0
            # step over the root so that the next segment starts inside
            continue
        if p.phase == "contact":
            cur.update(e=-dd / cur["v"], duration=t - cur["t"], delta_sep=max(d, 0.0))
            impacts.append(cur)
            if treatment == "poursina" and d > 0.0:
                p.phase, p.delta_sep = "released", d
            else:
                p.phase = "open"
            continue
        # released: left through delta = 0 (open) or came back to delta_sep (contact)
        if d <= 0.5 * p.delta_sep:
            p.phase = "open"
        else:
            raise RuntimeError(f"re-contact from the released state at t = {t}: d = {d}, delta_sep = {p.delta_sep}")
    return impacts, y


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    t_end = float(sys.argv[sys.argv.index("--t-end") + 1]) if "--t-end" in sys.argv else 8.0
    lines = []
    for tr in ("flores", "piecewise", "poursina"):
        imp, y = run(tr, t_end)
        lines.append(f"{tr}.impacts,{len(imp)}")
        for i, r in enumerate(imp, 1):
            for k in ("t", "v", "m_eff", "e", "F_max", "delta_max", "duration", "xi"):
                if k in r:
                    lines.append(f"{tr}.{i}.{k},{r[k]:.17g}")
        lines.append(f"{tr}.omega1_end,{y[2]:.17g}")
        lines.append(f"{tr}.omega2_end,{y[3]:.17g}")
    with open(f"{out}/double_pendulum_ref.csv.tmp", "w") as f:
        f.write("\n".join(lines) + "\n")
    import os
    os.replace(f"{out}/double_pendulum_ref.csv.tmp", f"{out}/double_pendulum_ref.csv")


if __name__ == "__main__":
    main()
