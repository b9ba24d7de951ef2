#!/usr/bin/env bash
# test_sweep_input.sh - scripts/sweep and scripts/sweep-run on bad input: every refusal is one
# line on stderr naming the flag or file, exit 2, no traceback and nothing written; and the Slurm
# array script carries each value as one shell-quoted word, so a value cannot add a line (an
# #SBATCH option or a command) of its own. About 5 s on an idle machine, 20 s on a loaded one.
#
#   sim/tests/test_sweep_input.sh WORKDIR
#
# The Slurm path runs against a stand-in sbatch (written below) that runs the array's tasks one
# after the other on this machine with bash, so no Slurm is needed; the stand-in lfc-sim is
# sim/tests/test_calc_sweep_standin.sh. Exit status: 0 every check held, 1 one failed, 2 bad
# arguments.
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 WORKDIR" >&2
  exit 2
fi
work="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
sweep="$root/scripts/sweep"
run="$root/scripts/sweep-run"
standin="$root/sim/tests/test_calc_sweep_standin.sh"
rm -rf "$work" && mkdir -p "$work" && work="$(cd "$work" && pwd)"
printf '[sim]\nduration_us = 1\n' >"$work/x.ini"
fails=0 checks=0
fail() { echo "  FAIL: $*"; fails=$((fails + 1)); }

# bad WANT CMD...: CMD exits 2 with exactly one stderr line containing WANT (and no traceback).
bad() {
  local want="$1"; shift
  checks=$((checks + 1))
  "$@" >"$work/bad.out" 2>"$work/bad.err"
  local rc=$?
  if [ "$rc" -ne 2 ] || [ "$(wc -l <"$work/bad.err")" -ne 1 ] ||
     ! grep -Fq -- "$want" "$work/bad.err"; then
    fail "$(basename "$1") ${*:2}: exit $rc, stderr: $(head -c 600 "$work/bad.err");" \
      "want exit 2 and one line with: $want"
  fi
}
# nothing_at PATH WHAT: a refused sweep wrote nothing there.
nothing_at() {
  checks=$((checks + 1))
  [ ! -e "$1" ] || fail "$2: a refused sweep created $1: $(find "$1" | head -n 5 | tr '\n' ' ')"
}

# 1. Values that cannot be one line: a newline or another control character, bytes that are not
#    UTF-8 (Python would keep them, then fail writing them after creating the directory).
o="$work/o1"
bad "--sbatch-opt '--time=5\\x0aecho injected' contains a control character" \
  "$sweep" "$work/x.ini" --grid t.a=1 --slurm --sbatch-opt=$'--time=5\necho injected' \
  --cmd "$standin" --out "$o"
bad "--grid 't.a=1,2\\x0a' contains a control character" \
  "$sweep" "$work/x.ini" --grid $'t.a=1,2\n' --cmd "$standin" --out "$o"
bad "--set 't.c=a\\x09b' contains a control character" \
  "$sweep" "$work/x.ini" --grid t.a=1 --set $'t.c=a\tb' --cmd "$standin" --out "$o"
bad "--grid 't.a=1,\\xff' is not UTF-8" \
  "$sweep" "$work/x.ini" --grid $'t.a=1,\xff' --cmd "$standin" --out "$o"
bad "--out '$work/o1\\x0a#SBATCH --x' contains a control character" \
  "$sweep" "$work/x.ini" --grid t.a=1 --cmd "$standin" --out "$o"$'\n#SBATCH --x'
bad "--cmd '$standin\\x0a' contains a control character" \
  "$sweep" "$work/x.ini" --grid t.a=1 --cmd "$standin"$'\n' --out "$o"
nothing_at "$o" "control characters and non-UTF-8 values"

# 2. -j: only the ASCII digits (int() takes Arabic-Indic ones: U+0663 is 3), within 1..100000.
bad "-j '"$'\u0663'"' is not allowed: give a whole number from 1 to 100000 (digits 0-9)" \
  "$sweep" "$work/x.ini" --grid t.a=1 -j $'\u0663' --cmd "$standin" --out "$o"
bad "--jobs '99999999999999999999' is not allowed" \
  "$sweep" "$work/x.ini" --grid t.a=1 --jobs 99999999999999999999 --cmd "$standin" --out "$o"
bad "-j '+3' is not allowed" "$sweep" "$work/x.ini" --grid t.a=1 -j +3 --cmd "$standin" --out "$o"
nothing_at "$o" "-j"

# 3. --out where no directory can be made: one line naming it, not a traceback.
touch "$work/file"
bad "--out '$work/file/sub': '$work/file' is not a directory" \
  "$sweep" "$work/x.ini" --grid t.a=1 --cmd "$standin" --out "$work/file/sub"
bad "--out '$work/file' exists and is not a directory" \
  "$sweep" "$work/x.ini" --grid t.a=1 --cmd "$standin" --out "$work/file"

# 4. A missing back end is refused before anything is written.
mkdir -p "$work/python-only" && ln -sf "$(python3 -c 'import sys; print(sys.executable)')" \
  "$work/python-only/python3"
bad "--slurm: sbatch is not on PATH" env PATH="$work/python-only" \
  "$sweep" "$work/x.ini" --grid t.a=1 --slurm --cmd "$standin" --out "$o"
nothing_at "$o" "--slurm without sbatch"

# 5. --gather of a malformed grid.json: the file, the line or key, what is allowed.
g="$work/g"
gather_bad() { # WANT GRID.JSON-CONTENT
  rm -rf "$g" && mkdir -p "$g" && printf '%s' "$2" >"$g/grid.json"
  bad "$1" "$sweep" --gather "$g"
  checks=$((checks + 1))
  [ ! -e "$g/sweep.csv" ] || fail "--gather of a bad grid.json wrote $g/sweep.csv"
}
gather_bad "$g/grid.json line 2 column 1: Expecting value" $'{"keys": [\n'
gather_bad "$g/grid.json: not a JSON object" '[1, 2]'
gather_bad "$g/grid.json: key \"points\" is not a list" '{"keys": ["t.a"]}'
gather_bad "$g/grid.json: key \"keys\" is not a list of one or more strings" \
  '{"keys": [1], "points": [[1]]}'
gather_bad "$g/grid.json: key \"points\", entry 1: not a list of 1 strings" \
  '{"keys": ["t.a"], "points": [["1"], ["1", "2"]]}'
gather_bad "$g/grid.json: byte 11 is not UTF-8" $'{"keys": ["\xff"], "points": []}'
rm -rf "$g"
bad "--gather '$g': $g/grid.json: No such file or directory" "$sweep" --gather "$g"

# 6. --gather of a point whose stderr is not UTF-8 (any simulator may print any bytes): the
#    CSV is written, the line escaped; exit 1 for the failed point, no traceback.
g="$work/g6"
"$sweep" "$work/x.ini" --grid t.a=1 --cmd "$standin" --out "$g" --dry-run >/dev/null 2>&1
printf '2\n' >"$g/runs/0000/rc"
printf 'bad \xff byte\n' >"$g/runs/0000/stderr"
"$sweep" --gather "$g" >/dev/null 2>"$work/g6.err"
rc=$?
checks=$((checks + 1))
[ "$rc" -eq 1 ] && grep -Fxq '0,1,2,bad \xff byte' "$g/sweep.csv" ||
  fail "--gather of a non-UTF-8 stderr: exit $rc, CSV: $(cat "$g/sweep.csv" 2>&1)," \
    "stderr: $(head -c 400 "$work/g6.err")"

# 7. The array script: each value one shell-quoted word (sbatch reads #SBATCH lines as a shell
#    would), under a directory whose name holds a space, quotes and a $; run by a stand-in
#    sbatch that runs every task of the array with bash.
mkdir -p "$work/bin"
cat >"$work/bin/sbatch" <<'SBATCH'
#!/usr/bin/env bash
# Stand-in sbatch --parsable --wait SCRIPT: runs array tasks 0..N-1 of SCRIPT one by one.
script="${!#}"
n="$(sed -nE 's/^#SBATCH --array=0-([0-9]+).*/\1/p' "$script")"
for i in $(seq 0 "$n"); do SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_JOB_ID=77 bash "$script"; done
echo 77
SBATCH
chmod +x "$work/bin/sbatch"
o="$work/o 7 'q' \$HOME"
PATH="$work/bin:$PATH" "$sweep" "$work/x.ini" --grid t.a=1,2 --grid t.b=3 --slurm -j 2 \
  --sbatch-opt=--time=5 --sbatch-opt="--comment=a b 'c'; echo \$HOME" --cmd "$standin" \
  --out "$o" >/dev/null 2>"$work/s7.err"
rc=$?
checks=$((checks + 1))
[ "$rc" -eq 0 ] || fail "sweep on the stand-in sbatch: exit $rc: $(cat "$work/s7.err")"
checks=$((checks + 1))
python3 - "$o/sweep.sbatch" "$o" "$(pwd)" <<'PY' || fail "the array script's lines are not as given"
import shlex, sys
script, out, cwd = sys.argv[1:]
opts = [shlex.split(ln[len("#SBATCH "):]) for ln in open(script) if ln.startswith("#SBATCH ")]
want = [["--job-name=lfc-sweep"], ["--array=0-1%2"], ["--ntasks=1"], ["--cpus-per-task=1"],
        ["--output=%s/runs/slurm-%%a.out" % out], ["--chdir=%s" % cwd], ["--time=5"],
        ["--comment=a b 'c'; echo $HOME"]]
assert opts == want, opts
PY
checks=$((checks + 1))
grep -Fxq "1,2,3,0,2,128,6,5,0,true,,0.001,t.a=2;t.b=3,$work/x.ini,77," "$o/sweep.csv" ||
  fail "the stand-in array did not run point 1: $(cat "$o/sweep.csv" 2>&1)"

# 8. scripts/sweep-run: bad arguments are refused before anything runs.
bad "sweep-run: usage" "$run" "$o"
bad "sweep-run: usage" "$run" "$o" $'\u0663'
bad "sweep-run: usage" "$run" "$o" 12345678901234567890
bad "sweep-run: $work/none/runs/0000/args does not exist" "$run" "$work/none" 0
: >"$o/runs/0000/args"
bad "sweep-run: $o/runs/0000/args is empty" "$run" "$o" 0
checks=$((checks + 1))
[ -f "$o/runs/0000/rc" ] || fail "sweep-run with an empty args file removed the point's rc"

echo "test_sweep_input: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
