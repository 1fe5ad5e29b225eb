#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every code example of the documentation, as a reader would copy it.

Usage: doc_examples.py SOURCE_DIR WORK_DIR, with the installed clink first on
PATH and PKG_CONFIG_PATH pointing at the installed package (tests/install/
check_install.sh sets them; no LD_LIBRARY_PATH: programs carry the library's
directory in their RPATH, as docs/api.md builds them).

For each page (README.md, docs/*.md), each fenced block, in page order, in
WORK_DIR (which holds a copy of models/):
  ```c    its first line names the file (/* NAME.c: ... */); the block is written
          to NAME.c. A program (with main) is built and run by the page's next
          sh block that names NAME.c, or else here with the documented line
          `cc -o NAME NAME.c $(pkg-config --cflags --libs clink) -lm
          -Wl,-rpath,$(pkg-config --variable=libdir clink)` and run; a
          block without main is compiled with `cc -c` (-Wall -Werror).
  ```xml  a whole mechanism (<mechanism ...>) is checked with `clink check`; if
          its first line names a file (<!-- NAME.xml: ... -->) it is written there
          first, for the commands after it. A fragment (one element of a file)
          is counted and left.
  ```sh   run with bash (-e, -u, pipefail); it must exit 0. A block whose first
          line is "# not run by the tests: REASON" is left, so is a Slurm batch
          script (#SBATCH lines), and so are the pages
          of NOT_RUN below, whose commands install packages or need other builds.
  ```python  the page's Python blocks, in order, are one script (a reader types
          them into one session): run at the end of the page with the
          installed package (PYTHONPATH from CLINK_PYTHON_SITE, set by
          tests/install/check_install.sh); a failure names the block it was in.
  other   (no language: usage lines and sample output) not code.
Exit 0 when everything passed; else 1, naming each failing block by page:line.
"""
import os
import re
import shutil
import subprocess
import sys

NOT_RUN = {
    "docs/performance.md": "the benchmarks install SciPy and Simbody and run for minutes (scripts/bench)",
    "docs/development.md": "the fuzzing recipe needs the libFuzzer build of scripts/fuzz",
}
CC = ["cc", "-std=c11", "-Wall", "-Werror"]


def blocks(path):
    """(line, language, text) of each fenced block"""
    out, lang, start, buf = [], None, 0, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.startswith("```"):
                if lang is None:
                    lang, start, buf = line[3:].strip(), n, []
                else:
                    out.append((start, lang, "".join(buf)))
                    lang = None
            elif lang is not None:
                buf.append(line)
    return out


def run(cmd, cwd, shell=False, timeout=600):
    p = subprocess.run(cmd, cwd=cwd, shell=shell, capture_output=True, text=True,
                       timeout=timeout, executable="/bin/bash" if shell else None)
    return p.returncode, p.stdout + p.stderr


def pkg_flags(what):
    code, text = run(["pkg-config", what, "clink"], cwd=".")
    if code != 0:
        sys.exit(f"pkg-config {what} clink failed: {text}")
    return text.split()


def pkg_variable(name):
    code, text = run(["pkg-config", "--variable=" + name, "clink"], cwd=".")
    if code != 0 or not text.strip():
        sys.exit(f"pkg-config --variable={name} clink failed: {text}")
    return text.strip()


def run_python(page, pyblocks, work, count, fail):
    """the page's Python blocks as one script; a marker before each names the failing one"""
    script = "".join(f"print('@@ {where}', flush=True)\n{text}" for where, text in pyblocks)
    env = dict(os.environ)
    site = os.environ.get("CLINK_PYTHON_SITE", "")
    env["PYTHONPATH"] = site + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    p = subprocess.run([sys.executable, "-c", script], cwd=work, capture_output=True, text=True,
                       timeout=600, env=env)
    if p.returncode == 0:
        for _ in pyblocks:
            count("Python blocks run")
        return
    marks = [ln[3:] for ln in p.stdout.splitlines() if ln.startswith("@@ ")]
    where = marks[-1] if marks else page
    fail(where, f"Python example: exit {p.returncode}", p.stdout[-1000:] + p.stderr)


def main():
    src, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    shutil.copytree(os.path.join(src, "models"), os.path.join(work, "models"), dirs_exist_ok=True)
    pages = ["README.md"] + sorted("docs/" + p for p in os.listdir(os.path.join(src, "docs"))
                                   if p.endswith(".md"))
    failures, counts, left = [], {}, []

    def count(kind):
        counts[kind] = counts.get(kind, 0) + 1

    def fail(where, what, text=""):
        failures.append(f"{where}: {what}\n{text.strip()[-2000:]}")

    for page in pages:
        bl = blocks(os.path.join(src, page))
        pyblocks = []
        for i, (line, lang, text) in enumerate(bl):
            where = f"{page}:{line}"
            first = text.splitlines()[0] if text.strip() else ""
            if lang == "c":
                m = re.match(r"/\* (\w+)\.c:", first)
                if not m:
                    fail(where, "a C example must name its file on its first line (/* NAME.c: ... */)")
                    continue
                name = m.group(1)
                with open(os.path.join(work, name + ".c"), "w") as f:
                    f.write(text)
                if "int main(" not in text:
                    code, out = run(CC + ["-c", name + ".c"] + pkg_flags("--cflags"), cwd=work)
                    count("C examples compiled") if code == 0 else fail(where, f"{name}.c does not compile", out)
                    continue
                later = [t for (_, lg, t) in bl[i + 1:] if lg == "sh" and f"{name}.c" in t]
                if later:
                    continue  # the page's own command builds and runs it
                code, out = run(["cc", "-o", name, name + ".c"] + pkg_flags("--cflags")
                                + pkg_flags("--libs") + ["-lm", "-Wl,-rpath," + pkg_variable("libdir")],
                                cwd=work)
                if code != 0:
                    fail(where, f"{name}.c does not build", out)
                    continue
                code, out = run(["./" + name], cwd=work)
                count("C programs built and run") if code == 0 else fail(where, f"./{name} exit {code}", out)
            elif lang == "xml":
                if "<mechanism" not in text:
                    count("XML fragments (one element, not a file)")
                    continue
                m = re.match(r"<!-- ([\w.-]+\.xml):", first)
                name = m.group(1) if m else f"_example_{page.replace('/', '_')}_{line}.xml"
                with open(os.path.join(work, name), "w") as f:
                    f.write(text)
                code, out = run(["clink", "check", name], cwd=work)
                count("XML mechanisms checked") if code == 0 else fail(where, f"clink check {name}: exit {code}", out)
            elif lang == "sh":
                if page in NOT_RUN:
                    left.append(f"{where}: {NOT_RUN[page]}")
                    continue
                if "\n#SBATCH " in text:
                    left.append(f"{where}: a Slurm batch script (it needs a cluster's srun)")
                    continue
                if first.startswith("# not run by the tests:"):
                    left.append(f"{where}: {first[len('# not run by the tests:'):].strip()}")
                    continue
                code, out = run("set -euo pipefail\n" + text, cwd=work, shell=True)
                count("shell examples run") if code == 0 else fail(where, f"shell example: exit {code}", text + "\n--\n" + out)
            elif lang == "python":
                pyblocks.append((where, text))
            elif lang:
                fail(where, f"unknown example language '{lang}' (c, xml, sh, python, or none for output)")
        if pyblocks:
            run_python(page, pyblocks, work, count, fail)

    for k in sorted(counts):
        print(f"{counts[k]:4d} {k}")
    for x in left:
        print(f"     not run: {x}")
    for x in failures:
        print(f"FAIL {x}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
