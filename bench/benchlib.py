# SPDX-License-Identifier: BSD-3-Clause
"""Helpers the Python benchmarks share (bench/slider_crank_defaults.py,
bench/bench_lubricated.py): the exact atol of a rung, a model's <settings> rewritten, the
library call and `clink run` timed as child processes, and the robust rule (a setting counts
only if it and every tighter one meet the target)."""
import decimal
import json
import os
import re
import resource
import subprocess


def atol_of(rtol):
    """1e-3 rtol, the double nearest to the decimal product (rtol * 1e-3 in binary gives
    1.0000000000000001e-11 for 1e-8, one ulp from 1e-11)"""
    return float(decimal.Decimal(repr(rtol)) * decimal.Decimal("1e-3"))


def with_settings(text, drop=(), **values):
    """text with its <settings> element's attributes in drop removed and values set (numbers
    written with repr, the exact double passed)"""
    m = re.search(r"<settings [^>]*/>", text)
    attrs = dict(re.findall(r'(\w+)="([^"]*)"', m.group(0)))
    for k in drop:
        attrs.pop(k, None)
    for k, v in values.items():
        attrs[k] = v if isinstance(v, str) else repr(v)
    return text[:m.start()] + "<settings " + " ".join('%s="%s"' % kv for kv in attrs.items()) + \
        "/>" + text[m.end():]


def write(tmp, name, text):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def lib_once(build, path):
    """the library call of bench_clearance_slider_crank --once on the model file (its JSON)"""
    out = subprocess.run([os.path.join(build, "bench", "bench_clearance_slider_crank"), "--once",
                          path], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def child_cpu(args):
    """run args to completion; the CPU time (user + system) of the child process"""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=True)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def robust(results, meets):
    """the loosest rung that meets the target with every tighter one (results: rung -> its
    measure, meets: measure -> bool); None when the tightest fails"""
    best = None
    for r in sorted(results):  # tightest first
        if not meets(results[r]):
            break
        best = r
    return best
