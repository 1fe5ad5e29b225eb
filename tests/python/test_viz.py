# SPDX-License-Identifier: BSD-3-Clause
"""The viewer clink.viz (python/clink/viz): `python3 -m clink.viz.plot` draws the figures
`clink plot` draws, and the subpackage imports nothing of the package around it, so that
the command can run it as the top-level package viz without loading the library."""

import os
import subprocess
import sys

import pytest

from conftest import SOURCE, model, run_cli


def module(*args, env=None):
    return subprocess.run([sys.executable, "-m"] + [str(a) for a in args], capture_output=True,
                          text=True, env=env)


def test_the_viewer_modules_run_with_python_m_and_show_their_usage():
    for name in ("plot", "animate"):
        p = module("clink.viz." + name, "--help")
        assert p.returncode == 0, p.stderr
        assert "python3 -m clink.viz." + name + " DIR" in p.stdout


def test_the_viewer_alone_imports_neither_the_package_nor_the_library():
    env = dict(os.environ, PYTHONPATH=os.path.join(SOURCE, "python", "clink"))
    code = ("import sys, viz.plot, viz.animate\n"
            "bad = [m for m in sys.modules if m == 'clink' or m.startswith('clink.')"
            " or m in ('cffi', '_cffi_backend')]\n"
            "assert not bad, bad\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr


def test_python_m_clink_viz_plot_draws_the_figures_of_clink_plot(tmp_path):
    pytest.importorskip("matplotlib")
    run = tmp_path / "run"
    run_cli("run", model("slider_crank_clearance"), "-o", run, "--t-end", "0.004", "--quiet")
    run_cli("plot", run, "-o", tmp_path / "cli", "--against", "time", "--format", "svg")
    p = module("clink.viz.plot", run, "--out", tmp_path / "mod", "--format", "svg")
    assert p.returncode == 0, p.stderr
    by_cli = sorted(os.listdir(tmp_path / "cli"))
    assert "journal_orbit.svg" in by_cli and "contact_forces.svg" in by_cli, by_cli
    assert sorted(os.listdir(tmp_path / "mod")) == by_cli
    assert sorted(os.path.basename(w) for w in p.stdout.split()) == by_cli  # one line each
