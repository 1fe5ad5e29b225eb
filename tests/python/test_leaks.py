# SPDX-License-Identifier: BSD-3-Clause
"""1000 cycles of load, start, advance, read and close leak nothing: the resident set
size (/proc/self/statm) after 1000 cycles stays within 512 kB of its size after the
first 100. The same measurement is shown to catch a leak: 1000 models loaded through the
raw library call and never destroyed grow it by more than that."""

import gc
import os

import clink
from clink._lib import ffi, lib
from conftest import model

LIMIT = 512 * 1024


def rss():
    gc.collect()
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def cycle(text):
    m = clink.loads(text, set={"settings.t_end": 1e-3})
    with m.start() as s:
        s.advance(2e-4)
        s.energy()
        s.contact(0)
        s.impacts
    m.close()
    clink.impact(law="hunt-crossley", mass=0.046, velocity=0.3, k=5.5e9, restitution=0.7)


def test_1000_create_destroy_cycles_leak_nothing():
    with open(model("two_spheres")) as f:
        text = f.read()
    for _ in range(100):
        cycle(text)
    before = rss()
    for _ in range(900):
        cycle(text)
    grown = rss() - before
    assert grown < LIMIT, "RSS grew by %d bytes over 900 cycles" % grown


def test_the_measurement_sees_a_leak():
    with open(model("two_spheres")) as f:
        data = f.read().encode()
    err = ffi.new("char[]", 256)
    pm = ffi.new("clink_model **")
    before = rss()
    for _ in range(1000):  # loaded and never destroyed
        assert lib.clink_xml_load_memory_with(data, len(data), b"m", ffi.NULL, 0, ffi.NULL, pm,
                                              ffi.NULL, err, 256) == 0
    assert rss() - before > LIMIT
