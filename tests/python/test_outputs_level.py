# SPDX-License-Identifier: BSD-3-Clause
"""Simulation.outputs (clink_sim_set_outputs): what each advance computes. The lower
levels give the same bits of q, v and the contacts as "all" at every output; what they
do not compute raises clink.Error with the status CLINK_ERR_STATE and the library's
message; a level set mid-run applies from the next advance on."""

import numpy as np
import pytest

import clink
from conftest import model


def _contacts(s):
    return [s.contact(i) for i in range(len(s.model.contacts))]


def test_lower_levels_give_the_bits_of_the_complete_outputs_and_refuse_the_rest():
    with clink.load(model("slider_crank_clearance")) as m:
        full = m.start()
        con = m.start(outputs="contacts")
        sta = m.start(outputs="state")
        assert (full.outputs, con.outputs, sta.outputs) == ("all", "contacts", "state")
        touching = 0
        for k in range(1, 301):
            t = 1e-5 * k
            for s in (full, con, sta):
                s.advance(t)
            assert np.array_equal(full.q, con.q) and np.array_equal(full.v, con.v)
            assert np.array_equal(full.q, sta.q) and np.array_equal(full.v, sta.v)
            assert _contacts(full) == _contacts(con)
            touching += full.contact(0)["fn"] > 0.0
        assert touching > 0
        assert full.stats["steps"] == con.stats["steps"] == sta.stats["steps"]
        assert full.stats["rhs_evals"] == sta.stats["rhs_evals"]
        assert len(full.impacts) == len(sta.impacts) > 0
        for call in (con.accelerations, con.reactions, con.energy, sta.accelerations,
                     lambda: sta.contact(0)):
            with pytest.raises(clink.Error) as e:
                call()
            assert e.value.status == "CLINK_ERR_STATE"
            assert "clink_sim_set_outputs" in e.value.message
        with pytest.raises(ValueError):
            con.outputs = "energies"
        assert con.outputs == "contacts"
        for s in (full, con, sta):
            s.close()


def test_switching_the_level_mid_run_applies_at_the_next_advance():
    with clink.load(model("slider_crank_clearance")) as m:
        ref = m.start()
        s = m.start(outputs="state")
        for k in range(1, 51):
            ref.advance(1e-5 * k)
            s.advance(1e-5 * k)
        s.outputs = "all"
        with pytest.raises(clink.Error):  # the current output was computed at "state"
            s.accelerations()
        ref.advance(5.1e-4)
        s.advance(5.1e-4)
        assert np.array_equal(ref.accelerations(), s.accelerations())
        assert ref.energy() == s.energy()
        assert ref.contact(0) == s.contact(0)
        ref.close()
        s.close()


def test_listed_output_contacts_answer_as_all_and_the_others_raise():
    with clink.load(model("granular_chain")) as m:
        ref = m.start()
        s = m.start(outputs="contacts")
        s.output_contacts = [5, m.contacts[12], 5]
        assert s.output_contacts == (5, 12, 5)
        with pytest.raises(IndexError):
            s.output_contacts = [len(m.contacts)]
        with pytest.raises(TypeError):
            s.output_contacts = 5
        loaded = 0
        for k in range(1, 101):
            ref.advance(1e-6 * k)
            s.advance(1e-6 * k)
            assert s.contact(5) == ref.contact(5) and s.contact(12) == ref.contact(12)
            assert np.array_equal(s.q, ref.q)
            loaded += s.contact(5)["fn"] > 0.0
        assert loaded > 0
        with pytest.raises(clink.Error) as e:
            s.contact(6)
        assert e.value.status == "CLINK_ERR_STATE"
        assert "clink_sim_set_output_contacts" in e.value.message
        s.output_contacts = None
        s.advance(1.01e-4)
        ref.advance(1.01e-4)
        assert [s.contact(i) for i in range(len(m.contacts))] == \
            [ref.contact(i) for i in range(len(m.contacts))]
        ref.close()
        s.close()
