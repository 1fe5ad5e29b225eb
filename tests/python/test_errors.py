# SPDX-License-Identifier: BSD-3-Clause
"""Errors raise clink.Error with clink's message (FILE:LINE for a file), overrides by path
reach the model or say why not, misuse raises instead of crashing, and an impact callback
that raises stops the simulation cleanly and re-raises."""

import numpy as np
import pytest

import clink
from conftest import model

BAD = """<mechanism name="bad">
  <bodies>
    <body name="b" mass="-1" inertia="1"/>
  </bodies>
</mechanism>
"""


def test_an_xml_error_raises_with_file_and_line(tmp_path):
    p = tmp_path / "bad.xml"
    p.write_text(BAD)
    with pytest.raises(clink.Error) as e:
        clink.load(str(p))
    assert e.value.message.startswith(str(p) + ":3: ")
    assert e.value.status == "CLINK_ERR_RANGE"
    with pytest.raises(clink.Error) as e:
        clink.loads(BAD, name="text.xml")
    assert e.value.message.startswith("text.xml:3: ")
    with pytest.raises(clink.Error) as e:
        clink.load(str(tmp_path / "missing.xml"))
    assert e.value.status == "CLINK_ERR_IO"


def test_overrides_reach_the_model_and_bad_ones_say_the_path_and_why():
    m = clink.load(model("slider_crank_clearance"),
                   set={"revolute_clearance[rod_slider].clearance": 2e-4, "settings.t_end": 0.01})
    assert m.overrides == {"revolute_clearance[rod_slider].clearance": 0.0002,
                           "settings.t_end": 0.01}
    assert m.settings["t_end"] == 0.01
    m = clink.load(model("slider_crank_clearance"), set={"gravity.g": (0, -1.62),
                                                         "law.name": "flores"})
    assert m.overrides == {"gravity.g": "0 -1.62", "law.name": "flores"}
    with pytest.raises(clink.Error) as e:
        clink.load(model("slider_crank_clearance"), set={"joint[nope].x": 1})
    assert "override 'joint[nope].x=1.0'" in e.value.message
    assert "names no element" in e.value.message
    with pytest.raises(clink.Error) as e:
        clink.load(model("slider_crank_clearance"), set=["settings.rtol=fast"])
    assert "'fast' is not a number" in e.value.message
    with pytest.raises(clink.Error) as e:
        clink.load(model("slider_crank_clearance"), set={"settings.rtol": -1})
    assert ":17: " in e.value.message and "(override 'settings.rtol=-1.0')" in e.value.message
    with pytest.raises(TypeError):
        clink.load(model("slider_crank_clearance"), set={"settings.rtol": object()})


def test_misuse_raises_and_never_crashes():
    m = clink.load(model("two_spheres"))
    with pytest.raises(TypeError):
        m.start(colour=1)
    with pytest.raises(TypeError):
        m.start(t_end="long")
    with pytest.raises(ValueError):
        m.start(t_end=1e-3, output_step=1.0)
    with pytest.raises(ValueError):
        m.start(method="euler")
    with pytest.raises(ValueError):
        m.start(contact_bookkeeping="ledger")
    with m.start(contact_bookkeeping="hysteresis") as s:
        s.advance(1e-4)
    s = m.start()
    with pytest.raises(TypeError):
        s.advance("soon")
    with pytest.raises(clink.Error) as e:
        s.advance(-1.0)
    assert e.value.status == "CLINK_ERR_ARG"
    with pytest.raises(IndexError):
        s.contact(5)
    with pytest.raises(ValueError):
        s.contact("nope")
    s.close()
    s.close()
    for call in (lambda: s.advance(1e-3), lambda: s.t, lambda: s.energy(), lambda: s.impacts,
                 lambda: s.stats):
        with pytest.raises(clink.Error):
            call()
    # a model closed while a simulation runs stays alive until the simulation is closed
    s = m.start()
    m.close()
    s.advance(1e-4)
    assert s.t == 1e-4
    s.close()
    with pytest.raises(clink.Error):
        m.start()
    with pytest.raises(TypeError):
        clink.load(42)
    with pytest.raises(TypeError):
        clink.loads(3.5)
    with pytest.raises(clink.Error):
        clink.impact(law="no-such-law", mass=1, velocity=1, k=1e9)
    with pytest.raises(TypeError):
        clink.impact(law="hertz", mass="heavy", velocity=1, k=1e9)
    with pytest.raises(TypeError):
        clink.impact(law="hertz", mass=1, velocity=1, k=1e9, colour=3)
    with pytest.raises(clink.Error) as e:
        clink.impact(law="hertz", mass=-1, velocity=1, k=1e9)
    assert e.value.message


def test_step_wise_state_views_follow_the_simulation():
    m = clink.load(model("two_spheres"))
    with m.start() as s:
        q = s.q
        x0 = q[0, 0]
        s.advance(5e-4)
        assert q[0, 0] != x0 and q[0, 0] == s.q[0, 0]
        assert not q.flags.writeable
        assert s.state[0] is q and s.state[1] is s.v
        with pytest.raises(ValueError):
            q[0, 0] = 1.0
        assert s.accelerations().shape == (2, 3)
        assert s.contact("spheres")["phase"] == 0


def test_an_impact_callback_that_raises_stops_the_run_cleanly_and_re_raises():
    m = clink.load(model("two_spheres"))
    seen = []

    def on_impact(rec):
        seen.append(rec)
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        m.simulate(on_impact=on_impact)
    assert len(seen) == 1 and seen[0]["name"] == "spheres"
    assert 0.7 < seen[0]["restitution"] < 0.8
    # step-wise: the advance that called back raises; the simulation refuses to go on
    s = m.start(on_impact=on_impact)
    with pytest.raises(RuntimeError):
        s.advance(2e-3)
    with pytest.raises(clink.Error, match="stopped"):
        s.advance(3e-3)
    s.close()
    # a callback that returns sees every impact, as the table does
    got = []
    r = m.simulate(on_impact=got.append)
    assert len(got) == len(r.impacts) == 1
    assert got[0]["restitution"] == r.impacts[0]["restitution"]
    assert np.isfinite(r.q).all()


def test_laboratory_calls_from_two_threads_give_the_lone_results():
    import threading
    kw = dict(law="hunt-crossley", mass=0.046, velocity=0.3, k=5.5e9, restitution=0.7)
    lone = clink.impact(**kw).e_out
    other = dict(kw, law="flores", k=1e10, velocity=0.5)
    lone_flores = clink.impact(**other).e_out
    got = {0: [], 1: []}

    def work(i):
        for _ in range(200):
            got[i].append(clink.impact(**(other if i else kw)).e_out)

    ts = [threading.Thread(target=work, args=(i,)) for i in (0, 1)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert set(got[0]) == {lone} and set(got[1]) == {lone_flores}


def test_quantities_the_file_turns_off_are_nan_and_the_rest_is_sampled():
    m = clink.load(model("slider_crank"), set={"output.reactions": "false",
                                               "output.energies": "false",
                                               "settings.t_end": 0.01})
    r = m.simulate()
    assert np.isnan(r.reactions).all() and np.isnan(r.energy["kinetic"]).all()
    assert np.isfinite(r.q).all() and np.isfinite(r.a).all()
    assert r.summary["energy_residual_max_abs"] == 0.0


def test_advance_and_close_inside_the_own_impact_callback_are_refused():
    m = clink.load(model("two_spheres"))
    lone = m.start(t_end=6e-3)
    lone.advance(5e-3)
    refused = []

    def on_impact(rec):
        for call in (lambda: s.advance(6e-3), s.close):
            try:
                call()
            except clink.Error as e:
                refused.append((e.status, e.message))
        try:
            s.outputs = "state"
        except clink.Error as e:
            refused.append((e.status, e.message))

    s = m.start(on_impact=on_impact, t_end=6e-3)
    s.advance(5e-3)  # the run goes on after the refusals and ends as a lone run does
    assert [st for st, _ in refused] == ["CLINK_ERR_STATE"] * 3
    assert "clink_sim_advance called while the simulation is in use" in refused[0][1]
    assert "clink_sim_destroy called" in refused[1][1]
    assert s.outputs == "all"
    assert s.t == lone.t == 5e-3
    assert np.array_equal(s.q, lone.q) and np.array_equal(s.v, lone.v)
    assert len(s.impacts) == len(lone.impacts) == 1
    s.close()
    lone.close()
    with pytest.raises(clink.Error, match="closed"):
        s.advance(6e-3)


def test_a_user_force_refused_inside_the_impact_callback_is_not_used():
    m = clink.load(model("two_spheres"))
    calls = {"kept": 0, "refused": 0}
    refused = []

    def kept(t, q, v):
        calls["kept"] += 1
        return np.zeros_like(q)

    def replacement(t, q, v):
        calls["refused"] += 1
        return np.zeros_like(q)

    def on_impact(rec):
        try:
            s.set_user_force(replacement)
        except clink.Error as e:
            refused.append(e.status)

    s = m.start(on_impact=on_impact, t_end=6e-3)
    s.set_user_force(kept)
    s.advance(5e-3)
    assert refused == ["CLINK_ERR_STATE"]
    n = calls["kept"]
    assert n > 0
    s.advance(6e-3)  # after the refusal the force in use is still the one set before
    assert calls["refused"] == 0 and calls["kept"] > n
    s.close()


@pytest.mark.parametrize("settings", [{"rtol": 1.0}, {"rtol": 1e300}, {"atol": float("inf")}])
def test_start_refuses_tolerances_out_of_range(settings):
    m = clink.load(model("pendulum"))
    with pytest.raises((clink.Error, ValueError)) as e:
        m.start(**settings)
    assert "tol" in str(e.value)


def test_energies_that_overflow_fail_the_result_instead_of_ok():
    m = clink.load(model("ball_drop"), set={"body[ball].omega": 10, "body[ball].inertia": 1e308})
    r = m.simulate(t_end=0.01)
    assert r.summary["status"] == "failed"
    assert "kinetic energy is not finite" in r.summary["message"]
    fine = clink.load(model("ball_drop"), set={"body[ball].omega": 10}).simulate(t_end=0.01)
    assert fine.summary["status"] == "ok"


def test_unit_hints_of_the_file_are_the_models_warnings():
    m = clink.load(model("ball_drop"), set={"body[ball].phi": 90})
    assert len(m.warnings) == 1
    assert "ball_drop.xml:" in m.warnings[0] and "phi = 90 is above 2 pi" in m.warnings[0]
    assert clink.load(model("ball_drop")).warnings == []
