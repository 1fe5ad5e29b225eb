# SPDX-License-Identifier: BSD-3-Clause
"""clink.Model's contact elements, every kind alike (the library's element table, no
per-kind Python code): each kind's names under its XML name and its word in the plural
(.stops, .pairs, .clearance_joints, ...), and .elements with each element's fields. The
fields are compared with the attributes of the file read independently (xml.etree): every
numeric attribute of every contact element of the shipped models and of a stop."""

import glob
import math
import os
import xml.etree.ElementTree as ET

import pytest

import clink
from conftest import SOURCE

STOP = """<mechanism name="stopped">
  <settings t_end="0.01" output_step="1e-3"/>
  <bodies><body name="slider" mass="1" inertia="1e-3" x="0" y="0"/></bodies>
  <joints>
    <translational name="guide" body1="ground" body2="slider" axis="1 0"/>
    <stop name="end" body1="ground" point1="0.01 0" axis="2 0" body2="slider" point2="0 0"
          lower="-0.05" upper="0.125">
      <law name="kelvin-voigt" K="1e6" c="10"/>
    </stop>
    <stop name="far" body1="ground" body2="slider" upper="0.5"><law name="hertz" K="1e7"/></stop>
  </joints>
</mechanism>
"""


def test_stops_appear_with_their_names_and_fields():
    m = clink.loads(STOP)
    assert m.stops == ["end", "far"]
    assert m.pairs == [] and m.contact_pairs == [] and m.gear_pairs == []
    assert m.clearance_joints == [] and m.revolute_clearances == []
    kinds = [e["kind"] for e in m.elements]
    assert kinds == ["stop", "stop"]
    end, second = m.elements
    assert end["name"] == "end" and second["name"] == "far"
    f = end["fields"]
    assert f["body1"] == "ground" and f["body2"] == "slider"
    assert f["point1"] == (0.01, 0.0) and f["point2"] == (0.0, 0.0)
    # the builder normalises the axis (element_stop.c), the limits are as given
    assert f["axis"] == (1.0, 0.0)
    assert (f["lower"], f["upper"]) == (-0.05, 0.125)
    # a limit not given is none (NaN), the default axis (1, 0)
    g = second["fields"]
    assert math.isnan(g["lower"]) and g["upper"] == 0.5 and g["axis"] == (1.0, 0.0)
    with pytest.raises(AttributeError):
        m.stopps  # noqa: B018


def element_nodes(path):
    """the contact elements of a file (any element of <joints> or <contacts> with a <law>)"""
    root = ET.parse(path).getroot()
    out = []
    for sec in ("joints", "contacts"):
        for node in root.iter(sec):
            out += [k for k in node if k.find("law") is not None]
    return out


def numbers(text):
    try:
        v = [float(x) for x in text.split()]
    except ValueError:
        return None
    return v[0] if len(v) == 1 else tuple(v)


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(SOURCE, "models", "*.xml"))))
def test_element_fields_are_the_files_attributes(path):
    root = ET.parse(path).getroot()
    settings = root.find("settings")
    deg = settings is not None and settings.get("angle_unit") == "deg"
    nodes = element_nodes(path)
    if not nodes:
        pytest.skip("no contact element")
    m = clink.load(path)
    # one element per contact element of the file, in the kinds' order, each kind's names
    assert sorted(e["kind"] for e in m.elements) == sorted(n.tag for n in nodes)
    for kind in {n.tag for n in nodes}:
        names = [n.get("name", "") for n in nodes if n.tag == kind]
        assert sorted(getattr(m, kind + "s")) == sorted(names)
    by_name = {(e["kind"], e["name"]): e["fields"] for e in m.elements}
    checked = 0
    for n in nodes:
        fields = by_name[(n.tag, n.get("name"))]
        given = [(a, v) for a, v in n.attrib.items()]
        given += [(f"{c.tag}.{a}", v) for c in n if c.tag not in ("law", "friction")
                  for a, v in c.attrib.items()]
        for attr, text in given:
            v = numbers(text)
            if attr not in fields or v is None or attr == "axis":
                continue
            if deg and "angle" in attr:
                v = math.radians(v)
            assert fields[attr] == pytest.approx(v, rel=1e-15, abs=0), (n.tag, attr)
            checked += 1
    if any(n.tag != "pair" for n in nodes):
        assert checked > 0
