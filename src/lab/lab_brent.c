/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Brent's method (Brent 1973, Ch. 4), the steps shared by the event location of
 * lab_rk.c (lab_zero) and the calibration of lab_calibrate.c: the bracket [b, c]
 * with the last iterate a, their values, and the last two steps d and e
 * (lab_brent, lab_private.h). The callers keep their own sign test, tolerance and
 * stopping rule, and evaluate the function at each new b.
 */
#include "lab/lab_private.h"

#include <math.h>

/* restarts c at a when b and c are on one side (same_side), then keeps |f(b)| <= |f(c)| */
void lab_brent_bracket(lab_brent *z, int same_side)
{
    if (same_side) {
        z->c = z->a;
        z->fc = z->fa;
        z->d = z->b - z->a;
        z->e = z->d;
    }
    if (fabs(z->fc) < fabs(z->fb)) {
        z->a = z->b;
        z->b = z->c;
        z->c = z->a;
        z->fa = z->fb;
        z->fb = z->fc;
        z->fc = z->fa;
    }
}

/* the next b: inverse quadratic or secant interpolation when it is safe, else bisection */
void lab_brent_advance(lab_brent *z, double tol, double mid)
{
    double p, q, r, s;
    if (fabs(z->e) >= tol && fabs(z->fa) > fabs(z->fb)) {
        s = z->fb / z->fa;
        if (z->a == z->c) {
            p = 2.0 * mid * s;
            q = 1.0 - s;
        } else {
            q = z->fa / z->fc;
            r = z->fb / z->fc;
            p = s * (2.0 * mid * q * (q - r) - (z->b - z->a) * (r - 1.0));
            q = (q - 1.0) * (r - 1.0) * (s - 1.0);
        }
        if (p > 0.0)
            q = -q;
        else
            p = -p;
        if (2.0 * p < fmin(3.0 * mid * q - fabs(tol * q), fabs(z->e * q))) {
            z->e = z->d;
            z->d = p / q;
        } else {
            z->d = mid;
            z->e = mid;
        }
    } else {
        z->d = mid;
        z->e = mid;
    }
    z->a = z->b;
    z->fa = z->fb;
    z->b += fabs(z->d) > tol ? z->d : (mid > 0.0 ? tol : -tol);
}
