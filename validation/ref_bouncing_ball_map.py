#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for the ball on a vibrating table (models/bouncing_ball_table.xml):
the exact impact map, iterated on its own, with its Jacobian (Holmes 1982; Luck and Mehta
1993; docs/nonlinear.md). Shares no code with clink.

The table moves as s(t) = A sin(w t). After an impact at time t0 the ball's lowest point
leaves the table with velocity v0 > s'(t0) and flies freely,
    b(t) = s(t0) + v0 (t - t0) - g (t - t0)^2 / 2,
until the first t1 > t0 with b(t1) = s(t1); there Newton's law on the relative velocity
gives v1 = (1 + e) s'(t1) - e b'(t1). The next impact is the first zero of
h(tau) = b(t0 + tau) - s(t0 + tau): h is evaluated on a grid of T / 512 from tau = 0 to
the time the parabola falls below -A (NumPy, all at once); the first sign change, or the
first grid interval where h' goes from negative to positive with h < 0 at its minimum (a
graze between two grid points), brackets the root, which Brent's method (SciPy) refines to
1e-15 s. Implicit differentiation of h(t1; t0, v0) = 0 gives the Jacobian of the map
(t0, v0) -> (t1, v1), with D = b'(t1) - s'(t1) < 0 and tau = t1 - t0:
    dt1/dt0 = -(s'(t0) - v0 + g tau) / D,     dt1/dv0 = -tau / D,
    dv1/dt0 = (1 + e) s''(t1) dt1/dt0 + e g (dt1/dt0 - 1),
    dv1/dv0 = (1 + e) s''(t1) dt1/dv0 - e (1 - g dt1/dv0).

Modes (output OUTDIR/OUT, lines "key,value"):
  --lyapunov GAMMA --impacts N: the largest Lyapunov exponent per unit time, a tangent
      vector carried through the Jacobians and renormalised at every impact (Benettin et al.
      1980), after 2000 impacts of transient; the sum of ln growths over the elapsed time.
      Error: the standard error of the means of 10 equal batches of impacts (each batch's
      exponent its ln growth over its elapsed time). Also the sum of both exponents (QR
      of the 2 x 2 products), which is 2 ln(e) per impact for this map (det J = e^2 times
      the ratio of relative speeds, which telescopes), a check of the Jacobian.
  --thresholds K: the first K period-doubling thresholds Gamma_k of the table's
      acceleration Gamma = A w^2 / g: the period-2^(k-1) orbit (2^(k-1) impacts in 2^(k-1)
      table periods) found by Newton's method on F(t0, v0) = (t_P - t0 - P T, v_P - v0),
      continued in Gamma, and its Floquet multiplier (the eigenvalue of the product of P
      Jacobians) brought to -1 by Brent's method in Gamma (to 1e-12).
"""
import argparse
import math
import os
import sys

import numpy as np
from scipy.optimize import brentq

G = 9.81
E = 0.5
W = 10.0 * math.pi
T = 2.0 * math.pi / W


class Chatter(Exception):
    pass


def impact(t0, v0, A):
    """the next impact (t1, v1) after one at (t0, v0), and the map's Jacobian there"""
    s0, sd0 = A * math.sin(W * t0), A * W * math.cos(W * t0)
    if v0 - sd0 < 1e-9:
        raise Chatter("relative take-off speed %g at t = %g" % (v0 - sd0, t0))
    # the parabola falls below -A at tau_max: the impact comes before
    tau_max = (v0 + math.sqrt(v0 * v0 + 2.0 * G * (s0 + A))) / G
    n = int(math.ceil(tau_max / (T / 512.0))) + 1
    tau = np.linspace(0.0, tau_max, n)
    h = s0 + v0 * tau - 0.5 * G * tau * tau - A * np.sin(W * (t0 + tau))
    hd = v0 - G * tau - A * W * np.cos(W * (t0 + tau))

    def hf(x):
        return s0 + v0 * x - 0.5 * G * x * x - A * math.sin(W * (t0 + x))

    def hdf(x):
        return v0 - G * x - A * W * math.cos(W * (t0 + x))

    for i in range(1, n):
        lo = tau[i - 1] if i > 1 else 0.0
        if i > 1 and h[i] <= 0.0:
            x = brentq(hf, lo, tau[i], xtol=1e-15, rtol=1e-15)
            break
        if i == 1 and h[1] <= 0.0:  # the root inside the first cell: h / tau has no zero at 0
            x = brentq(lambda y: hf(y) / y if y > 0 else v0 - sd0, 0.0, tau[1], xtol=1e-15)
            break
        if hd[i - 1] < 0.0 < hd[i]:  # a minimum inside the cell: a graze below the table?
            m = brentq(hdf, tau[i - 1], tau[i], xtol=1e-15)
            if hf(m) < 0.0:
                x = brentq(hf, tau[i - 1] if i > 1 else 1e-300, m, xtol=1e-15, rtol=1e-15)
                break
    else:
        raise RuntimeError("no impact found after t = %g" % t0)
    t1 = t0 + x
    bd1 = v0 - G * x
    sd1, sdd1 = A * W * math.cos(W * t1), -A * W * W * math.sin(W * t1)
    D = bd1 - sd1
    v1 = (1.0 + E) * sd1 - E * bd1
    a = -(sd0 - v0 + G * x) / D
    b = -x / D
    J = np.array([[a, b],
                  [(1.0 + E) * sdd1 * a + E * G * (a - 1.0),
                   (1.0 + E) * sdd1 * b - E * (1.0 - G * b)]])
    return t1, v1, J


def reduce_phase(t):
    """t modulo the table period (the map is periodic in t)"""
    return t - T * math.floor(t / T)


def lyapunov(gam, impacts):
    A = gam * G / (W * W)
    # from the period-1 orbit's take-off (unstable at these Gamma), the phase of Gamma = 1.3's
    t, v = math.acos(math.pi * (1.0 - E) / (1.0 + E) / 1.3) / W, G * T / 2.0
    for _ in range(2000):
        t, v, _ = impact(t, v, A)
        t = reduce_phase(t)
    Q = np.eye(2)
    u = np.array([1.0, 0.0])
    nb = 10
    per = impacts // nb
    lns, sums, times = np.zeros(nb), np.zeros(nb), np.zeros(nb)
    for k in range(nb * per):
        t1, v, J = impact(t, v, A)
        times[k // per] += t1 - t
        t = reduce_phase(t1)
        u = J @ u
        nu = np.linalg.norm(u)
        lns[k // per] += math.log(nu)
        u /= nu
        q, r = np.linalg.qr(J @ Q)
        sums[k // per] += math.log(abs(r[0, 0])) + math.log(abs(r[1, 1]))
        Q = q
    lam = lns.sum() / times.sum()
    batch = lns / times
    err = batch.std(ddof=1) / math.sqrt(nb)
    return {"lambda": lam, "error": err, "impacts": nb * per, "time": times.sum(),
            "sum_per_impact": sums.sum() / (nb * per), "two_ln_e": 2.0 * math.log(E)}


def orbit_map(t0, v0, A, P):
    """P impacts from (t0, v0): (t_P, v_P) and the product of the Jacobians"""
    M = np.eye(2)
    t, v = t0, v0
    for _ in range(P):
        t, v, J = impact(t, v, A)
        M = J @ M
    return t, v, M


def newton_orbit(t0, v0, A, P):
    """the period-P orbit (P impacts in P T) near (t0, v0) and its multipliers"""
    for _ in range(60):
        t, v, M = orbit_map(t0, v0, A, P)
        F = np.array([t - t0 - P * T, v - v0])
        if np.max(np.abs(F)) < 1e-12:
            break
        d = np.linalg.solve(M - np.eye(2), -F)
        t0, v0 = t0 + d[0], v0 + d[1]
    else:
        raise RuntimeError("Newton's method did not converge for P = %d" % P)
    t, v, M = orbit_map(t0, v0, A, P)
    mu = np.linalg.eigvals(M)
    return t0, v0, mu


def smallest_real(mu):
    """the multiplier that goes to -1: the most negative real one (or a complex pair's
    real part, far from -1 then)"""
    return float(np.min(mu.real)) if np.all(np.abs(mu.imag) < 1e-12) else float(mu.real[0])


def thresholds(K):
    out = {}
    # the period-1 orbit at Gamma = 1.3 in closed form (docs/nonlinear.md)
    g1 = math.pi * (1.0 - E) / (1.0 + E)
    gam = 1.3
    phi = math.acos(g1 / gam)
    t0, v0 = phi / W, G * T / 2.0
    P = 1
    span = 0.2  # the search steps: a tenth of the last interval between thresholds
    for k in range(1, K + 1):
        # march Gamma up along the period-P orbit until its multiplier passes -1
        step = span / 10.0
        state, prev = (t0, v0), None
        while True:
            A = gam * G / (W * W)
            ts, vs, mu = newton_orbit(state[0], state[1], A, P)
            if smallest_real(mu) < -1.0:
                break
            prev = (gam, ts, vs)
            state = (ts, vs)
            gam += step
        if prev is None:
            raise RuntimeError("the period-%d orbit is unstable where the search starts" % P)
        g_lo, t_lo, v_lo = prev

        def f(gg):
            _, _, mu = newton_orbit(t_lo, v_lo, gg * G / (W * W), P)
            return smallest_real(mu) + 1.0

        gk = brentq(f, g_lo, gam, xtol=1e-13, rtol=1e-14)
        out["gamma.%d" % k] = gk
        if k > 1:
            span = gk - out["gamma.%d" % (k - 1)]
        # past the flip: the period-2P orbit, from the P-orbit pushed off, settled by
        # iterating the map, then Newton
        gam = gk + span / 10.0
        A = gam * G / (W * W)
        t, v = t_lo, v_lo * (1.0 + 1e-4)
        for _ in range(2000 * P):
            t, v, _ = impact(t, v, A)
        P *= 2
        t0, v0, mu = newton_orbit(reduce_phase(t), v, A, P)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--lyapunov", type=float)
    ap.add_argument("--impacts", type=int, default=100000)
    ap.add_argument("--thresholds", type=int)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    res = {}
    try:
        if a.lyapunov is not None:
            res.update(lyapunov(a.lyapunov, a.impacts))
        if a.thresholds:
            res.update(thresholds(a.thresholds))
    except Chatter as ex:
        sys.exit("ref_bouncing_ball_map: the ball chatters (%s)" % ex)
    with open(os.path.join(a.outdir, a.out), "w") as f:
        for k, val in res.items():
            f.write("%s,%r\n" % (k, val))


if __name__ == "__main__":
    main()
