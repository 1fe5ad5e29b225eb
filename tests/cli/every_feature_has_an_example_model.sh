#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every feature a model file can use is shown by a shipped example (models/*.xml, each
# run by models_run_and_give_identical_outputs): every element the embedded schema
# defines (share/clink.xsd: bodies, stops, drivers and their functions of time, loads,
# inputs, contact elements and shapes, laws, friction) and every joint the reader holds
# (the list it gives for an unknown joint: weld, pin_slot, ...) appears in at least one
# model, and so does every friction law of the catalogue (`clink laws --friction --json`)
# but "none", in a <friction type="..."> of a contact or a joint. The lists come from
# the schema and the catalogue, so a new element or law fails here until a model uses it.
set -u
python3 - "$CLINK" "$CLINK_SOURCE_DIR" <<'PY'
import glob, json, os, re, subprocess, sys
import xml.etree.ElementTree as ET

clink, src = sys.argv[1], sys.argv[2]
XS = "{http://www.w3.org/2001/XMLSchema}"
schema = ET.parse(os.path.join(src, "share", "clink.xsd")).getroot()
elements = sorted({e.get("name") for e in schema.iter(XS + "element") if e.get("name")})
laws = json.loads(subprocess.run([clink, "laws", "--friction", "--json"], check=True,
                                 capture_output=True, text=True).stdout)["friction_laws"]
friction = sorted(l["name"] for l in laws if l["name"] != "none")

# the joints' catalogue (ideal joints and contact elements), as the reader lists it when
# it meets an unknown joint
probe = os.path.join(os.environ.get("TMPDIR", "/tmp"), "clink-feature-probe-%d.xml" % os.getpid())
with open(probe, "w") as f:
    f.write('<mechanism name="probe"><bodies><body name="b" mass="1" inertia="1"/></bodies>'
            '<joints><no_such_joint/></joints></mechanism>')
msg = subprocess.run([clink, "check", probe], capture_output=True, text=True).stderr
os.remove(probe)
m = re.search(r"<joints> holds ([a-z_, ]+)", msg)
if not m:
    print("FAIL the reader did not list the joints it holds: " + msg.strip())
    sys.exit(1)
elements = sorted(set(elements) | {j.strip() for j in m.group(1).split(",")})

used, types = set(), set()
for path in sorted(glob.glob(os.path.join(src, "models", "*.xml"))):
    for e in ET.parse(path).getroot().iter():
        used.add(e.tag)
        if e.tag == "friction":
            types.add(e.get("type"))
missing = [e for e in elements if e not in used]
missing_f = [f for f in friction if f not in types]
print("%d elements and joints, %d friction laws; %d models" %
      (len(elements), len(friction), len(glob.glob(os.path.join(src, "models", "*.xml")))))
for e in missing:
    print("FAIL no model in models/ uses <%s>" % e)
for f in missing_f:
    print("FAIL no model in models/ uses the friction law %s" % f)
if not elements or not friction:
    print("FAIL the schema or the catalogue gave an empty list")
    sys.exit(1)
sys.exit(1 if missing or missing_f else 0)
PY
