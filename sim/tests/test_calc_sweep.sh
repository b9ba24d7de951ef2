#!/usr/bin/env bash
# test_calc_sweep.sh - scripts/sweep on GNU parallel, with a stand-in for lfc-sim
# (sim/tests/test_calc_sweep_standin.sh, whose summary fields are functions of the point's
# --set values, so every CSV cell below is known in advance). About 5 s.
#
#   sim/tests/test_calc_sweep.sh WORKDIR [LFC_SIM]
#
# With LFC_SIM (build/lfc-sim), also a two-point sweep of a real scenario, checking that the
# CSV has the summary fields of docs/sim-json.md and that the points differ as they should.
set -uo pipefail
work="${1:?usage: $0 WORKDIR [LFC_SIM]}"
lfc_sim="${2:-}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
sweep="$root/scripts/sweep"
standin="$root/sim/tests/test_calc_sweep_standin.sh"
rm -rf "$work" && mkdir -p "$work" && work="$(cd "$work" && pwd)"
printf '[sim]\nduration_us = 1\n' >"$work/x.ini"
fails=0 checks=0
fail() { echo "  FAIL: $*"; fails=$((fails + 1)); }
check() { checks=$((checks + 1)); }

# want_line FILE LINE: FILE has exactly that line.
want_line() {
  check
  grep -Fxq -- "$2" "$1" || { fail "$1 lacks the line: $2"; sed 's/^/    | /' "$1"; }
}

# 1. A 3 x 2 grid with a fixed --set, 2 at a time. The first axis varies slowest; each row has
#    the point's own values: drops = a*b, pause_frames = a+b, delivered_bytes = 64a,
#    deadlock = b > a, sim_cycles = 3 (--set options), the fixed --set first.
out="$work/ok"
"$sweep" "$work/x.ini" --grid t.a=1,2,30 --grid t.b=10,20 --set t.c=5 -j 2 \
  --cmd "$standin" --out "$out" >"$work/ok.stdout" 2>"$work/ok.stderr"
rc=$?
check; [ "$rc" -eq 0 ] || fail "sweep of good points: exit $rc: $(cat "$work/ok.stderr")"
csv="$out/sweep.csv"
want_line "$csv" "point,t.a,t.b,status,sim_cycles,delivered_bytes,drops,pause_frames,ecn_marks,deadlock,deadlock_cycle,wall_seconds,sets,scenario,slurm_job,error"
want_line "$csv" "0,1,10,0,3,64,10,11,0,true,,0.001,t.c=5;t.a=1;t.b=10,$work/x.ini,,"
want_line "$csv" "1,1,20,0,3,64,20,21,0,true,,0.001,t.c=5;t.a=1;t.b=20,$work/x.ini,,"
want_line "$csv" "2,2,10,0,3,128,20,12,0,true,,0.001,t.c=5;t.a=2;t.b=10,$work/x.ini,,"
want_line "$csv" "3,2,20,0,3,128,40,22,0,true,,0.001,t.c=5;t.a=2;t.b=20,$work/x.ini,,"
want_line "$csv" "4,30,10,0,3,1920,300,40,0,false,,0.001,t.c=5;t.a=30;t.b=10,$work/x.ini,,"
want_line "$csv" "5,30,20,0,3,1920,600,50,0,false,,0.001,t.c=5;t.a=30;t.b=20,$work/x.ini,,"
check; [ "$(wc -l <"$csv")" -eq 7 ] || fail "want 7 CSV lines, got $(wc -l <"$csv")"
want_line "$work/ok.stdout" "sweep: 6 points, 6 ok, 0 failed: $csv"
check; [ "$(tail -n +2 "$out/parallel.log" | wc -l)" -eq 6 ] || fail "GNU parallel did not run 6 jobs"

# 2. --gather rewrites the same CSV from the directory alone.
cp "$csv" "$work/first.csv"
rm "$csv"
"$sweep" --gather "$out" >/dev/null
check; cmp -s "$csv" "$work/first.csv" || fail "--gather wrote a different CSV"

# 3. Failing points (past the check, --no-check): exit 1, the CSV still has every row, with the
#    status and the error line.
out="$work/fail"
"$sweep" "$work/x.ini" --grid t.a=1,bad,nojson --grid=t.b=7 --no-check --cmd "$standin" --out "$out" \
  >"$work/fail.stdout" 2>"$work/fail.stderr"
rc=$?
check; [ "$rc" -eq 1 ] || fail "sweep with failing points: exit $rc, want 1"
csv="$out/sweep.csv"
want_line "$csv" "0,1,7,0,2,64,7,8,0,true,,0.001,t.a=1;t.b=7,$work/x.ini,,"
want_line "$csv" "1,bad,7,2,,,,,,,,,,,,$work/x.ini: --set t.a=bad: bad value 'bad'; allowed: numbers"
want_line "$csv" "2,nojson,7,bad json,,,,,,,,,,,,no out.json: the command exited 0 without writing --json"
check; grep -q "point 1 (t.a=bad t.b=7) exit 2: " "$work/fail.stderr" || fail "no report of point 1 on stderr"

# 4. Re-using a sweep directory replaces its runs; a foreign non-empty directory is refused.
"$sweep" "$work/x.ini" --grid t.a=4 --grid t.b=5 --cmd "$standin" --out "$out" >/dev/null 2>&1
check; [ "$(ls "$out/runs" | wc -l)" -eq 1 ] && [ "$(wc -l <"$out/sweep.csv")" -eq 2 ] ||
  fail "re-used sweep directory kept old runs"

# 5. Bad usage: exit 2, one line on stderr naming the problem, nothing run.
bad() {
  local want="$1"; shift
  check
  "$sweep" "$@" >"$work/bad.out" 2>"$work/bad.err"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "sweep $*: exit $rc, want 2"
  [ "$(wc -l <"$work/bad.err")" -eq 1 ] || fail "sweep $*: want one stderr line: $(cat "$work/bad.err")"
  grep -Fq -- "$want" "$work/bad.err" || fail "sweep $*: stderr '$(cat "$work/bad.err")' lacks '$want'"
}
mkdir -p "$work/foreign" && touch "$work/foreign/x"
# 3b. Without --no-check a point that does not load stops the sweep before anything is written
#     or run: exit 2, one line naming the point and the simulator's message.
out="$work/checked"
"$sweep" "$work/x.ini" --grid t.a=1,bad --grid=t.b=7 --cmd "$standin" --out "$out" \
  >"$work/checked.stdout" 2>"$work/checked.stderr"
rc=$?
check; [ "$rc" -eq 2 ] || fail "a grid with a bad point: exit $rc, want 2"
check; [ "$(wc -l <"$work/checked.stderr")" -eq 1 ] &&
  grep -q "point 1 (t.a=bad, t.b=7) does not load (exit 2): .*bad value 'bad'" "$work/checked.stderr" ||
  fail "a grid with a bad point: stderr '$(cat "$work/checked.stderr")'"
check; [ ! -e "$out" ] || fail "a grid with a bad point wrote $out"

bad "--out DIR is required" "$work/x.ini" --grid t.a=1 --cmd "$standin"
bad "no --grid given" "$work/x.ini" --out "$work/o5" --cmd "$standin"
bad "key 'nodot' is not allowed" "$work/x.ini" --grid nodot=1 --out "$work/o5" --cmd "$standin"
bad "give section.key=value" "$work/x.ini" --grid t.a --out "$work/o5" --cmd "$standin"
bad "an empty value" "$work/x.ini" --grid t.a=1,,2 --out "$work/o5" --cmd "$standin"
bad "already a grid axis" "$work/x.ini" --grid t.a=1 --grid t.a=2 --out "$work/o5" --cmd "$standin"
bad "also a grid axis" "$work/x.ini" --grid t.a=1 --set t.a=2 --out "$work/o5" --cmd "$standin"
bad "-j '0' is not allowed" "$work/x.ini" --grid t.a=1 -j 0 --out "$work/o5" --cmd "$standin"
bad "unknown option '--bogus'" "$work/x.ini" --grid t.a=1 --bogus --out "$work/o5"
bad "scenario '$work/none.ini' is not a readable file" "$work/none.ini" --grid t.a=1 --out "$work/o5"
bad "command '$work/nosuch' is not an executable file" "$work/x.ini" --grid t.a=1 --out "$work/o5" --cmd "$work/nosuch"
bad "is not empty and not a sweep directory" "$work/x.ini" --grid t.a=1 --out "$work/foreign" --cmd "$standin"
bad "--column 'p99': give NAME=PATH" "$work/x.ini" --grid t.a=1 --column p99 --out "$work/o5" --cmd "$standin"
bad "the column a is given twice" "$work/x.ini" --grid t.a=1 --column a=x --column a=y --out "$work/o5" --cmd "$standin"
bad "--sbatch-opt needs --slurm" "$work/x.ini" --grid t.a=1 --sbatch-opt=-p --out "$work/o5" --cmd "$standin"
bad "the grid has 1000000 points" "$work/x.ini" --grid t.a=$(seq -s, 1000) --grid t.b=$(seq -s, 1000) --out "$work/o5" --cmd "$standin"
check; [ ! -e "$work/o5" ] || fail "a refused sweep created its output directory"

# 6. The real simulator: the PFC headroom scenario (100 Gb/s, 100 m, 4096-byte packets) below
#    and at the calculator's figure, 2*64 - 1 + 2*98 + 394 + 2 = 719 blocks.
if [ -n "$lfc_sim" ]; then
  out="$work/real"
  "$sweep" "$root/sim/scenarios/pfc_headroom.ini" --grid pfc.headroom_blocks=300,719 \
    --set sim.duration_us=5 -j 2 --cmd "$lfc_sim" --out "$out" \
    --column p99=flows.0.latency_ns_p99 --column inc_bytes=groups.incast.bytes \
    --column missing=groups.nosuch.time_us >/dev/null 2>"$work/real.stderr"
  rc=$?
  check; [ "$rc" -eq 0 ] || fail "sweep of $lfc_sim: exit $rc: $(cat "$work/real.stderr")"
  # Columns by name: status, drops, and every summary field docs/sweep.md names.
  python3 - "$out/sweep.csv" <<'PY' || fail "the CSV of the real sweep is not as expected"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
need = ["sim_cycles", "delivered_bytes", "drops", "pause_frames", "ecn_marks", "deadlock",
        "deadlock_cycle", "wall_seconds"]
missing = [k for k in need if k not in rows[0]]
assert not missing, "missing columns %s" % missing
assert [r["pfc.headroom_blocks"] for r in rows] == ["300", "719"], rows
assert all(r["status"] == "0" for r in rows), rows
assert int(rows[0]["drops"]) > 0 and int(rows[1]["drops"]) == 0, [r["drops"] for r in rows]
assert int(rows[1]["pause_frames"]) > 0, rows[1]
# drops by cause, one column each, adding up; --column values from each point's own JSON
import json, os
for i, r in enumerate(rows):
    causes = [k for k in r if k.startswith("drops_by_cause.")]
    assert "drops_by_cause.headroom" in causes, list(r)
    assert sum(int(r[k]) for k in causes) == int(r["drops"]), r
    doc = json.load(open(os.path.join(os.path.dirname(sys.argv[1]), "runs", "%04d" % i,
                                      "out.json")))
    assert r["p99"] == str(doc["flows"][0]["latency_ns_p99"]), (r["p99"], doc["flows"][0])
    inc = [g for g in doc["groups"] if g["name"] == "incast"][0]
    assert r["inc_bytes"] == str(inc["bytes"]), r
    assert r["missing"] == "", r
assert list(rows[0])[-4:] == ["p99", "inc_bytes", "missing", "error"], list(rows[0])
PY
  checks=$((checks + 1))
fi

echo "test_calc_sweep: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
