# SPDX-License-Identifier: BSD-3-Clause
"""Python gives what the command gives, bit for bit: the two-sphere impact (time series,
impacts table, summary) and the clearance slider-crank's summary, from the same library
through the same sampling loop; the laboratory's impact and calibration as `clink impact`
and `clink calibrate` print them."""

import csv
import json
import math

import numpy as np

import clink
from conftest import model, run_cli

SUMMARY_KEYS = ("status", "t_end_requested", "t_end_reached", "method", "drift", "rtol", "atol",
                "max_steps", "min_step", "wall_limit", "output_rows", "steps", "rhs_calls",
                "rhs_calls_jacobian", "error_test_failures", "projections", "root_events",
                "cvode_reinits", "impacts", "max_constraint_violation_position",
                "max_constraint_violation_velocity", "energy_residual_final",
                "energy_residual_max_abs", "assembly_correction_position",
                "assembly_correction_velocity", "warnings")


def same(a, b):
    """equal as doubles, bit for bit (NaN equal to NaN)"""
    a, b = float(a), float(b)
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) ==
                                                  math.copysign(1, b))


def read_csv(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def check_summary(py, cli):
    for k in SUMMARY_KEYS:
        if isinstance(cli[k], float) or isinstance(py[k], float):
            assert cli[k] is not None and same(py[k], cli[k]), (k, py[k], cli[k])
        else:
            assert py[k] == cli[k], (k, py[k], cli[k])


def test_two_spheres_time_series_impacts_and_summary_equal_the_cli(tmp_path):
    run_cli("run", model("two_spheres"), "-o", tmp_path, "--no-timing", "--quiet",
            "--rows", "grid")
    r = clink.load(model("two_spheres")).simulate()
    head, rows = read_csv(tmp_path / "timeseries.csv")
    assert len(rows) == r.rows == 2001
    cols = {h.split(" [")[0]: i for i, h in enumerate(head)}
    cli = np.array([[float(x) for x in row] for row in rows])
    checks = {"t": r.t}
    for b, name in enumerate(r.bodies):
        for j, q in enumerate(("x", "y", "phi")):
            checks["%s.%s" % (name, q)] = r.q[:, b, j]
        for j, q in enumerate(("vx", "vy", "omega")):
            checks["%s.%s" % (name, q)] = r.v[:, b, j]
        for j, q in enumerate(("ax", "ay", "alpha")):
            checks["%s.%s" % (name, q)] = r.a[:, b, j]
    c = r.contacts["spheres"]
    checks.update({"spheres.delta": c.delta, "spheres.delta_dot": c.delta_dot,
                   "spheres.Fn": c.fn, "spheres.Ft": c.ft, "spheres.phase": c.phase,
                   "energy.kinetic": r.energy["kinetic"], "energy.residual": r.energy["balance"],
                   "energy.contact_damping": r.energy["contact_damping"],
                   "constraint.position": r.violation[:, 0]})
    for name, arr in checks.items():
        col = cli[:, cols[name]]
        assert np.array_equal(np.asarray(arr, dtype=float), col), name
    # the impacts table, every column
    head, rows = read_csv(tmp_path / "impacts.csv")
    assert len(rows) == len(r.impacts) == 1
    imp = r.impacts[0]
    for h, x in zip(head, rows[0]):
        key = {"t": "t_onset", "pair": "name"}.get(h.split(" [")[0], h.split(" [")[0])
        if key == "name":
            assert imp["name"] == x
        else:
            assert same(imp[key], float(x)), (key, imp[key], x)
    with open(tmp_path / "summary.json") as f:
        check_summary(r.summary, json.load(f))
    try:
        import pandas  # noqa: F401  (optional)
    except ImportError:
        return
    frame = r.impacts_frame()
    assert list(frame["name"]) == ["spheres"] and frame["F_max"][0] == imp["F_max"]


def test_clearance_slider_crank_summary_equals_the_cli(tmp_path):
    args = ("--t-end", "0.012")
    run_cli("run", model("slider_crank_clearance"), "-o", tmp_path, "--no-timing", "--quiet",
            "--rows", "grid",
            *args)
    r = clink.load(model("slider_crank_clearance")).simulate(t_end=0.012)
    with open(tmp_path / "summary.json") as f:
        cli = json.load(f)
    assert cli["impacts"] > 0
    check_summary(r.summary, cli)
    head, rows = read_csv(tmp_path / "timeseries.csv")
    cols = {h.split(" [")[0]: i for i, h in enumerate(head)}
    last = [float(x) for x in rows[-1]]
    assert same(r.a[-1, r.body("slider"), 0], last[cols["slider.ax"]])
    assert same(r.contacts["rod_slider"].eccentricity[-1, 0], last[cols["rod_slider.ex"]])
    assert same(r.reactions[-1, 0, 1], last[cols["crank_pin.Fy"]])


def test_laboratory_impact_and_calibration_equal_the_cli():
    cli = json.loads(run_cli("impact", "--law", "hunt-crossley", "--mass", "0.046",
                             "--velocity", "0.3", "--k", "5.5e9", "--restitution", "0.7",
                             "--json").stdout)
    py = clink.impact(law="hunt-crossley", mass=0.046, velocity=0.3, k=5.5e9, restitution=0.7)
    for k in ("e_out", "v_out", "delta_max", "F_max", "t_F_max", "duration", "E_impact",
              "E_diss_compression", "E_diss_restitution", "damping", "energy_residual"):
        assert same(py[k], cli[k]), k
    assert py.n_steps == cli["integrator"]["steps"] and py.n_rhs == cli["integrator"]["rhs"]
    cli = json.loads(run_cli("calibrate", "--law", "flores", "--mass", "0.046", "--velocity",
                             "0.3", "--k", "5.5e9", "--target", "0.7", "--json").stdout)
    py = clink.calibrate(law="flores", mass=0.046, velocity=0.3, k=5.5e9, restitution=0.7)
    for k in ("damping", "e_achieved", "damping_law", "e_law", "iterations"):
        assert same(py[k], cli[k]), k


def test_laws_are_the_catalogue_of_clink_laws():
    cli = json.loads(run_cli("laws", "--json").stdout)
    assert [d["name"] for d in clink.laws()] == [d["name"] for d in cli["laws"]]
    assert len(clink.laws()) >= 25
    assert [d["geometry"] for d in clink.laws()] == [d["geometry"] for d in cli["laws"]]
    assert {"point", "cylinder", "cylinder-internal"} <= {d["geometry"] for d in clink.laws()}


def test_overrides_give_the_same_run_from_python_and_from_clink_run_set(tmp_path):
    sets = {"revolute_clearance[rod_slider].clearance": 2e-4, "law.e": 0.8}
    args = []
    for k, v in sets.items():
        args += ["--set", "%s=%r" % (k, v)]
    run_cli("run", model("slider_crank_clearance"), "-o", tmp_path, "--no-timing", "--quiet",
            "--rows", "grid",
            "--t-end", "0.006", *args)
    r = clink.load(model("slider_crank_clearance"), set=sets).simulate(t_end=0.006)
    with open(tmp_path / "summary.json") as f:
        cli = json.load(f)
    check_summary(r.summary, cli)
    assert r.summary["overrides"] == cli["overrides"]


def test_auto_method_switches_of_the_stiff_film_equal_the_cli(tmp_path):
    """method auto switches the stiff lubricated slider-crank from Adams to BDF (docs/kernel.md,
    "Switched while running"): Python's summary lists the switches of summary.json, bit for
    bit, and Simulation.method_switches gives them"""
    run_cli("run", model("slider_crank_lubricated_stiff"), "-o", tmp_path, "--no-timing",
            "--quiet", "--rows", "grid", "--t-end", "0.002")
    r = clink.load(model("slider_crank_lubricated_stiff")).simulate(t_end=0.002)
    with open(tmp_path / "summary.json") as f:
        cli = json.load(f)
    check_summary(r.summary, cli)
    assert cli["method_switch_count"] == r.summary["method_switch_count"] >= 1
    assert r.summary["method_switches"] == cli["method_switches"]
    assert cli["method_switches"][0]["from"] == "adams" and cli["method_switches"][0]["to"] == "bdf"
