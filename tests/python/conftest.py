# SPDX-License-Identifier: BSD-3-Clause
"""Shared fixtures of the Python package's tests (tests/python): where the sources and
the clink command are (set by ctest, python/CMakeLists.txt), and a runner of the command."""

import os
import subprocess

import pytest

SOURCE = os.environ.get("CLINK_SOURCE_DIR",
                        os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
CLINK = os.environ.get("CLINK", os.path.join(SOURCE, "build", "clink"))


def model(name):
    return os.path.join(SOURCE, "models", name + ".xml")


def run_cli(*args, check=True):
    """Runs the clink command; the completed process (stdout, stderr as text)."""
    p = subprocess.run([CLINK] + [str(a) for a in args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError("clink %s: exit %d: %s" % (" ".join(map(str, args)), p.returncode,
                                                        p.stderr))
    return p


@pytest.fixture
def clink_cli():
    return run_cli
