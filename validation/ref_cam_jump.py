#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Independent reference for the cam-valve train (models/cam_valve_train.xml): the
flat-faced follower's lift, its separation from the cam above the jump speed, its flight
and its re-impacts.

Not clink's formulation. The cam turns at the constant speed w, so the follower is one
degree of freedom, its height y on the guide, with no constraint left. For a flat face
normal to the travel the cam's surface is the envelope of the face at distance
R_b + s(phi) (the support function of the profile), so the penetration is exactly

    delta = R_b + s(w t) - y,    delta' = s'(w t) w - y'

and the equation of motion, with the valve spring's force k (y - R_b) + F0 and the
Kelvin-Voigt contact, is

    m y'' = -k (y - R_b) - F0 + [in contact] F,   F = K delta + c delta'

in contact from an impact (delta rising through 0) until delta falls back through 0, the
force pulling where the damper does (the law's zero_force = 0). The follower starts at
rest touching the cam (delta = 0, y = R_b) on its low dwell: the spring presses it in.

The law s is coded here from its definition (rise over beta_r, dwell, fall over beta_f,
low dwell): harmonic (h/2)(1 - cos(pi x)), cycloidal h (x - sin(2 pi x) / (2 pi)), x the
fraction of the span. SciPy DOP853 (rtol 1e-11, atol 1e-14, steps at most 2e-6 s) with the
separation (delta through 0 downwards, in contact) and the impact (upwards, in flight) as
terminal events, restarted after each.

Usage: ref_cam_jump.py OUTDIR --law L --omega W --t-end T --out NAME
Writes OUTDIR/NAME, lines "key,value": sep.K.t (the K-th separation), imp.K.t and imp.K.v
(the K-th impact and its approach speed delta'), n_imp; imp.K.duration (onset to the next
separation) and n_done for the impacts whose episode ended.
"""
import argparse
import math
import os
import sys

from scipy.integrate import solve_ivp

RB, H = 0.02, 0.008
RISE, DWELL, FALL = 2.0 * math.pi / 3.0, math.pi / 6.0, 2.0 * math.pi / 3.0
M, K_SPRING, F0 = 0.1, 2000.0, 20.0
K_CONTACT, C_CONTACT = 1e8, 6325.0


def unit(law, x):
    """the normalised rise and its first derivative in x"""
    if law == "harmonic":
        return 0.5 * (1.0 - math.cos(math.pi * x)), 0.5 * math.pi * math.sin(math.pi * x)
    return (x - math.sin(2.0 * math.pi * x) / (2.0 * math.pi), 1.0 - math.cos(2.0 * math.pi * x))


def lift(law, phi):
    """s(phi) and ds/dphi"""
    phi = math.fmod(phi, 2.0 * math.pi)
    if phi < RISE:
        f, f1 = unit(law, phi / RISE)
        return H * f, H * f1 / RISE
    if phi < RISE + DWELL:
        return H, 0.0
    if phi < RISE + DWELL + FALL:
        f, f1 = unit(law, (phi - RISE - DWELL) / FALL)
        return H * (1.0 - f), -H * f1 / FALL
    return 0.0, 0.0


def run(law, w, t_end):
    def gap(t, z):
        s, s1 = lift(law, w * t)
        return RB + s - z[0], s1 * w - z[1]

    def rhs_contact(t, z):
        d, dd = gap(t, z)
        f = K_CONTACT * d + C_CONTACT * dd
        return [z[1], (-K_SPRING * (z[0] - RB) - F0 + f) / M]

    def rhs_flight(t, z):
        return [z[1], (-K_SPRING * (z[0] - RB) - F0) / M]

    def event(t, z):
        return gap(t, z)[0]

    event.terminal = True
    t, z, contact = 0.0, [RB, 0.0], True
    seps, imps = [], []
    while t < t_end:
        event.direction = -1 if contact else 1
        sol = solve_ivp(rhs_contact if contact else rhs_flight, (t, t_end), z, method="DOP853",
                        rtol=1e-11, atol=1e-14, max_step=2e-6, events=event)
        if sol.status < 0:
            sys.exit("ref_cam_jump: " + sol.message)
        if sol.status == 1 and len(sol.t_events[0]) > 0:
            te, ze = sol.t_events[0][0], sol.y_events[0][0]
            if contact:
                seps.append(te)
            else:
                imps.append((te, gap(te, ze)[1]))
            # restart from the root in the other mode, the event looked for in the other sense
            t, z, contact = te, list(ze), not contact
        else:
            break
    return seps, imps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--law", default="cycloidal")
    ap.add_argument("--omega", type=float, required=True)
    ap.add_argument("--t-end", type=float, required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    seps, imps = run(a.law, a.omega, a.t_end)
    with open(os.path.join(a.outdir, a.out), "w") as f:
        for k, t in enumerate(seps, 1):
            f.write(f"sep.{k}.t,{t!r}\n")
        for k, (t, v) in enumerate(imps, 1):
            f.write(f"imp.{k}.t,{t!r}\nimp.{k}.v,{v!r}\n")
        f.write(f"n_imp,{len(imps)}\n")
        # the impacts whose episode ended (a separation after the onset) and their durations
        done = [(k, seps[k] - t) for k, (t, _) in enumerate(imps, 1) if k < len(seps)]
        for k, d in done:
            f.write(f"imp.{k}.duration,{d!r}\n")
        f.write(f"n_done,{len(done)}\n")


if __name__ == "__main__":
    main()
