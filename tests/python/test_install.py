# SPDX-License-Identifier: BSD-3-Clause
"""`cmake --install` puts the package into the interpreter's site-packages layout under the
prefix, with _paths.py naming the installed library: it imports and runs from there with
no environment variable but PYTHONPATH (the prefix is not a system one)."""

import glob
import os
import subprocess
import sys

import pytest


def test_the_installed_package_imports_and_loads_the_installed_library(tmp_path):
    build = os.environ.get("CLINK_BINARY_DIR")
    if not build:
        pytest.skip("CLINK_BINARY_DIR is not set (run through ctest)")
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", build, "--prefix", str(prefix)], check=True,
                   capture_output=True)
    found = glob.glob(str(prefix / "lib" / "python3*" / "site-packages" / "clink" / "_paths.py"))
    assert len(found) == 1
    site = os.path.dirname(os.path.dirname(found[0]))
    # the PEP 561 marker: without it a type checker ignores the installed package's hints
    assert os.path.isfile(os.path.join(site, "clink", "py.typed"))
    env = {k: v for k, v in os.environ.items() if k not in ("CLINK_LIBRARY", "PYTHONPATH")}
    env["PYTHONPATH"] = site
    code = ("import clink, clink._lib as l; print(l.library_path()); "
            "print(clink.impact(law='hertz', mass=1.0, velocity=1.0, k=1e9).e_out)")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         cwd=str(tmp_path), check=True).stdout.split()
    assert out[0].startswith(str(prefix)) and os.path.exists(out[0])
    assert abs(float(out[1]) - 1.0) < 1e-6
