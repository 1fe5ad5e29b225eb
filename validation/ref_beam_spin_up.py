# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for validation/val_beam_spin_up.c: the spin-up of a flexible beam
(Simo and Vu-Quoc 1986), the same discretisation as clink's beam elements written here from
the virtual work of the element, integrated by SciPy's VODE (Brown, Byrne and Hindmarsh 1989)
with its BDF of order at most 2 (A-stable: the higher orders fail on the lightly damped
modes of the spinning beam) at rtol 1e-9, with a Jacobian by central differences.

The beam: L = 10 m, EA = 2.8e7 N, kGA = 1e7 N, EI = 1.4e4 N m^2, rho A = 1.2 kg/m,
rho I = 6e-4 kg m, Kelvin-Voigt damping with the retardation time tau = 1e-4 s (it damps the
element's shear-rotation and axial vibrations, 1.3e5 and 7.7e3 rad/s, and leaves the first
bending mode, 3.8 rad/s, with a damping ratio of 2e-4), N elements of length l = L / N. Node 0 is the hub: at the origin, its
rotation prescribed, theta_0(t) = the natural cubic spline through (t_k, theta(t_k)),
t_k = 0, 0.25, ..., 30 s, of the spin-up law
    theta(t) = (omega_s / T_s) (t^2 / 2 + (T_s / 2 pi)^2 (cos(2 pi t / T_s) - 1)),  t <= T_s,
    theta(t) = omega_s (t - T_s / 2),  t > T_s,
with omega_s = 4 rad/s, T_s = 15 s. Nodes 1 .. N are free, with lumped masses rho A l
(rho A l / 2 at the tip) and rotary inertias rho I l (rho I l / 2).

Element between nodes a and b (d = r_b - r_a, theta_m = (theta_a + theta_b) / 2,
t = (cos theta_m, sin theta_m), n = (-sin theta_m, cos theta_m)): strains eps = d.t / l - 1,
gamma = d.n / l, kappa = (theta_b - theta_a) / l, their rates epsdot = (ddot.t + (d.n)
thetadot_m) / l, gammadot = (ddot.n - (d.t) thetadot_m) / l, kappadot = (thetadot_b -
thetadot_a) / l, section forces N = EA (eps + tau epsdot), Q = kGA (gamma + tau gammadot),
M = EI (kappa + tau kappadot). Their virtual work is
    dU = F . (dr_b - dr_a) + m_c (dtheta_a + dtheta_b) / 2 + M (dtheta_b - dtheta_a),
    F = N t + Q n,  m_c = N (d . n) - Q (d . t),
so node a receives +F, -m_c / 2 + M and node b -F, -m_c / 2 - M.

usage: ref_beam_spin_up.py OUTDIR N T_END STEP
Writes OUTDIR/beam_spin_up_ref.csv, lines "key,value": tip.<k> the tip's deflection across
the hub's axis (m) at t = k STEP, k = 1 .. T_END / STEP, and axial.<k> its displacement along
the axis from the undeformed length.
"""
import os
import sys

import numpy as np
from scipy.integrate import ode
from scipy.interpolate import CubicSpline

L, EA, KGA, EI, RHOA, RHOI = 10.0, 2.8e7, 1.0e7, 1.4e4, 1.2, 6.0e-4
OMEGA_S, T_S = 4.0, 15.0
TAU = 1e-4


def spin_law(t):
    """the spin-up law theta(t) (rad)"""
    t = np.asarray(t, dtype=float)
    early = OMEGA_S / T_S * (t**2 / 2 + (T_S / (2 * np.pi))**2 * (np.cos(2 * np.pi * t / T_S) - 1))
    return np.where(t <= T_S, early, OMEGA_S * (t - T_S / 2))


def main():
    out, n, t_end, step = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    knots = np.arange(0.0, 30.0 + 1e-9, 0.25)
    hub = CubicSpline(knots, spin_law(knots), bc_type="natural")
    l = L / n
    mass = np.full(n, RHOA * l)
    inertia = np.full(n, RHOI * l)
    mass[-1] /= 2
    inertia[-1] /= 2
    minv = np.empty(3 * n)
    minv[0::3] = 1 / mass
    minv[1::3] = 1 / mass
    minv[2::3] = 1 / inertia

    def forces(t, q, v):
        """the generalised forces on nodes 1 .. n; q and v (..., 3 n), a batch on the first axes"""
        batch = q.shape[:-1]
        zero = np.zeros(batch + (1,))
        # nodes 0 .. n: the hub, then the free nodes
        x = np.concatenate((zero, q[..., 0::3]), axis=-1)
        y = np.concatenate((zero, q[..., 1::3]), axis=-1)
        th = np.concatenate((zero + float(hub(t)), q[..., 2::3]), axis=-1)
        vx = np.concatenate((zero, v[..., 0::3]), axis=-1)
        vy = np.concatenate((zero, v[..., 1::3]), axis=-1)
        w = np.concatenate((zero + float(hub(t, 1)), v[..., 2::3]), axis=-1)
        dx, dy = np.diff(x, axis=-1), np.diff(y, axis=-1)
        ddx, ddy = np.diff(vx, axis=-1), np.diff(vy, axis=-1)
        tm, wm = 0.5 * (th[..., :-1] + th[..., 1:]), 0.5 * (w[..., :-1] + w[..., 1:])
        tx, ty, nx, ny = np.cos(tm), np.sin(tm), -np.sin(tm), np.cos(tm)
        dt, dn = dx * tx + dy * ty, dx * nx + dy * ny
        eps_rate = (ddx * tx + ddy * ty + dn * wm) / l
        gam_rate = (ddx * nx + ddy * ny - dt * wm) / l
        axial = EA * (dt / l - 1 + TAU * eps_rate)
        shear = KGA * (dn / l + TAU * gam_rate)
        moment = EI * (np.diff(th, axis=-1) + TAU * np.diff(w, axis=-1)) / l
        fx, fy = axial * tx + shear * nx, axial * ty + shear * ny
        mc = axial * dn - shear * dt
        g = np.zeros(batch + (n + 1, 3))
        g[..., :-1, 0] += fx
        g[..., :-1, 1] += fy
        g[..., :-1, 2] += -0.5 * mc + moment
        g[..., 1:, 0] -= fx
        g[..., 1:, 1] -= fy
        g[..., 1:, 2] += -0.5 * mc - moment
        return g[..., 1:, :].reshape(batch + (3 * n,))

    def rhs(t, z):
        q, v = z[..., : 3 * n], z[..., 3 * n:]
        return np.concatenate((v, minv * forces(t, q, v)), axis=-1)

    def jac(t, z):
        """central differences of the right-hand side, all columns in one batch"""
        h = 1e-7 * np.maximum(np.abs(z), 1e-2)
        steps = np.diag(h)
        f = rhs(t, np.concatenate((z + steps, z - steps)))
        return ((f[: z.size] - f[z.size:]) / (2 * h[:, None])).T

    z0 = np.zeros(6 * n)
    z0[0: 3 * n: 3] = l * np.arange(1, n + 1)
    times = step * np.arange(1, int(round(t_end / step)) + 1)
    # VODE's BDF with the batched Jacobian, order at most 2
    solver = ode(rhs, jac).set_integrator("vode", method="bdf", rtol=1e-9, atol=1e-11,
                                           nsteps=10**7, order=2)
    solver.set_initial_value(z0, 0.0)
    ys = []
    for t in times:
        ys.append(solver.integrate(t))
        if not solver.successful():
            sys.exit(f"ref_beam_spin_up: VODE failed at t = {solver.t}")
    sol_t, sol_y = times, np.array(ys).T
    lines = []
    for k, t in enumerate(sol_t, start=1):
        xt, yt = sol_y[3 * n - 3, k - 1], sol_y[3 * n - 2, k - 1]
        c, s = np.cos(hub(t)), np.sin(hub(t))
        lines.append(f"tip.{k},{-s * xt + c * yt:.16e}")
        lines.append(f"axial.{k},{c * xt + s * yt - L:.16e}")
    with open(os.path.join(out, "beam_spin_up_ref.csv"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
