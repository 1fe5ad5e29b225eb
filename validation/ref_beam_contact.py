# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for validation/val_beam_contact.c: a ball striking a free beam
between its nodes (models/ball_on_beam.xml), the same discretised system written here from
its equations and integrated by SciPy's Radau IIA (Hairer and Wanner 1996) at rtol 1e-10,
with the onset found by an event and a Jacobian by central differences.

The beam: steel (E = 207 GPa, nu = 0.3, rho = 7800 kg/m^3), L = 0.4 m along x, A = 1e-4 m^2,
I = 8.333333333e-10 m^4, k = 5/6, Kelvin-Voigt retardation time tau = 1e-6 s, 4 elements of
l = 0.1 m; nodes 0 .. 4 free, lumped masses rho A l (half at the ends) and rotary inertias
rho I l (half at the ends). Element between nodes a and b as in ref_beam_spin_up.py (the
Reissner element at one point: strains eps = d.t / l - 1, gamma = d.n / l,
kappa = (theta_b - theta_a) / l with t, n at the mean angle, section forces with the
retardation time; node a receives +F, -m_c / 2 + M and node b -F, -m_c / 2 - M).

The ball: m = 0.032673 kg, J = 1.30692e-6 kg m^2, radius R = 0.01 m at its centre, starting
at (0.15, 0.0155) with vy = -2 m/s. Gravity 9.81 m/s^2 along -y on every body.

The contact: the ball against the segment of nodes 1 and 2 swollen by h = 0.005 m: with
d = x_2 - x_1, s = clamp((c - x_1) . d / d . d, 0, 1), p = x_1 + s d,
delta = R + h - |c - p|, n = (c - p) / |c - p|, delta_dot = -n . (v_c - (1 - s) v_1 - s v_2);
the Lankarani-Nikravesh (1990) force F = K delta^1.5 (1 + 3 (1 - e^2) / 4 delta_dot / v0) for
delta > 0 (v0 the rate at the onset), e = 0.8, K given on the command line (the Hertz
stiffness of two cylinders that clink computed from the materials: an input here, not a
result); F n on the ball, -(1 - s) F n on node 1, -s F n on node 2. The ball stays in the
region of that element (checked by the caller through its contact's index).

usage: ref_beam_contact.py OUTDIR K T_END STEP
Writes OUTDIR/beam_contact_ref.csv, lines "key,value": ball.x.<k>, ball.y.<k>, ball.vy.<k>,
node<i>.y.<k> (i = 0 .. 4) at t = k STEP, k = 1 .. T_END / STEP; onset (the onset time, s).
"""
import os
import sys

import numpy as np
from scipy.integrate import solve_ivp

E, NU, RHO = 207e9, 0.3, 7800.0
L, AREA, INERTIA, KSH, TAU, NEL = 0.4, 1e-4, 8.333333333e-10, 5.0 / 6.0, 1e-6, 4
MB, JB, RB, HB, REST, GRAV = 0.032673, 1.30692e-6, 0.01, 0.005, 0.8, 9.81
NB = NEL + 2  # the nodes and the ball


def masses():
    l = L / NEL
    m = np.full(NEL + 1, RHO * AREA * l)
    j = np.full(NEL + 1, RHO * INERTIA * l)
    m[[0, -1]] /= 2
    j[[0, -1]] /= 2
    mm = np.empty(3 * NB)
    mm[0:3 * (NEL + 1):3] = m
    mm[1:3 * (NEL + 1):3] = m
    mm[2:3 * (NEL + 1):3] = j
    mm[-3:] = [MB, MB, JB]
    return mm


def beam_forces(q, v):
    """the elements' generalised forces on the nodes (..., 3 (NEL + 1)), a batch on the first axes"""
    l = L / NEL
    ea, kga, ei = E * AREA, KSH * E / (2 * (1 + NU)) * AREA, E * INERTIA
    nn = 3 * (NEL + 1)
    x, y, th = q[..., 0:nn:3], q[..., 1:nn:3], q[..., 2:nn:3]
    vx, vy, w = v[..., 0:nn:3], v[..., 1:nn:3], v[..., 2:nn:3]
    dx, dy = np.diff(x, axis=-1), np.diff(y, axis=-1)
    ddx, ddy = np.diff(vx, axis=-1), np.diff(vy, axis=-1)
    tm, wm = 0.5 * (th[..., :-1] + th[..., 1:]), 0.5 * (w[..., :-1] + w[..., 1:])
    tx, ty, nx, ny = np.cos(tm), np.sin(tm), -np.sin(tm), np.cos(tm)
    dt, dn = dx * tx + dy * ty, dx * nx + dy * ny
    eps_rate = (ddx * tx + ddy * ty + dn * wm) / l
    gam_rate = (ddx * nx + ddy * ny - dt * wm) / l
    axial = ea * (dt / l - 1 + TAU * eps_rate)
    shear = kga * (dn / l + TAU * gam_rate)
    moment = ei * (np.diff(th, axis=-1) + TAU * np.diff(w, axis=-1)) / l
    fx, fy = axial * tx + shear * nx, axial * ty + shear * ny
    mc = axial * dn - shear * dt
    g = np.zeros(q.shape[:-1] + (NEL + 1, 3))
    g[..., :-1, 0] += fx
    g[..., :-1, 1] += fy
    g[..., :-1, 2] += -0.5 * mc + moment
    g[..., 1:, 0] -= fx
    g[..., 1:, 1] -= fy
    g[..., 1:, 2] += -0.5 * mc - moment
    return g.reshape(q.shape[:-1] + (nn,))


def geometry(q, v):
    """delta, delta_dot, n, s of the ball against the segment of nodes 1 and 2 (batched)"""
    x1, x2, c = q[..., 3:5], q[..., 6:8], q[..., -3:-1]
    v1, v2, vc = v[..., 3:5], v[..., 6:8], v[..., -3:-1]
    d = x2 - x1
    s = np.clip(np.sum((c - x1) * d, axis=-1) / np.sum(d * d, axis=-1), 0.0, 1.0)[..., None]
    e = c - (x1 + s * d)
    dist = np.hypot(e[..., 0], e[..., 1])
    n = e / dist[..., None]
    rate = -np.sum(n * (vc - (1 - s) * v1 - s * v2), axis=-1)
    return RB + HB - dist, rate, n, s


def main():
    out, k_hertz, t_end, step = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    mm = masses()
    chi_v = 0.75 * (1 - REST**2)
    v0 = [None]

    def rhs(t, z):
        q, v = z[..., :3 * NB], z[..., 3 * NB:]
        g = np.zeros(z.shape[:-1] + (3 * NB,))
        g[..., :3 * (NEL + 1)] = beam_forces(q, v)
        g[..., 1::3] -= GRAV * mm[1::3]
        if v0[0] is not None:
            delta, rate, n, s = geometry(q, v)
            dp = np.maximum(delta, 0.0)[..., None]
            f = k_hertz * dp**1.5 * (1 + chi_v * rate[..., None] / v0[0]) * n
            g[..., -3:-1] += f
            g[..., 3:5] -= (1 - s) * f
            g[..., 6:8] -= s * f
        return np.concatenate((v, g / mm), axis=-1)

    def jac(t, z):
        """central differences of the right-hand side, all columns in one batch"""
        h = 1e-7 * np.maximum(np.abs(z), 1e-3)
        steps = np.diag(h)
        f = rhs(t, np.concatenate((z + steps, z - steps)))
        return ((f[: z.size] - f[z.size:]) / (2 * h[:, None])).T

    def onset(t, z):
        return geometry(z[:3 * NB], z[3 * NB:])[0]

    onset.terminal, onset.direction = True, 1
    z0 = np.zeros(6 * NB)
    z0[0:3 * (NEL + 1):3] = np.linspace(0.0, L, NEL + 1)
    z0[-3 - 3 * NB:-1 - 3 * NB] = [0.15, 0.0155]
    z0[-2] = -2.0
    times = step * np.arange(1, int(round(t_end / step)) + 1)
    opts = dict(method="Radau", jac=jac, rtol=1e-9, atol=1e-12)
    first = solve_ivp(rhs, (0.0, t_end), z0, events=onset, dense_output=True, **opts)
    if first.status != 1:
        sys.exit("ref_beam_contact: no onset found")
    t_on, z_on = first.t_events[0][0], first.y_events[0][0]
    v0[0] = geometry(z_on[:3 * NB], z_on[3 * NB:])[1]
    second = solve_ivp(rhs, (t_on, t_end), z_on, dense_output=True, **opts)

    if not second.success:
        sys.exit(f"ref_beam_contact: Radau failed: {second.message}")
    lines = [f"onset,{t_on:.16e}"]
    for k, t in enumerate(times, start=1):
        z = first.sol(t) if t <= t_on else second.sol(t)
        lines.append(f"ball.x.{k},{z[3 * NB - 3]:.16e}")
        lines.append(f"ball.y.{k},{z[3 * NB - 2]:.16e}")
        lines.append(f"ball.vy.{k},{z[6 * NB - 2]:.16e}")
        for i in range(NEL + 1):
            lines.append(f"node{i}.y.{k},{z[3 * i + 1]:.16e}")
    with open(os.path.join(out, "beam_contact_ref.csv"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
