# SPDX-License-Identifier: BSD-3-Clause
"""Simulation.state_save / state_restore (clink_sim_state_save, _restore): a restored
simulation continues bit for bit as the saved one does after the save, on the clearance
slider-crank through its impacts; a snapshot of another model is refused."""

import numpy as np
import pytest

import clink
from conftest import model


def _rows(s, k0, n):
    out = []
    for k in range(k0 + 1, k0 + n + 1):
        s.advance(1e-5 * k)
        out.append(np.concatenate([s.q.ravel(), s.v.ravel(), s.accelerations().ravel(),
                                   list(s.energy().values())]))
    return np.array(out)


def test_a_restored_simulation_continues_bit_for_bit():
    with clink.load(model("slider_crank_clearance")) as m:
        a = m.start()
        for k in range(1, 301):
            a.advance(1e-5 * k)
        snap = a.state_save()
        assert isinstance(snap, bytes) and len(snap) > 0
        n0 = len(a.impacts)
        ra = _rows(a, 300, 400)
        assert len(a.impacts) > n0
        b = m.start()
        b.state_restore(snap)
        assert b.t == a.t - 400 * 1e-5 or b.t == pytest.approx(3e-3)
        rb = _rows(b, 300, 400)
        assert ra.tobytes() == rb.tobytes()
        assert a.impacts.tobytes() == b.impacts.tobytes()


def test_a_snapshot_of_another_model_is_refused():
    with clink.load(model("slider_crank_clearance")) as m, \
            clink.load(model("slider_crank")) as other:
        a = m.start()
        a.advance(1e-4)
        snap = a.state_save()
        b = other.start()
        with pytest.raises(clink.Error) as e:
            b.state_restore(snap)
        assert "another model" in str(e.value)
        with pytest.raises(clink.Error):
            a.state_restore(snap[:-1])
