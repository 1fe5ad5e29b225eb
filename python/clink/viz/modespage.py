# SPDX-License-Identifier: BSD-3-Clause
"""The page of a `clink modes -o DIR` directory: the modes to choose from and play.

    python3 -m clink.viz.modespage DIR [-o FILE.html]

Reads DIR/modes.json and writes FILE.html (default DIR/view.html): the table of the
modes (frequency, damped frequency, damping ratio, what each moves most) and, beside
it, the page of the chosen mode's film (DIR/mode-K/view.html, written before by
`clink view DIR`, which calls this module last) in a frame, with its time slider and
play button; a click on a row plays that mode. Modes without a film (overdamped, zero)
are listed without a link. The page links the films' pages by relative paths: keep
the directory together.

Exit status: 0 written; 2 DIR holds no modes.json or it is damaged; 3 the page could not
be written.
"""
import html
import json
import os
import sys

PROG = "clink view"


def rows(d, modes, where):
    """the table's rows; the films' pages linked relative to the page's folder where"""
    out = []
    for k, m in enumerate(modes, start=1):
        full = os.path.join(d, f"mode-{k}", "view.html")
        has = os.path.isfile(full)
        film = os.path.relpath(full, where)
        cells = [str(k), f"{m['frequency_hz']:.6g}", f"{m['damped_frequency_hz']:.6g}",
                 f"{m['damping_ratio']:.4g}", html.escape(str(m.get("moves", "")))]
        attr = f' data-film="{html.escape(film)}" class="film"' if has else ' class="none"'
        play = "play" if has else ("zero" if m.get("zero") else "no film")
        out.append(f"<tr{attr}>" + "".join(f"<td>{c}</td>" for c in cells) +
                   f"<td>{play}</td></tr>")
    return "\n".join(out)


STYLE = """body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}tr.film{cursor:pointer}
tr.film:hover{background:#eef}tr.chosen{background:#dde}td:nth-child(5){text-align:left}
iframe{width:100%;height:75vh;border:1px solid #ccc;margin-top:1em}"""

SCRIPT = """const frame = document.getElementById('film');
function choose(tr) {
  document.querySelectorAll('tr.chosen').forEach(r => r.classList.remove('chosen'));
  tr.classList.add('chosen');
  frame.src = tr.dataset.film;
  document.getElementById('link').href = tr.dataset.film;
}
document.querySelectorAll('tr.film').forEach(tr => tr.addEventListener('click', () => choose(tr)));
const first = document.querySelector('tr.film');
if (first) choose(first);"""


def page(d, info, where):
    title = html.escape(f"modes of {os.path.basename(os.path.normpath(d))} about the "
                        f"{info.get('at', '?')} ({info.get('dof', '?')} degrees of freedom)")
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title}</title><style>{STYLE}</style></head>
<body><h1>{title}</h1>
<table id="modes"><thead><tr><th>mode</th><th>frequency (Hz)</th><th>damped (Hz)</th>
<th>damping ratio</th><th>moves most</th><th>film</th></tr></thead>
<tbody>
{rows(d, info.get("modes", []), where)}
</tbody></table>
<p>Click a mode to play its film (pose + A sin(2 pi f t) shape; <a id="link" href="#">open it
alone</a>).</p>
<iframe id="film" title="the chosen mode's film"></iframe>
<script>{SCRIPT}</script>
</body></html>
"""


def main(argv):
    args = argv[1:]
    out = None
    if len(args) == 3 and args[1] == "-o":
        out = args[2]
    elif len(args) != 1:
        print(f"{PROG}: usage: python3 -m clink.viz.modespage DIR [-o FILE.html]",
              file=sys.stderr)
        return 2
    d = args[0]
    path = os.path.join(d, "modes.json")
    try:
        with open(path) as f:
            info = json.load(f)
        if info.get("command") != "modes" or not isinstance(info.get("modes"), list):
            raise ValueError("no \"modes\" list of clink modes")
        out = out or os.path.join(d, "view.html")
        text = page(d, info, os.path.dirname(os.path.abspath(out)))
    except OSError as e:
        print(f"{PROG}: {path}: cannot read: {e.strerror}", file=sys.stderr)
        return 2
    except (ValueError, KeyError, TypeError) as e:
        print(f"{PROG}: {path}: damaged ({e})", file=sys.stderr)
        return 2
    try:
        with open(out + ".incomplete", "w") as f:
            f.write(text)
        os.replace(out + ".incomplete", out)
    except OSError as e:
        print(f"{PROG}: {out}: cannot write: {e.strerror}", file=sys.stderr)
        return 3
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
