#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `clink run` shows its progress on stderr only when stderr is a terminal and
# the run is not --quiet: simulated time, elapsed time and an estimate of the
# time left, redrawn over itself with "\r" and spaces. Replayed on a model of
# a terminal (a line of cells; "\r" returns to column 0, characters overwrite),
# every redraw must show exactly its own text (no fragment of a longer earlier
# line), stay within the terminal's width (no wrap), and the line must be blank
# at the end. In a pipe, or with --quiet on a terminal, stderr stays empty.
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad() { echo "FAIL $*"; fail=1; }
ok() { echo "ok   $*"; }
chain=$CLINK_SOURCE_DIR/models/granular_chain.xml
# a run of more than a second for the progress line (the chain's 0.3 s took 0.7 s after the
# simulator's speed work, under the one-second threshold)
slow=$CLINK_SOURCE_DIR/models/n_four_bar.xml
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3

# runs the command with stderr on a pseudo-terminal COLS wide; the bytes it wrote there to FILE
on_terminal() { # cols file command...
    "$py" - "$@" <<'PY'
import fcntl, os, struct, subprocess, sys, termios
cols, out, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
master, slave = os.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
attrs = termios.tcgetattr(slave)
attrs[1] &= ~termios.OPOST  # the bytes as written, no "\n" -> "\r\n"
termios.tcsetattr(slave, termios.TCSANOW, attrs)
p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave)
os.close(slave)
data = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:  # EIO: the other side closed
        break
    if not chunk:
        break
    data += chunk
open(out, "wb").write(data)
sys.exit(p.wait())
PY
}

# replays FILE on a terminal COLS wide; prints the number of redraws, the first and last line
replay() { # cols file
    "$py" - "$@" <<'PY'
import re, sys
cols, data = int(sys.argv[1]), open(sys.argv[2], "rb").read().decode()
if "\n" in data:
    sys.exit(f"a newline on the terminal: {data!r}")
line, draws = [], []
for seg in data.split("\r"):
    for i, ch in enumerate(seg):          # overwrite from column 0
        if i < len(line):
            line[i] = ch
        else:
            line.append(ch)
    shown = "".join(line)
    if len(shown) > cols - 1:
        sys.exit(f"a line of {len(shown)} columns on a terminal of {cols}: {shown!r}")
    if shown.rstrip() != seg.rstrip():
        sys.exit(f"fragment: the screen shows {shown!r} after drawing {seg!r}")
    if seg.strip():
        draws.append(seg.strip())
if "".join(line).strip():
    sys.exit(f"the progress line is left on the screen: {''.join(line)!r}")
if not draws:
    sys.exit("no progress shown")
pat = re.compile(r"^clink run: t = [0-9.e+-]+ s of 30 s \(\d+%\), elapsed ([0-9.]+ s|\d+ min \d\d s), left ([0-9.]+ s|\d+ min \d\d s|-)$")
for d in draws:
    if cols >= 80 and not pat.match(d):
        sys.exit(f"unexpected progress line {d!r}")
print(len(draws), "|", draws[0], "|", draws[-1])
PY
}

run=("$CLINK" run "$slow" --t-end 30 --no-timing)
for cols in 100 50; do
    on_terminal $cols "$tmp/tty.$cols" "${run[@]}" -o "$tmp/t$cols"
    status=$?
    [ "$status" = 0 ] || bad "run on a terminal: exit $status"
    if r=$(replay $cols "$tmp/tty.$cols"); then
        ok "terminal of $cols columns: $r"
    else
        bad "terminal of $cols columns: $r"
    fi
done
cmp -s "$tmp/t100/timeseries.csv" "$tmp/t50/timeseries.csv" || bad "the progress changed the results"

short=("$CLINK" run "$chain" --t-end 0.15 --output-step 1e-4)
on_terminal 100 "$tmp/quiet" "${short[@]}" -o "$tmp/q" --quiet
[ -s "$tmp/quiet" ] && bad "--quiet on a terminal wrote $(wc -c <"$tmp/quiet") bytes" || ok "--quiet: nothing on the terminal"
"${short[@]}" -o "$tmp/pipe" 2>"$tmp/pipe.err" | cat >"$tmp/pipe.out"
[ -s "$tmp/pipe.err" ] && bad "stderr in a pipe: $(cat -v "$tmp/pipe.err")" || ok "in a pipe: nothing on stderr"
grep -q "^granular_chain: ok" "$tmp/pipe.out" || bad "in a pipe: no summary line on stdout"
exit $fail
