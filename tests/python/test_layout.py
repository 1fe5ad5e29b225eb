# SPDX-License-Identifier: BSD-3-Clause
"""The package's C declarations (python/clink/_lib.py, cffi ABI mode) match the headers:
a C program compiled against include/clink prints the size and every field's offset of
each struct the package uses (the sweep's and the analysis' included), and each equals what cffi computed from its declarations;
likewise the values of the enumerations the package passes in (the output levels)."""

import os
import shutil
import subprocess

import pytest

from clink._lib import ANALYSIS_STRUCTS, STRUCTS, SWEEP_STRUCTS, ffi, lib
from conftest import SOURCE


def test_struct_sizes_and_offsets_equal_the_headers(tmp_path):
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        pytest.fail("no C compiler to check the declarations with")
    lines = ['#include "clink/xml.h"', '#include "clink/sim.h"', '#include "clink/lab.h"',
             '#include "clink/contact.h"', '#include "clink/sweep.h"', '#include "clink/analysis.h"',
             "#include <stddef.h>",
             "#include <stdio.h>", "int main(void) {"]
    expected = []
    for s in list(STRUCTS) + list(SWEEP_STRUCTS) + list(ANALYSIS_STRUCTS):
        t = ffi.typeof(s)
        lines.append('printf("%%zu\\n", sizeof(%s));' % s)
        expected.append(ffi.sizeof(t))
        for name, field in t.fields:
            lines.append('printf("%%zu\\n", offsetof(%s, %s));' % (s, name))
            expected.append(field.offset)
    lines.append("return 0; }")
    src = tmp_path / "layout.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "layout"
    subprocess.run([cc, "-std=c11", "-I", os.path.join(SOURCE, "include"), str(src), "-o",
                    str(exe)], check=True)
    got = [int(x) for x in subprocess.run([str(exe)], capture_output=True, text=True,
                                          check=True).stdout.split()]
    assert got == expected


# enumeration constants the package passes to the library: their values in the headers
ENUMS = ("CLINK_OUTPUT_STATE", "CLINK_OUTPUT_CONTACTS", "CLINK_OUTPUT_ALL",
         # the methods' table (CLINK_METHOD_TABLE): its values and count
         "CLINK_METHOD_BDF", "CLINK_METHOD_ADAMS", "CLINK_METHOD_RK4", "CLINK_METHOD_AUTO",
         "CLINK_METHOD_RK8", "CLINK_METHOD_COUNT")


def test_enumeration_values_equal_the_headers(tmp_path):
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if cc is None:
        pytest.fail("no C compiler to check the declarations with")
    lines = ['#include "clink/sim.h"', "#include <stdio.h>", "int main(void) {"]
    lines += ['printf("%%d\\n", (int) %s);' % e for e in ENUMS]
    lines.append("return 0; }")
    src = tmp_path / "enums.c"
    src.write_text("\n".join(lines) + "\n")
    exe = tmp_path / "enums"
    subprocess.run([cc, "-std=c11", "-I", os.path.join(SOURCE, "include"), str(src), "-o",
                    str(exe)], check=True)
    got = [int(x) for x in subprocess.run([str(exe)], capture_output=True, text=True,
                                          check=True).stdout.split()]
    assert got == [getattr(lib, e) for e in ENUMS]
