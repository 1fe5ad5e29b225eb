#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A closed loop with the controller in the host, in Python: the clearance slider-crank of
examples/slider_crank_clearance_torque.xml has no speed driver; a PD controller sets its input
motor_torque between advances to hold 5000 rpm (the same controller, gains and hold as
examples/pd_crank.c):

    tau = Kp (theta_ref - theta) + Kd (omega_ref - omega),  theta_ref = omega_ref t,
    Kd = 20 N m s/rad, Kp = 2.5e5 N m/rad, held over each period of 1e-5 s.

Usage:
    python3 examples/pd_crank.py [--t-end 0.012] [--period 1e-5] [--model PATH]

Prints the crank speed every millisecond and the largest speed error over the last half;
exits 1 if that error exceeds 2 %.
"""
import argparse
import math
import os
import sys

import clink

HERE = os.path.dirname(os.path.abspath(__file__))
OMEGA_REF = 5000.0 * 2.0 * math.pi / 60.0
KP, KD = 2.5e5, 20.0


def run(model_path, t_end=0.012, period=1e-5, quiet=False):
    """The closed loop: (times, crank speeds in rpm, torques) at the end of each period, and
    the final crank speed in rad/s (the C example prints it to 17 digits)."""
    model = clink.load(model_path)
    times, rpm, torques = [], [], []
    with model.start() as s:
        theta0 = s.q[0, 2]
        steps, every = round(t_end / period), round(1e-3 / period)
        for k in range(steps):
            theta, omega = s.q[0, 2], s.v[0, 2]
            tau = KP * (theta0 + OMEGA_REF * (k * period) - theta) + KD * (OMEGA_REF - omega)
            s.inputs["motor_torque"] = tau
            s.advance((k + 1) * period)
            times.append(s.t)
            rpm.append(s.v[0, 2] * 60.0 / (2.0 * math.pi))
            torques.append(tau)
            final = s.v[0, 2]
            if not quiet and (k + 1) % every == 0:
                print("%.4f s  %9.2f rpm  %9.3f N m" % (s.t, rpm[-1], tau))
    return times, rpm, torques, final


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--t-end", type=float, default=0.012)
    ap.add_argument("--period", type=float, default=1e-5)
    ap.add_argument("--model", default=os.path.join(HERE, "slider_crank_clearance_torque.xml"))
    a = ap.parse_args()
    times, rpm, _, final = run(a.model, a.t_end, a.period)
    half = len(rpm) // 2
    worst = max(abs(r - 5000.0) / 5000.0 for r in rpm[half:])
    print("largest speed error over the last half: %.3g %%" % (100.0 * worst))
    print("final crank speed %.17g rad/s" % final)
    return 0 if worst <= 0.02 else 1


if __name__ == "__main__":
    sys.exit(main())
