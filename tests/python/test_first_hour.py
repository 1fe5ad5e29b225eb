# SPDX-License-Identifier: BSD-3-Clause
"""The package feels native: exceptions that are also the built-in ones, __version__, a
clean namespace, advance() past t_end refused, Result.save() writing the run directory
`clink run` writes (the same columns, and on the grid the same doubles: checked against
the command's own CSV), Result.plot(), clink.read_run() of CSV and HDF5 runs, and a
docstring with units on every public function and method."""

import inspect
import json
import os
import re

import numpy as np
import pytest

import clink
from conftest import model, run_cli


def test_exceptions_are_also_the_builtin_ones(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        clink.load(str(tmp_path / "missing.xml"))
    assert isinstance(e.value, clink.Error) and e.value.status == "CLINK_ERR_IO"
    assert e.value.filename == str(tmp_path / "missing.xml")
    bad = tmp_path / "bad.xml"
    bad.write_text('<mechanism name="b"><bodies><body name="b" mass="-1" inertia="1"/>'
                   "</bodies></mechanism>")
    with pytest.raises(ValueError) as e:
        clink.load(str(bad))
    assert isinstance(e.value, clink.InputError) and e.value.status == "CLINK_ERR_RANGE"
    assert str(e.value).startswith(str(bad) + ":1: ")
    m = clink.load(model("pendulum"))
    m.close()
    with pytest.raises(RuntimeError) as e:
        m.start()
    assert isinstance(e.value, clink.StateError)


def test_version_and_a_clean_namespace():
    assert re.fullmatch(r"\d+\.\d+\.\d+", clink.__version__)
    assert clink.__version__ == clink.version()
    names = dir(clink)
    for private in ("np", "math", "threading", "ffi", "lib", "os"):
        assert private not in names, private
    for public in clink.__all__:
        assert hasattr(clink, public), public


def test_advance_past_t_end_is_refused():
    with clink.load(model("pendulum")) as m:
        s = m.start(t_end=0.001, output_step=1e-4)
        with pytest.raises(ValueError) as e:
            s.advance(1.0)
        assert "t_end = 0.001 s" in str(e.value)
        assert s.t == 0.0  # nothing advanced
        s.advance(0.001)
        assert s.t == 0.001
        s.close()


@pytest.mark.parametrize("name", ["slider_crank_clearance", "slider_crank_translational_clearance",
                                  "four_bar", "slider_crank_lubricated"])
def test_result_save_writes_what_clink_run_writes(tmp_path, name):
    t_end = 0.02 if name == "four_bar" else 0.002
    run_cli("run", model(name), "-o", tmp_path / "cli", "--t-end", t_end, "--quiet")
    with clink.load(model(name)) as m:
        r = m.simulate(t_end=t_end)
        assert r.save(tmp_path / "py") == str(tmp_path / "py")
    with open(tmp_path / "cli" / "timeseries.csv") as f:
        head_cli = f.readline().strip().split(",")
        cli = np.loadtxt(f, delimiter=",")
    with open(tmp_path / "py" / "timeseries.csv") as f:
        head_py = f.readline().strip().split(",")
        py = np.loadtxt(f, delimiter=",")
    assert head_py == head_cli
    grid = cli[cli[:, -1] == 0]  # the command's grid rows
    assert py.shape == grid.shape
    assert np.array_equal(py, grid, equal_nan=True)
    s = json.load(open(tmp_path / "py" / "summary.json"))
    assert s["status"] == "ok" and s["source"] == os.path.abspath(model(name))
    with open(tmp_path / "cli" / "impacts.csv") as f:
        assert f.readline() == open(tmp_path / "py" / "impacts.csv").readline()
    # clink plot reads it, against the crank angle (the model found through "source")
    p = run_cli("plot", tmp_path / "py", "-o", tmp_path / "fig", check=False)
    if p.returncode != 4:  # 4: matplotlib missing
        assert p.returncode == 0, p.stderr
        assert os.path.exists(tmp_path / "fig" / "coordinates.png")


def test_result_plot_draws_the_figures(tmp_path):
    pytest.importorskip("matplotlib")
    with clink.load(model("slider_crank_clearance")) as m:
        r = m.simulate(t_end=0.002)
    paths = r.plot(tmp_path / "fig", formats="svg")
    names = sorted(os.path.basename(p) for p in paths)
    assert "journal_orbit.svg" in names and "contact_forces.svg" in names, names
    assert all(p.endswith(".svg") for p in paths)


def test_read_run_reads_csv_and_hdf5_runs_alike(tmp_path):
    pytest.importorskip("h5py")
    mdl = model("slider_crank_clearance")
    run_cli("run", mdl, "-o", tmp_path / "csv", "--t-end", 0.002, "--quiet")
    p = run_cli("run", mdl, "-o", tmp_path / "h5", "--t-end", 0.002, "--quiet", "--format",
                "hdf5", check=False)
    if p.returncode == 2 and "HDF5" in p.stderr:
        pytest.skip("clink built without HDF5")
    a, b = clink.read_run(tmp_path / "csv"), clink.read_run(tmp_path / "h5")
    assert (a.format, b.format) == ("csv", "hdf5")
    assert list(a.timeseries.columns) == list(b.timeseries.columns)
    assert np.array_equal(a.timeseries.to_numpy(), b.timeseries.to_numpy(), equal_nan=True)
    assert list(a.impacts["F_max [N]"]) == list(b.impacts["F_max [N]"])
    assert list(a.impacts["pair"]) == list(b.impacts["pair"])
    assert a.summary["status"] == "ok"
    with pytest.raises(FileNotFoundError):
        clink.read_run(tmp_path / "none")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError):
        clink.read_run(tmp_path / "empty")


UNIT = re.compile(r"\b(s|m|kg|N|J|rad|m/s|N m|kg m\^2|Pa|SI|units?)\b|\[[^\]]+\]")


def _public_callables():
    for name in clink.__all__:
        obj = getattr(clink, name)
        if inspect.isclass(obj):
            yield name, obj
            for mname, member in vars(obj).items():
                if mname.startswith("_"):
                    continue
                f = member.fget if isinstance(member, property) else member
                if callable(f):
                    yield f"{name}.{mname}", f
        elif callable(obj):
            yield name, obj


def test_every_public_function_has_a_docstring_and_numbers_have_units():
    missing, unitless = [], []
    numeric = {"t", "t_end", "mass", "velocity", "k", "value", "output_step", "restitution",
               "slope", "rtol", "atol"}
    for name, f in _public_callables():
        doc = inspect.getdoc(f)
        if not doc or len(doc) < 10:
            missing.append(name)
            continue
        try:
            params = set(inspect.signature(f).parameters)
        except (TypeError, ValueError):
            params = set()
        if params & numeric and not UNIT.search(doc):
            unitless.append(name)
    assert not missing, "no docstring: %s" % ", ".join(missing)
    assert not unitless, "a number without its unit in the docstring: %s" % ", ".join(unitless)


def test_strict_refuses_a_moved_start(tmp_path):
    # the four-bar's crank written 90 degrees off its driver: the assembly moves it
    text = open(model("four_bar")).read()
    with clink.load(model("four_bar")) as m:
        m.start().close()  # as written: accepted
    moved = tmp_path / "moved.xml"
    import re
    moved.write_text(re.sub(r'(<body name="crank"[^>]*?) phi="[^"]*"', r'\1 phi="0"', text,
                            count=1))
    with clink.load(str(moved)) as m:
        assert m.settings["strict"] == "false"
        m.start().close()  # a warning only
        with pytest.raises(clink.Error) as e:
            m.start(strict=True)
        assert "strict" in str(e.value)


def test_start_ideal_gives_a_clearance_journal_the_ideal_velocities(tmp_path):
    # the clearance slider-crank with the crank's and the rod's velocities left out
    text = open(model("slider_crank_clearance")).read()
    bare = tmp_path / "bare.xml"
    bare.write_text(re.sub(r'(<body name="(crank|rod)"[^>]*?) vx="[^"]*" vy="[^"]*" '
                           r'omega="[^"]*"', r"\1", text))
    with clink.load(str(bare)) as m:
        assert m.settings["start"] == "as_given"
        with m.start() as s:
            assert any("approaching the bearing" in msg for _, msg in s.findings)
        with m.start(start="ideal") as s:
            assert s.findings == []
            with clink.load(model("slider_crank_clearance")) as ref, ref.start() as r:
                # the hand-derived velocities of the shipped file, to their 12 digits
                assert np.allclose(s.state[1], r.state[1], rtol=0, atol=1e-8)
        with pytest.raises(ValueError):
            m.start(start="centred")
