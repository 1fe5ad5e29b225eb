# SPDX-License-Identifier: BSD-3-Clause
"""Builds the Python package clink with the shared library libclink inside it.

`pip install .` (or `python3 -m build`) runs this through setuptools: the build of
the pure-Python modules (python/clink, declared in pyproject.toml) is followed by a
CMake build of the one target clink_shared (tests, validation and benchmarks off),
whose library is copied into the package as clink/libclink.so; clink/_lib.py loads
that copy before looking anywhere else (CLINK_LIBRARY still wins). The wheel is
therefore platform-specific (cp3X-cp3X-linux_ARCH) and needs the run-time
libraries of clink's dependencies (SUNDIALS CVODE, KLU, libxml2, LAPACK: the Debian
packages scripts/install-deps names).

Environment:
  CLINK_CMAKE_BUILD_DIR  an existing CMake build tree of this source to build the
                         library in (reused: only what changed is rebuilt), instead
                         of a fresh one under build-python/
  CLINK_PYTHON_BUILD_DIR setuptools' own build directory (default build-python/ in
                         the source tree)
  CMAKE                  the cmake program (default: cmake on the PATH)
  CMAKE_BUILD_PARALLEL_LEVEL  jobs of the library's build (default: the CPU count)
"""

import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))


def read_version():
    """The release number, from the file VERSION (the single source: docs/releases.md)."""
    with open(os.path.join(HERE, "VERSION"), encoding="ascii") as f:
        return f.read().strip()


def run(cmd):
    print("clink setup.py: " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def build_library(build_temp):
    """Configure (unless reusing a tree) and build clink_shared; the library's real path."""
    cmake = os.environ.get("CMAKE", "cmake")
    tree = os.environ.get("CLINK_CMAKE_BUILD_DIR")
    if not tree:
        tree = os.path.join(build_temp, "cmake")
        run([cmake, "-S", HERE, "-B", tree, "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
             "-DBUILD_TESTING=OFF", "-DCLINK_BUILD_TESTS=OFF", "-DCLINK_PYTHON_PACKAGE=OFF"])
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
    run([cmake, "--build", tree, "--target", "clink_shared", "--parallel", jobs])
    lib = os.path.realpath(os.path.join(tree, "libclink.so"))
    if not os.path.isfile(lib):
        raise RuntimeError("clink setup.py: the CMake build made no " + lib)
    return lib


class BuildPyWithLibrary(build_py):
    """The modules, then libclink built by CMake and copied into the package."""

    def run(self):
        super().run()
        build_temp = os.path.abspath(self.get_finalized_command("build").build_temp)
        lib = build_library(build_temp)
        dest = os.path.join(self.build_lib, "clink", "libclink.so")
        self.mkpath(os.path.dirname(dest))
        shutil.copyfile(lib, dest)
        os.chmod(dest, 0o755)


class BinaryDistribution(Distribution):
    """A wheel tagged for this platform: the package carries a compiled library."""

    def has_ext_modules(self):
        return True


# setuptools' build directories, away from the CMake tree build/ of docs/development.md
# (egg_info wants its directory to exist)
BUILD_BASE = os.environ.get("CLINK_PYTHON_BUILD_DIR", "build-python")
os.makedirs(BUILD_BASE, exist_ok=True)
setup(version=read_version(), cmdclass={"build_py": BuildPyWithLibrary},
      distclass=BinaryDistribution,
      options={"build": {"build_base": BUILD_BASE}, "egg_info": {"egg_base": BUILD_BASE}})
