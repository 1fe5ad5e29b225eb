#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The numbers the comments of two example models state, computed by `clink run`:
# models/friction_laws_pucks.xml: the pucks whose friction is Coulomb's at speed (ramp,
# tanh, Dahl) slide v0^2 / (2 mu g) = 6.796 mm and stop after v0 / (mu g) = 68.0 ms
# (within 0.2 %: the regularisation speeds are 1e-3 of v0, and the first milliseconds
# the puck settles into the floor); the Stribeck puck, whose friction rises as it slows,
# slides less. models/disc_in_bowl.xml: the disc rolls (no slip) with the period of a
# rolling disc in a bowl, 2 pi sqrt(1.5 (R - r) / g) (1 + theta0^2 / 16) = 0.69625 s,
# within 2e-4 (the contact's micrometre penetration, the next term of the amplitude
# series 11 theta0^4 / 3072 = 3e-6).
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CLINK" run "$CLINK_SOURCE_DIR/models/friction_laws_pucks.xml" -o "$tmp/pucks" --quiet || exit 1
"$CLINK" run "$CLINK_SOURCE_DIR/models/disc_in_bowl.xml" -o "$tmp/bowl" --quiet || exit 1
python3 - "$tmp" <<'PY'
import csv, math, sys
tmp = sys.argv[1]
fail = 0
def grid(path):
    rows = list(csv.reader(open(path)))
    return rows[0], [[float(x) for x in r] for r in rows[1:] if r[-1] == "0"]
h, rows = grid(tmp + "/pucks/timeseries.csv")
v0, mu, g = 0.2, 0.3, 9.81
s_ref, t_ref = v0 * v0 / (2 * mu * g), v0 / (mu * g)
slid = {}
for i, n in enumerate(["ramp", "tanh", "stribeck", "lugre", "dahl"]):
    x, vx = h.index(n + ".x [m]"), h.index(n + ".vx [m/s]")
    slid[n] = rows[-1][x] - i
    t_stop = next(r[0] for r in rows if abs(r[vx]) < 1e-3)
    if n in ("ramp", "tanh", "dahl"):
        ok = abs(slid[n] / s_ref - 1) < 2e-3 and abs(t_stop - t_ref) < 2e-3
        print("%s %-5s slid %.6f m (closed form %.6f), stopped at %.3f s (%.4f)"
              % ("ok  " if ok else "FAIL", n, slid[n], s_ref, t_stop, t_ref))
        fail |= not ok
ok = slid["stribeck"] < 0.99 * s_ref
print("%s stribeck slid %.6f m, less than %.6f" % ("ok  " if ok else "FAIL", slid["stribeck"], s_ref))
fail |= not ok

h, rows = grid(tmp + "/bowl/timeseries.csv")
x = h.index("disc.x [m]")
up = [a[0] + (b[0] - a[0]) * -a[x] / (b[x] - a[x]) for a, b in zip(rows, rows[1:]) if a[x] < 0 <= b[x]]
th0, R, r = math.radians(10), 0.1, 0.02
T_ref = 2 * math.pi * math.sqrt(1.5 * (R - r) / g) * (1 + th0 * th0 / 16)
ok = len(up) >= 2 and abs((up[1] - up[0]) / T_ref - 1) < 2e-4
print("%s disc in bowl: period %s s (closed form %.5f)"
      % ("ok  " if ok else "FAIL", "%.5f" % (up[1] - up[0]) if len(up) >= 2 else "?", T_ref))
fail |= not ok
sys.exit(1 if fail else 0)
PY
