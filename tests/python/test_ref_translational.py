# SPDX-License-Identifier: BSD-3-Clause
"""The independent reference of the slider-crank with a translational clearance joint
(validation/ref_slider_crank_translational.py) on a short horizon: its self-checks
pass (finite-difference Lagrange residual, energy balance with e = 1 in which opposite
corners wedge), its first impact is the flat one of corners 3 and 4 on the upper
surface, and a clink XML model of the same mechanism gives the same impacts as the
script's defaults."""

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("scipy")

SOURCE = os.environ.get("CLINK_SOURCE_DIR",
                        os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
SCRIPT = os.path.join(SOURCE, "validation", "ref_slider_crank_translational.py")

MODEL = """<?xml version="1.0" encoding="UTF-8"?>
<mechanism name="ref_translational_test">
  <gravity g="0 -9.81"/>
  <bodies>
    <body name="crank" mass="0.038" inertia="7.4e-5" x="0.0765" y="0" phi="0" vy="11.475" omega="150"/>
    <body name="rod" mass="0.038" inertia="5.9e-4" x="0.306" y="0" phi="0" vy="11.475" omega="-75"/>
    <body name="slider" mass="0.076" inertia="2.7e-6" x="0.459" y="0" phi="0"/>
  </bodies>
  <joints>
    <revolute name="crank_pin" body1="ground" point1="0 0" body2="crank" point2="-0.0765 0"/>
    <revolute name="crank_rod" body1="crank" point1="0.0765 0" body2="rod" point2="-0.153 0"/>
    <revolute name="rod_slider" body1="rod" point1="0.153 0" body2="slider" point2="0 0"/>
    <translational_clearance name="guide" guide="ground" guide_point="0 0" axis="1 0"
        slider="slider" slider_point="0 0" length="0.1" height="0.05" clearance="0.001">
      <law name="lankarani-nikravesh" K="1e10" e="0.9"/>
      <friction type="coulomb" mu="0.01" v0="1e-4" v1="1e-3"/>
    </translational_clearance>
  </joints>
  <drivers>
    <driver name="motor" type="angle" joint="crank_pin"><linear initial="0" rate="150"/></driver>
  </drivers>
</mechanism>
"""


def run(tmp_path, name, *args):
    out = tmp_path / (name + ".json")
    p = subprocess.run([sys.executable, SCRIPT, "--json", str(out)] + list(args),
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    with open(out) as f:
        return json.load(f)


def test_self_checks_and_first_impact(tmp_path):
    d = run(tmp_path, "defaults", "--t-end", "0.006")
    c = d["self_checks"]
    assert c["lagrange_fd_residual"] < 1e-6
    assert c["energy_balance_rel"] < 1e-7
    assert c["energy_spin_200"]["overlapping_impacts"]["opposite_surfaces"] > 0
    assert c["energy_spin_0"]["overlapping_impacts"]["same_surface"] > 0
    assert c["channel_fit_excess"] <= 1e-12
    first = d["impacts"][:2]
    assert {r["contact"] for r in first} == {"corner3_upper", "corner4_upper"}
    for r in first:
        assert abs(r["t"] - 0.0025154) < 1e-6
        assert 1.0 < r["v"] < 1.3
        # at the deepest point delta' = 0 and F = K delta_max^1.5; the damping adds at
        # most 3 (1 - e^2)/4 of it while the corner approaches no faster than at onset
        ratio = r["F_max"] / (1e10 * r["delta_max"] ** 1.5)
        assert 1.0 - 1e-9 <= ratio <= 1.0 + 0.75 * (1.0 - 0.9 ** 2)
        assert r["duration"] is not None and r["duration"] > 0.0


def test_model_file_gives_the_defaults(tmp_path):
    path = tmp_path / "model.xml"
    path.write_text(MODEL)
    a = run(tmp_path, "defaults", "--t-end", "0.005", "--no-self-checks")
    b = run(tmp_path, "model", "--t-end", "0.005", "--no-self-checks", "--model", str(path))
    assert a["n_impacts"] == b["n_impacts"] > 0
    for ra, rb in zip(a["impacts"], b["impacts"]):
        assert ra["contact"] == rb["contact"]
        assert abs(ra["t"] - rb["t"]) < 1e-12
        assert abs(ra["F_max"] - rb["F_max"]) <= 1e-9 * ra["F_max"]
