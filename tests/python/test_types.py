# SPDX-License-Identifier: BSD-3-Clause
"""The package's type hints (docs/python.md, "Type hints"): every public function and class
of clink.__all__ (and the classes a user reaches through them) annotates each parameter and
its return, and the annotations resolve (typing.get_type_hints: a misspelt name fails);
the PEP 561 marker py.typed is there; and, when mypy is installed, a typed user's script
(typed_user.py) passes `mypy --strict` while a script that misuses the API is refused."""

import inspect
import os
import shutil
import subprocess
import sys
import typing

import pytest

import clink

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(os.path.abspath(clink.__file__))
SOURCE = os.environ.get("CLINK_SOURCE_DIR", os.path.dirname(os.path.dirname(HERE)))

# reached through the public names: Simulation.inputs, Result.contacts, its items
REACHED = (clink.Inputs, clink.Contacts, clink.Contacts.One)


def _missing(fn, owner=None):
    """The parameters (and "return") of function fn that carry no annotation; resolving
    them must succeed (NameError for a name that does not exist)."""
    fn = inspect.unwrap(fn)
    module = sys.modules[fn.__module__]
    typing.get_type_hints(fn, globalns=vars(module))
    sig = inspect.signature(fn)
    out = []
    for i, (name, p) in enumerate(sig.parameters.items()):
        if i == 0 and owner is not None and name in ("self", "cls"):
            continue
        if p.annotation is inspect.Parameter.empty:
            out.append(name)
    if sig.return_annotation is inspect.Signature.empty:
        out.append("return")
    return out


def _class_missing(cls):
    """{method: unannotated parameters} of the public methods and properties cls defines
    itself, dunder methods included (the inherited ones of Exception and object are the
    standard library's; _private helpers are not the interface)."""
    out = {}
    module = sys.modules[cls.__module__]
    typing.get_type_hints(cls, globalns=vars(module), localns=vars(clink))
    for name, attr in vars(cls).items():
        if name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
            continue
        if isinstance(attr, property):
            fns = [("%s.%s" % (name, part), f) for part, f in
                   (("getter", attr.fget), ("setter", attr.fset)) if f is not None]
        elif inspect.isfunction(attr):
            fns = [(name, attr)]
        else:
            continue
        for label, f in fns:
            m = _missing(f, owner=cls)
            if m:
                out["%s.%s" % (cls.__name__, label)] = m
    return out


def _public():
    fns, classes = [], list(REACHED)
    for name in clink.__all__:
        obj = getattr(clink, name)
        if inspect.isclass(obj):
            classes.append(obj)
        elif inspect.isfunction(obj):
            fns.append(obj)
    return fns, classes


def test_the_checker_finds_a_missing_or_unresolvable_annotation():
    def bare(x, y: int = 0):
        return x

    def wrong(x: "NoSuchType") -> int:  # noqa: F821
        return 0

    class Half:
        def method(self, a: int):
            return a

        def _private(self, a):
            return a

        @property
        def p(self):
            return 1

    assert _missing(bare) == ["x", "return"]
    with pytest.raises(NameError):
        _missing(wrong)
    assert _class_missing(Half) == {"Half.method": ["return"], "Half.p.getter": ["return"]}


def test_every_public_function_and_class_is_annotated():
    fns, classes = _public()
    names = {f.__name__ for f in fns} | {c.__name__ for c in classes}
    # the entry points named by the task (issue 31) are all among them
    assert {"load", "loads", "impact", "calibrate", "laws", "version", "sweep", "read_sweep",
            "read_run", "Model", "Simulation", "Result", "ImpactResult", "Run",
            "Error"} <= names
    missing = {f.__name__: _missing(f) for f in fns if _missing(f)}
    for c in classes:
        missing.update(_class_missing(c))
    assert missing == {}


def test_the_numbers_are_annotated_as_arrays_of_doubles():
    import numpy as np
    import numpy.typing as npt

    f64 = npt.NDArray[np.float64]
    hints = typing.get_type_hints(clink.Simulation.accelerations)
    assert hints["return"] == f64
    assert typing.get_type_hints(clink.Simulation.state.fget)["return"] == tuple[f64, f64]
    assert typing.get_type_hints(clink.Model.simulate)["return"] is clink.Result
    assert typing.get_type_hints(clink.load)["return"] is clink.Model
    assert typing.get_type_hints(clink.read_run)["return"] is clink.Run
    assert typing.get_type_hints(clink.impact)["return"] is clink.ImpactResult


def test_the_package_carries_the_pep561_marker():
    assert os.path.isfile(os.path.join(PACKAGE, "py.typed"))


def _mypy(script, tmp_path):
    """mypy --strict on script as a user runs it: the package found on PYTHONPATH (as
    installed: mypy reads its hints only with py.typed, and reports no error inside it)."""
    if shutil.which("mypy") is None:
        pytest.skip("mypy is not installed (Debian package mypy): the typed script is not "
                    "checked")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(PACKAGE)
    env.pop("MYPYPATH", None)
    config = tmp_path / "mypy.ini"  # no configuration but --strict
    config.write_text("[mypy]\n")
    return subprocess.run(
        ["mypy", "--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "cache"),
         "--config-file", str(config), str(script)],
        env=env, cwd=str(tmp_path), capture_output=True, text=True)


def test_a_typed_user_script_runs(tmp_path):
    out = subprocess.run(
        [sys.executable, os.path.join(HERE, "typed_user.py"),
         os.path.join(SOURCE, "models", "slider_crank_clearance.xml"), str(tmp_path / "run")],
        capture_output=True, text=True, check=True).stdout.split()
    assert out[0] == out[1] == "21"  # 0.002 s at 1e-4 s: the rows, and as read back
    assert out[6:8] == ["True", "CLINK_ERR_IO"]


def test_a_typed_user_script_passes_mypy_strict(tmp_path):
    p = _mypy(os.path.join(HERE, "typed_user.py"), tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.strip() == ""


def test_mypy_refuses_a_misuse_of_the_api(tmp_path):
    bad = tmp_path / "bad_user.py"
    bad.write_text(
        "import clink\n"
        "\n"
        "\n"
        "def f() -> None:\n"
        "    clink.impact(law=1, mass=0.046, velocity=0.3)\n"
        "    s = clink.load('m.xml').start()\n"
        "    s.advance('0.1')\n"
        "    n: int = s.accelerations()\n"
        "    clink.read_run(3)\n"
        "    r: str = clink.load('m.xml').simulate()\n")
    p = _mypy(bad, tmp_path)
    assert p.returncode == 1, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    for ln in (5, 7, 8, 9, 10):
        assert any(x.startswith("%s:%d: error:" % (bad.name, ln)) for x in lines), p.stdout
    assert 'has incompatible type "int"; expected "str"' in p.stdout
    assert len([x for x in lines if ": error:" in x]) == 5, p.stdout
