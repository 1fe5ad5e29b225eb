#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Write the granular chains of Wang, Liu and Liu (2022), Sect. 5.2 as clink mechanism files:
models/granular_chain.xml (elastic Hertz), models/granular_chain_dashpot.xml
(wang-liu-flores, e = 0.65, the damping of the first contact at 1.77 m/s for
every contact) and models/granular_chain_ma_liu.xml (Ma-Liu). The mechanism
is the one validation/granular_chain_model.h builds in C, number for number
(validation/val_granular_chain.c checks that the Hertz file gives the same
run); seventy beads are too many to write by hand.

usage: make_granular_chain.py [MODELS_DIR] [N]
"""
import os
import sys

R = 2.38e-3      # bead radius, m
RHO = 8000.0     # density of stainless steel 316 (the rig of Daraio et al. 2006), kg/m^3
MASS = 4.0 / 3.0 * 3.14159265358979323846 * R * R * R * RHO  # 4.5176e-4 kg (Table 8: 0.45 g)
GAP = 10e-6      # striker to bead 1, m
V = 1.77         # striker speed, m/s

LAWS = {
    "granular_chain": ('<law name="hertz"/>',
                       "elastic Hertz contacts (K from the materials, 4.8775e9 N/m^1.5 bead to "
                       "bead): Nesterenko's solitary wave, validation/val_granular_chain.c"),
    "granular_chain_dashpot": ('<law name="wang-liu-flores" e="0.65" v_ref="1.77" psi="2.84" '
                               'xi="13"/>',
                               "the elastoplastic dashpot of Wang, Liu and Liu (2022) (Flores et al. below "
                               "delta_y, Eq. 18 beyond; e = 0.65 and the damping of the first "
                               "contact, struck at 1.77 m/s, for every contact: v_ref)"),
    "granular_chain_ma_liu": ('<law name="ma-liu" psi="2.84" xi="13"/>',
                              "the Ma-Liu elastoplastic law (psi = 2.84, xi = 13; yield strength "
                              "900 MPa from the material)"),
}


def chain(name, law, what, n):
    inertia = 0.4 * MASS * R * R
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           "<!--",
           f"  The horizontal granular chain of Wang, Liu and Liu (2022), Sect. 5.2 (Table 8) with {what}.",
           f"  {n} stainless steel 316 beads (radius 2.38 mm, E 193 GPa, nu 0.3, yield 900 MPa,",
           "  density 8000 kg/m^3: 4/3 pi R^3 rho = 0.45176 g, printed 0.45 g in Table 8)",
           "  touching in a row, the last against a fixed wall (the base), the",
           "  first struck by a striker bead at 1.77 m/s, 10 um away at t = 0. Beads b01..",
           "  are numbered from the striker side, as the sensor beads 9, 16, 24, 31, 40, 50,",
           "  56, 63 of Table 8; contact cK joins bead K and bead K+1 (c00: striker and",
           "  b01). The output grid of 1 us already draws every impact's peak (within",
           "  0.8% on this chain), so the time series keeps the grid rows alone: the",
           "  rows through each impact (rows=\"events\", the default) cost 15-30% more",
           "  on a chain, where some impact is always in progress (docs/outputs.md).",
           "  Written by validation/make_granular_chain.py; do not edit by hand.",
           "-->",
           f'<mechanism name="{name}">',
           '  <settings t_end="1e-3" output_step="1e-6" method="adams" rtol="1e-8" '
           'atol="1e-13" drift="none"/>',
           '  <gravity g="0 0"/>',
           "  <materials>",
           '    <material name="ss316" E="193e9" nu="0.3" density="8000" yield="900e6"/>',
           "  </materials>",
           "  <bodies>",
           '    <ground material="ss316"/>']
    for i in range(1, n + 1):
        x = (2.0 * (n - i) + 1.0) * R
        out.append(f'    <body name="b{i:02d}" mass="{MASS!r}" inertia="{inertia!r}" '
                   f'x="{x!r}" material="ss316"/>')
    xs = (2.0 * n + 1.0) * R + GAP
    out.append(f'    <body name="striker" mass="{MASS!r}" inertia="{inertia!r}" x="{xs!r}" '
               f'vx="{-V!r}" material="ss316"/>')
    out += ["  </bodies>", "  <contacts>"]
    names = ["striker"] + [f"b{i:02d}" for i in range(1, n + 1)]
    for k in range(n):
        out.append(f'    <pair name="c{k:02d}"><circle body="{names[k]}" radius="{R!r}"/>'
                   f'<circle body="{names[k + 1]}" radius="{R!r}"/>{law}</pair>')
    out.append(f'    <pair name="wall"><line body="ground" point="0 0" normal="1 0"/>'
               f'<circle body="{names[n]}" radius="{R!r}"/>{law}</pair>')
    out += ["  </contacts>", '  <output rows="grid"/>', "</mechanism>", ""]
    return "\n".join(out)


def main():
    models = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..",
                                                                 "models")
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 70
    for name, (law, what) in LAWS.items():
        with open(os.path.join(models, name + ".xml"), "w") as f:
            f.write(chain(name, law, what, n))


if __name__ == "__main__":
    main()
