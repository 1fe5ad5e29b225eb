# SPDX-License-Identifier: BSD-3-Clause
"""Inputs and user forces from Python (python/clink/__init__.py: Inputs,
Simulation.set_user_force): s.inputs by name and index against the C library, a user force
equal to the spring-damper it imitates, an exception in the callback re-raised by the
advance, and the closed loop of examples/pd_crank.py holding 5000 rpm and matching the C
example's run bit for bit (the same calls and arithmetic in the same order)."""

import importlib.util
import math
import os
import subprocess

import numpy as np
import pytest

import clink
from conftest import SOURCE

ROTOR = """<mechanism name="rotor">
<settings t_end="1" output_step="1e-3" method="bdf" rtol="1e-10" atol="1e-12" drift="projection"/>
<gravity g="0 0"/>
<bodies><body name="wheel" mass="2" inertia="0.02"/>
<body name="slider" mass="0.5" inertia="0.01" x="1" y="0"/></bodies>
<joints><revolute name="pin" body1="ground" point1="0 0" body2="wheel" point2="0 0"/>
<translational name="guide" body1="ground" point1="0 0" body2="slider" point2="0 0" axis="1 0"/>
</joints>
<inputs><input name="motor" type="joint_torque" joint="pin"/></inputs>
</mechanism>"""


def test_inputs_by_name_and_index_turn_the_rotor_as_the_closed_form_says():
    m = clink.loads(ROTOR)
    assert m.inputs == ["motor"]
    with m.start() as s:
        assert list(s.inputs) == ["motor"] and len(s.inputs) == 1
        s.advance(0.1)
        s.inputs["motor"] = (0.3, 1.0)
        s.advance(0.3)
        dt = 0.2
        assert s.v[0, 2] == pytest.approx((0.3 * dt + 0.5 * dt * dt) / 0.02, rel=1e-8)
        assert s.inputs[0] == pytest.approx(0.5, abs=1e-15)
        with pytest.raises(KeyError):
            s.inputs["moter"] = 1.0
        with pytest.raises(clink.Error):
            s.inputs["motor"] = float("nan")


def test_a_python_user_force_is_the_damped_oscillator_with_and_without_its_jacobian():
    m = clink.loads(ROTOR)
    k, c, length = 50.0, 0.5, 1.2

    def force(t, q, v):
        f = np.zeros_like(q)
        f[1, 0] = -k * (q[1, 0] - length) - c * v[1, 0]
        return f

    def jacobian(t, q, v):
        jq, jv = np.zeros((6, 6)), np.zeros((6, 6))
        jq[3, 3], jv[3, 3] = -k, -c
        return jq, jv

    w0, t = 10.0, 0.5
    z = c / (2 * 0.5 * w0)
    wd = w0 * math.sqrt(1 - z * z)
    ref = length - 0.2 * math.exp(-z * w0 * t) * (math.cos(wd * t) + z * w0 / wd * math.sin(wd * t))
    for jac in (None, jacobian):
        with m.start() as s:
            s.set_user_force(force, jac, name="spring")
            for i in range(1, 101):
                s.advance(t * i / 100)
            assert s.q[1, 0] == pytest.approx(ref, abs=1e-8)


def test_an_exception_in_the_user_force_stops_the_run_and_is_raised_by_the_advance():
    m = clink.loads(ROTOR)

    def force(t, q, v):
        if t > 0.1:
            raise ValueError("sensor lost")
        return np.zeros_like(q)

    with m.start() as s:
        s.set_user_force(force, name="sensor")
        with pytest.raises(ValueError, match="sensor lost"):
            for i in range(1, 11):
                s.advance(0.05 * i)
        with pytest.raises(clink.Error, match="a callback raised ValueError"):
            s.advance(1.0)


def test_the_python_pd_loop_holds_5000_rpm_and_equals_the_c_example(tmp_path):
    spec = importlib.util.spec_from_file_location(
        "pd_crank", os.path.join(SOURCE, "examples", "pd_crank.py"))
    pd = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pd)
    model = os.path.join(SOURCE, "examples", "slider_crank_clearance_torque.xml")
    times, rpm, torques, final = pd.run(model, t_end=0.012, quiet=True)
    half = len(rpm) // 2
    assert max(abs(r - 5000.0) for r in rpm[half:]) < 0.02 * 5000.0
    exe = os.path.join(os.environ.get("CLINK_BINARY_DIR", os.path.join(SOURCE, "build")),
                       "examples", "pd_crank")
    assert os.path.exists(exe), "the C example is built with the tests (%s)" % exe
    out = subprocess.run([exe, model, "0.012", "1e-5"], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    # the same calls in the same order: the same bits
    assert out[-1] == "final crank speed %.17g rad/s" % final
