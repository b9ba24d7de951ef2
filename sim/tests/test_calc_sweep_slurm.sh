#!/usr/bin/env bash
# test_calc_sweep_slurm.sh - scripts/sweep --slurm against a real single-node Slurm.
#
#   sim/tests/test_calc_sweep_slurm.sh WORKDIR
#
# Starts munged, slurmctld and slurmd (Debian munge, slurmctld, slurmd, slurm-client) on this
# machine with a key, slurm.conf, state, spool, sockets and logs all under WORKDIR and ports of
# their own, so nothing of an installed Slurm or munge is touched; runs a sweep as a job array;
# checks the CSV and that every point ran as an array task; and stops the three daemons it
# started (by their pids) on exit, also on failure. Needs root (the daemons run as root, as
# SlurmUser). Takes about 20-40 s, most of it the daemons starting.
set -uo pipefail
work="${1:?usage: $0 WORKDIR}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
sweep="$root/scripts/sweep"
standin="$root/sim/tests/test_calc_sweep_standin.sh"
START_TIMEOUT_S=60   # for the node to become idle
SWEEP_TIMEOUT_S=300  # for the whole job array

if [ "$(id -u)" -ne 0 ]; then
  echo "test_calc_sweep_slurm: needs root to run munged, slurmctld and slurmd" >&2
  exit 1
fi
for tool in munged mungekey slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$tool" >/dev/null ||
    { echo "test_calc_sweep_slurm: $tool missing (Debian: munge slurmctld slurmd slurm-client)" >&2; exit 1; }
done

rm -rf "$work" && mkdir -p "$work" && work="$(cd "$work" && pwd)"
mkdir -p "$work"/{munge,state,spool,log,run}
chmod 700 "$work/munge"
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null
  done
}
trap cleanup EXIT
fails=0 checks=0
fail() { echo "  FAIL: $*"; fails=$((fails + 1)); }
die() { echo "test_calc_sweep_slurm: $*" >&2; for f in "$work"/log/* "$work"/munge/*.log; do
  [ -f "$f" ] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }; done; exit 1; }

# A free TCP port at or above $1.
free_port() {
  local p="$1"
  while ss -Hltn "sport = :$p" | grep -q .; do p=$((p + 1)); done
  echo "$p"
}

# munge: our own key and socket.
mungekey --create --keyfile="$work/munge/munge.key" --force 2>/dev/null ||
  die "mungekey --create failed"
chmod 400 "$work/munge/munge.key"
munged --foreground --force --socket="$work/munge/munge.sock" --key-file="$work/munge/munge.key" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/munge/munged.log" \
  --seed-file="$work/munge/munged.seed" >"$work/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$work/munge/munge.sock" ] && break; sleep 0.1; done
[ -S "$work/munge/munge.sock" ] || die "munged did not start"

node="$(hostname -s)"
ctld_port="$(free_port $((20000 + $$ % 5000)))"
slurmd_port="$(free_port $((ctld_port + 1)))"
cpus="$(nproc)"
conf="$work/slurm.conf"
cat >"$conf" <<CONF
# Written by $0: a one-node cluster for the scripts/sweep test.
ClusterName=lfcsweeptest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=60
KillWait=5
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=sweep Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$conf"

slurmctld -D -c -f "$conf" >"$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$conf" -N "$node" >"$work/log/slurmd.out" 2>&1 &
pids+=($!)
t0=$SECONDS
until [ "$(sinfo -h -N -o %T 2>/dev/null)" = "idle" ]; do
  [ $((SECONDS - t0)) -lt $START_TIMEOUT_S ] || die "node not idle after ${START_TIMEOUT_S}s: $(sinfo -h -N -o '%T %E' 2>&1)"
  for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null || die "a Slurm or munge daemon exited"; done
  sleep 0.5
done
echo "  slurm up in $((SECONDS - t0)) s: node $node, $cpus CPUs, slurmctld port $ctld_port"

# The sweep: 2 x 3 points, at most 2 tasks at once, one point failing.
printf '[sim]\nduration_us = 1\n' >"$work/x.ini"
# A directory name with a space and a quote, and an option value with spaces: scripts/sweep
# shell-quotes them on the #SBATCH lines, which sbatch must read back as one word each. The
# failing points fail on the nodes: --no-check lets them past the check before the array.
out="$work/sweep 'dir'"
comment="lfc sweep 'test'"
t0=$SECONDS
timeout "$SWEEP_TIMEOUT_S" "$sweep" "$work/x.ini" --grid t.a=1,2 --grid t.b=3,bad,5 --set t.c=9 \
  --no-check -j 2 --slurm --sbatch-opt=--time=5 --sbatch-opt="--comment=$comment" --cmd "$standin" \
  --out "$out" >"$work/sweep.stdout" 2>"$work/sweep.stderr"
rc=$?
echo "  sweep of 6 points on Slurm: $((SECONDS - t0)) s, exit $rc"
checks=$((checks + 1)); [ "$rc" -eq 1 ] || fail "sweep exit $rc, want 1 (one failing point): $(cat "$work/sweep.stderr")"
job="$(cat "$out/slurm_job_id" 2>/dev/null)"
checks=$((checks + 1)); [[ "$job" =~ ^[0-9]+$ ]] || fail "no Slurm job id in $out/slurm_job_id"

want_line() {
  checks=$((checks + 1))
  grep -Fxq -- "$2" "$1" || { fail "$1 lacks the line: $2"; sed 's/^/    | /' "$1"; }
}
script="$out/sweep.sbatch"
want_line "$script" "#SBATCH --array=0-5%2"
want_line "$script" "#SBATCH --time=5"
csv="$out/sweep.csv"
# The stand-in's summary (see it): drops = a*b, pause_frames = a+b, delivered_bytes = 64a,
# deadlock = b > a, sim_cycles = 3 --set options, slurm_job = the array job it ran in.
want_line "$csv" "point,t.a,t.b,status,sim_cycles,delivered_bytes,drops,pause_frames,ecn_marks,deadlock,deadlock_cycle,wall_seconds,sets,scenario,slurm_job,error"
want_line "$csv" "0,1,3,0,3,64,3,4,0,true,,0.001,t.c=9;t.a=1;t.b=3,$work/x.ini,$job,"
want_line "$csv" "1,1,bad,2,,,,,,,,,,,,$work/x.ini: --set t.b=bad: bad value 'bad'; allowed: numbers"
want_line "$csv" "2,1,5,0,3,64,5,6,0,true,,0.001,t.c=9;t.a=1;t.b=5,$work/x.ini,$job,"
want_line "$csv" "3,2,3,0,3,128,6,5,0,true,,0.001,t.c=9;t.a=2;t.b=3,$work/x.ini,$job,"
want_line "$csv" "4,2,bad,2,,,,,,,,,,,,$work/x.ini: --set t.b=bad: bad value 'bad'; allowed: numbers"
want_line "$csv" "5,2,5,0,3,128,10,7,0,true,,0.001,t.c=9;t.a=2;t.b=5,$work/x.ini,$job,"
checks=$((checks + 1))
# Into a variable first: with pipefail, grep -q leaving at the first match can kill scontrol
# with SIGPIPE and fail the pipeline although the line is there.
job_text=$(scontrol show job "$job")
grep -Fq "Comment=$comment" <<<"$job_text" ||
  fail "sbatch did not read --comment=$comment as one word:" \
    "$(scontrol show job "$job" | grep -i comment)"
for i in 0 1 2 3 4 5; do
  checks=$((checks + 1))
  [ -f "$out/runs/slurm-$i.out" ] || fail "array task $i left no runs/slurm-$i.out"
done

echo "test_calc_sweep_slurm: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
