# SPDX-License-Identifier: BSD-3-Clause
"""clink.analysis (python/clink/analysis.py): Model.equilibrium, Model.modes and
Model.kinematics give what `clink equilibrium`, `clink modes` and `clink kinematics` print,
and their refusals raise clink.Error with the library's status and message."""

import json
import math

import pytest

import clink
from conftest import model, run_cli


def test_equilibrium_equals_the_command_and_holds_the_reactions(tmp_path):
    m = clink.load(model("slider_crank_spring"))
    eq = m.equilibrium()
    run_cli("equilibrium", model("slider_crank_spring"), "-o", tmp_path)
    d = json.load(open(tmp_path / "equilibrium.json"))
    assert [b["phi"] for b in d["bodies"]] == list(eq.q[:, 2])
    assert eq.stable and not eq.fallback and eq.residual <= eq.tolerance
    assert math.degrees(eq.q[0, 2]) == pytest.approx(6.686471480058578, abs=1e-8)
    assert set(eq.reactions) == {"pivot", "crank_pin", "wrist", "guide"}
    assert eq.dof == 1


def test_modes_about_the_equilibrium_a_start_and_a_run():
    m = clink.load(model("double_pendulum"))
    modes = m.modes()
    assert len(modes) == 2
    assert modes[0].frequency == pytest.approx(0.4265533932, rel=1e-8)
    assert modes[1].frequency == pytest.approx(1.144112504, rel=1e-8)
    assert modes[0].shape.shape == (2, 3) and max(abs(modes[0].shape.ravel())) == 1.0
    assert "rod" in modes[0].moves
    assert len(m.modes(at=0.25)) >= 1
    with pytest.raises(ValueError):
        m.modes(at="middle")


def test_kinematics_table_and_its_refusals():
    m = clink.load(model("slider_crank"))
    k = m.kinematics(steps=8)
    assert k.columns[:5] == ["driver", "assembled", "sigma_ratio", "dead_point", "driver_force"]
    assert k.data.shape == (9, len(k.columns))
    assert k.column("slider.x")[0] == pytest.approx(0.17, abs=1e-12)
    assert len(k.assembly_fails) == 0
    with pytest.raises(clink.NotFound):
        m.kinematics(driver="nope")
    with pytest.raises(clink.InputError):
        clink.load(model("double_pendulum")).kinematics()


def test_no_equilibrium_raises_with_the_free_motion_named():
    with pytest.raises(clink.SolverError) as e:
        clink.load(model("box_drop")).equilibrium()
    assert e.value.status == "CLINK_ERR_SINGULAR"
    assert "free motion along body 'box' y" in e.value.message
    with pytest.raises(clink.InputError) as e:
        clink.load(model("slider_crank")).equilibrium()
    assert "driver 'motor' moves" in e.value.message
