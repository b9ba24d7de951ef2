#!/bin/sh
# test_sim_defaults.sh LFC_SIM OUTDIR - lfc-sim's defaults that follow the scenario (docs/sim.md
# "Defaults that follow the scenario"), `make test-sim-defaults`, about 10 s:
#  1. a jumbo-frame scenario (mtu_blocks raised, drr_quantum not given) loads and runs: the DRR
#     quantum follows the MTU (SPEC §3.2); a quantum given below the MTU is still refused;
#  2. one long flow on an idle path of four switches, in ib and pfc mode, store-and-forward and
#     cut-through, short and long cables and pipelines, 4 KB and 9 KB packets, with the defaults:
#     no pause frame and no paused cycle (pfc), no credit-starved cycle at any switch and none at
#     the source beyond the first credit loop (ib: it waits D + 1 cycles for the switch's first
#     FCP, D the cable's delay), and goodput at line rate less the line time (SPEC §2.4): 20
#     bytes of preamble and gap per frame in pfc mode, the 6-byte FCPs in ib mode (coalesced by
#     fcp_holdoff, §5.5: f per packet, counted on the source's link). Goodput
#     is the flow's bytes over its time from its first block sent to its last block delivered,
#     less one packet's latency (the path's fill);
#  3. the checks can fail: the SPEC defaults (xoff_th 128, vl_blocks 256) pause the flow behind a
#     600 ns store-and-forward pipeline and starve its source of credits over 100 m cables;
#  4. in-network aggregation with a fan-in of 8 (sim/tests/ina_fanin.ini) takes its analytic
#     time within 2 %, and the aggregation engine's port sized for one flow (xoff_th 128,
#     shared_blocks 1024) misses it;
#  5. the counters: offered >= on the wire >= delivered for every flow, an incast's paused
#     senders offer more than they put on the wire, and their paused time is counted;
#  6. every key of the --json output is defined in docs/sim-json.md with its unit, and the table
#     defines no other (sim/tests/test_json_doc.py); a table with a key left out or invented fails;
#  7. warnings at load (docs/sim.md "Warnings"): headroom one block below the headroom
#     calculator's figure for the cable, credits one below the credit loop (switch and end node),
#     a host's headroom, in [pfc], [pfc.ROLE] and --set: one line "file:line: warning: ...",
#     naming the cable and both numbers as `lfc-sim headroom` and `lfc-sim credits` print them
#     (at block time, no host jitter, no FCP hold-off), exit status 0, the run unchanged; with
#     lfc-sim's defaults (line time, jitter, hold-off) the same one block below the larger
#     figures the defaults use; at the figure, with the derived defaults and with --no-warnings
#     none; of the shipped scenarios only those whose comment says so warn.
# Exit status: 0 every check held, 1 one failed, 2 bad arguments.
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 LFC_SIM OUTDIR" >&2
  exit 2
fi
SIM=$1
OUT=$2
HERE=$(dirname "$0")
mkdir -p "$OUT" || exit 2
fail=0
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; fail=1; }

# run NAME INI [args]: JSON into $OUT/NAME.json; 0 if lfc-sim exited 0
run() {
  r_name=$1; shift; r_ini=$1; shift
  "$SIM" "$r_ini" --no-progress --json "$OUT/$r_name.json" "$@" >"$OUT/$r_name.txt" 2>"$OUT/$r_name.err" &&
    return 0
  bad "$r_name: lfc-sim exited $?: $(head -2 "$OUT/$r_name.err")"
  return 1
}
# check NAME JSON PYTHON-EXPR: s is the summary, d all of it, f the first flow, g the groups by
# name, goodput(f) the flow's goodput in Gb/s (see the header).
check() {
  if python3 - "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s = d["summary"]; f = d["flows"][0]
g = {x["name"]: x for x in d["groups"]}
def fcp_share(d):
    # FCPs per data packet on the source host's link (SPEC §5.5, coalesced by fcp_holdoff)
    ln = next(l for l in d["links"] if l["from"] == "h0")
    return ln["fcps"] / ln["packets"]
def goodput(f):
    bits = f["delivered_bytes"] * 8.0
    busy_ns = bits / f["throughput_gbps"] - f["latency_ns_max"]
    return bits / busy_ns
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
  then ok "$1: $3"; else bad "$1: $3 ($(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); f=d["flows"][0]; s=d["summary"]; print("pauses", s["pause_frames"], "paused", s["paused_queue_cycles"], "starved", s["credit_starved_queue_cycles"], "Gb/s", f["throughput_gbps"])' "$2" 2>&1))"; fi
}

IDLE=$OUT/idle.ini
cat >"$IDLE" <<'EOF'
; one 2 MB flow from h0 to h3 across a line of four switches, nothing else
[sim]
duration_us = 300
[topology]
kind = line
switches = 4
hosts_per_switch = 1
[switch]
classes = 1
[traffic.long]
pattern = flow
src = 0
dst = 3
bytes = 2097152
EOF

# --- 1. jumbo frames: the DRR quantum follows the MTU ---------------------------------
for m in pfc ib; do
  if run jumbo_$m "$IDLE" --set switch.mode=$m --set switch.mtu_blocks=145 \
       --set traffic.long.packet_bytes=9216; then
    check "jumbo frames ($m): mtu_blocks 145 without drr_quantum loads, the flow completes" \
      "$OUT/jumbo_$m.json" 's["flows_complete"] == 1 and s["drops"] == 0'
  fi
done
msg=$("$SIM" "$IDLE" --no-progress --set switch.mtu_blocks=145 --set pfc.drr_quantum=65 2>&1 >/dev/null)
rc=$?
case "$rc $msg" in
  "2 "*"drr_quantum[0] = 65 is below mtu_blocks = 145"*) ok "drr_quantum given below the MTU: exit 2: $msg" ;;
  *) bad "drr_quantum given below the MTU: exit $rc: $msg" ;;
esac

# --- 2. one flow on an idle path: no pause, no credit stall, line rate ----------------
# name mode cut_through latency_ns cable_m mtu_blocks packet_bytes
while read -r name mode ct lat cable mtu pkt; do
  run "$name" "$IDLE" --set switch.mode="$mode" --set switch.cut_through="$ct" \
    --set switch.latency_ns="$lat" --set link.cable_m="$cable" --set switch.mtu_blocks="$mtu" \
    --set traffic.long.packet_bytes="$pkt" || continue
  if [ "$mode" = pfc ]; then
    rate="100.0 * $pkt / ($pkt + 20)"; idle='s["pause_frames"] == 0 and s["paused_queue_cycles"] == 0'
  else
    loop=$(python3 -c "import math; print(math.ceil($cable * 5 / 5.12) + 1)")
    rate="100.0 * $pkt / ($pkt + 6 * fcp_share(d))"
    idle="s['credit_starved_queue_cycles'] - s['host_credit_starved_queue_cycles'] == 0 and d['hosts'][0]['credit_starved_cycles'] <= $loop"
  fi
  check "$name: idle path, no stall" "$OUT/$name.json" "s[\"flows_complete\"] == 1 and $idle"
  check "$name: goodput at line rate less the modelled overhead ($rate Gb/s)" "$OUT/$name.json" \
    "abs(goodput(f) - $rate) < 0.001 * $rate"
done <<'EOF'
pfc_saf_130ns_2m pfc 0 130 2 65 4096
pfc_ct_130ns_2m pfc 1 130 2 65 4096
pfc_saf_600ns_100m pfc 0 600 100 65 4096
pfc_ct_600ns_100m pfc 1 600 100 65 4096
pfc_saf_2us_300m_jumbo pfc 0 2000 300 145 9216
pfc_ct_2us_300m_jumbo pfc 1 2000 300 145 9216
ib_saf_130ns_2m ib 0 130 2 65 4096
ib_ct_130ns_2m ib 1 130 2 65 4096
ib_saf_600ns_100m ib 0 600 100 65 4096
ib_ct_600ns_100m ib 1 600 100 65 4096
ib_saf_2us_300m_jumbo ib 0 2000 300 145 9216
ib_ct_2us_300m_jumbo ib 1 2000 300 145 9216
EOF

# --- 3. the checks can fail: the SPEC defaults on the same paths ----------------------
run spec_pfc "$IDLE" --set switch.mode=pfc --set switch.latency_ns=600 --set pfc.xoff_th=128
check "SPEC xoff_th 128 behind a 600 ns store-and-forward pipeline pauses the idle path" \
  "$OUT/spec_pfc.json" 's["pause_frames"] > 0 and goodput(f) < 99'
run spec_ib "$IDLE" --set switch.mode=ib --set link.cable_m=100 --set ib.vl_blocks=256
check "SPEC vl_blocks 256 over 100 m cables starves the idle path of credits" \
  "$OUT/spec_ib.json" 's["host_credit_starved_queue_cycles"] > 1000 and goodput(f) < 98'

# --- 4. in-network aggregation: the engine's port sized for its fan-in ----------------
# Analytic time (docs/sim.md "In-network aggregation"): K = 16 chunks of C = 128 KB, each
# streamed at a host's line rate R = 100 Gb/s through four stages (host -> leaf engine ->
# root engine -> leaf engine -> host), pipelined. A leaf engine's port carries 9 chunk
# streams each way (8 hosts and the root) at 8 R (ae_speed_gbps = 8 x speed), so a chunk
# takes 9/8 C/R there: T = (K x 9/8 + 3) x C/R = 21 x 10.486 us = 220.2 us; in ib mode every
# 64-block packet is followed by an FCP (SPEC §5.5): x 65/64.
INA=$HERE/ina_fanin.ini
T_PFC=$(python3 -c 'print((16 * 9 / 8 + 3) * 131072 * 8 / 100e3)')
T_IB=$(python3 -c "print($T_PFC * 65 / 64)")
run ina_pfc "$INA" --set switch.mode=pfc &&
  check "in-network all-reduce, fan-in 8, pfc: time within 2 % of $T_PFC us" "$OUT/ina_pfc.json" \
    "g['sharp']['complete'] and abs(g['sharp']['time_us'] - $T_PFC) < 0.02 * $T_PFC"
run ina_ib "$INA" --set switch.mode=ib &&
  check "in-network all-reduce, fan-in 8, ib: time within 2 % of $T_IB us" "$OUT/ina_ib.json" \
    "g['sharp']['complete'] and abs(g['sharp']['time_us'] - $T_IB) < 0.02 * $T_IB"
run ina_pfc_spec "$INA" --set switch.mode=pfc --set pfc.xoff_th=128 --set pfc.shared_blocks=1024 &&
  check "the engine's port sized for one flow (SPEC xoff_th, shared_blocks) misses it by more" \
    "$OUT/ina_pfc_spec.json" "g['sharp']['time_us'] > 1.02 * $T_PFC and s['pause_frames'] > 0"

# --- 5. offered, on the wire, delivered; paused time at the hosts ---------------------
# victim.ini: an incast whose senders PFC pauses, so their NICs' FIFOs fill: offered runs ahead
# of what goes on the wire (the old sent_bytes counted the former), and most of the paused time
# is the hosts' (which paused_queue_cycles left out).
if run counters "$HERE/../scenarios/victim.ini"; then
  check "every flow: offered >= on the wire >= delivered + dropped (packets and bytes)" "$OUT/counters.json" \
    'all(x["offered_bytes"] >= x["wire_bytes"] >= x["delivered_bytes"] and x["wire_packets"] >= x["delivered_packets"] + x["drops"] and x["offered_packets"] >= x["wire_packets"] for x in d["flows"])'
  check "paused senders: more offered than put on the wire, summed as the summary says" "$OUT/counters.json" \
    's["offered_bytes"] > 2 * s["wire_bytes"] and s["wire_bytes"] == sum(x["wire_bytes"] for x in d["flows"]) and s["offered_bytes"] == sum(x["offered_bytes"] for x in d["flows"]) and s["delivered_bytes"] == sum(x["delivered_bytes"] for x in d["flows"])'
  check "paused time at the hosts counted, and in paused_queue_cycles" "$OUT/counters.json" \
    's["host_paused_queue_cycles"] == sum(h["paused_cycles"] for h in d["hosts"]) > 0 and abs(s["paused_queue_cycles"] - s["host_paused_queue_cycles"] - sum(p["paused_fraction"] for p in d["ports"]) * s["sim_cycles"]) < len(d["ports"])'
fi

# --- 6. every --json key defined in docs/sim-json.md, and no other ----------------------
# A deadlock (deadlock.queues), collectives (groups with time and MFU), training steps (groups
# with ddp), flows with hops, ports and end nodes, hosts and aggregation engines.
DOC=$HERE/../../docs/sim-json.md
if run json_ring "$HERE/../scenarios/ring_deadlock_pfc.ini" &&
   run json_ina "$HERE/../scenarios/collectives_ina.ini" &&
   run json_ddp "$HERE/../scenarios/noisy_neighbour.ini"; then
  python3 "$HERE/test_json_doc.py" "$DOC" "$OUT/json_ring.json" "$OUT/json_ina.json" "$OUT/json_ddp.json" || fail=1
  # the check can fail: a key left out of the table, a key the output does not have
  grep -v '^| `flows\[\]\.wire_bytes`' "$DOC" >"$OUT/doc_missing.md"
  { cat "$DOC"; echo '| `summary.invented_bytes` | int | bytes | not in the output |'; } >"$OUT/doc_extra.md"
  for m in missing extra; do
    if python3 "$HERE/test_json_doc.py" "$OUT/doc_$m.md" "$OUT/json_ring.json" "$OUT/json_ina.json" "$OUT/json_ddp.json" \
         >"$OUT/doc_$m.txt"; then
      bad "a table with a key $m passes the documentation check"
    else ok "a table with a key $m fails the documentation check: $(grep -m1 FAIL "$OUT/doc_$m.txt")"; fi
  done
fi

# --- 7. warnings at load: buffers below what the calculators say -----------------------
# warns NAME TEXT GLOB [ARG...]: TEXT (printf format) as $OUT/NAME.ini runs (exit 0) and its
# stderr is exactly one line matching "$OUT/NAME.ini"GLOB ("--set" instead of the file when the
# glob starts with "--set"); NAME GLOB "" expects no warning at all.
warns() {
  n=$1 text=$2 want=$3
  shift 3
  printf "$text" >"$OUT/$n.ini"
  "$SIM" "$OUT/$n.ini" --no-progress "$@" >"$OUT/$n.out" 2>"$OUT/$n.err"
  rc=$?
  msg=$(cat "$OUT/$n.err")
  if [ $rc -ne 0 ]; then bad "$n: exit $rc, not 0: $msg"; return; fi
  if [ -z "$want" ]; then
    if [ -s "$OUT/$n.err" ]; then bad "$n: expected no warning: $msg"; else ok "$n: no warning"; fi
    return
  fi
  case $want in --set*) full=$want ;; *) full="$OUT/$n.ini$want" ;; esac
  pat=$(printf '%s' "$full" | sed 's/[][]/\\&/g')
  # shellcheck disable=SC2254 # the expected message is a glob
  if [ "$(wc -l <"$OUT/$n.err")" -eq 1 ]; then
    case $msg in
      $pat) ok "$n: exit 0, one warning: $msg" ;;
      *) bad "$n: warning: $msg; expected: $full" ;;
    esac
  else bad "$n: $(wc -l <"$OUT/$n.err") lines on stderr: $msg"; fi
}
STAR='[sim]\nduration_us = 2\n[topology]\nkind = star\nhosts_per_switch = 2\n[link]\ncable_m = 100\n'
FLOW='[traffic.x]\npattern = flow\nsrc = 0\ndst = 1\n'
# The figures the calculators print for these cables (the switch's mtu_blocks 65 = 4160 bytes;
# lfc switches and lfc hosts react at once, R = 0).
HR=$("$SIM" headroom --speed-gbps 100 --cable-m 100 --mtu 4160 --response-quanta 0 | sed -n 's/^  headroom: \([0-9]*\) blocks.*/\1/p')
CR=$("$SIM" credits --speed-gbps 100 --cable-m 100 | sed -n 's/.* \([0-9]*\) credits ([0-9]* bytes) at an lfc switch ingress/\1/p')
CE=$("$SIM" credits --speed-gbps 100 --cable-m 100 | sed -n 's/.*line rate: \([0-9]*\) credits .*/\1/p')
echo "  calculators for 100 Gb/s, 100 m, 65 blocks: headroom $HR, switch credits $CR, end node $CE"
if [ -z "$HR" ] || [ -z "$CR" ] || [ -z "$CE" ]; then bad "could not read the calculators' figures"; fi
# Block time, no host jitter, no FCP hold-off: the figures are the calculators' exactly.
BT="--set switch.wire_time=0 --set host.response_jitter_ns=0 --set ib.fcp_holdoff=0"
# shellcheck disable=SC2086 # $BT is a list of arguments
{
warns headroom_short "$STAR"'[switch]\nmode = pfc\n[pfc]\nheadroom_blocks = '$((HR - 1))'\n'"$FLOW" \
  ":11: warning: [pfc] headroom_blocks = $((HR - 1)): below the $HR blocks the headroom calculator gives for the cable h0 -> sw0 (100 Gb/s, 100 m; * and 1 more cables like it into sw switches" $BT
warns headroom_at "$STAR"'[switch]\nmode = pfc\n[pfc]\nheadroom_blocks = '"$HR"'\n'"$FLOW" "" $BT
warns headroom_set "$STAR"'[switch]\nmode = pfc\n'"$FLOW" \
  "--set: warning: [pfc] headroom_blocks = 100: below the $HR blocks * cable h0 -> sw0 *" \
  --set pfc.headroom_blocks=100 $BT
warns credits_short "$STAR"'[switch]\nmode = ib\n[ib]\nvl_blocks = '$((CR - 1))'\n'"$FLOW" \
  ":11: warning: [ib] vl_blocks = $((CR - 1)): below the $CR credits of the credit loop of the cable h0 -> sw0 (100 Gb/s, 100 m; *" $BT
warns credits_at "$STAR"'[switch]\nmode = ib\n[ib]\nvl_blocks = '"$CR"'\n'"$FLOW" "" $BT
warns role_spine '[sim]\nduration_us = 2\n[topology]\nkind = leaf_spine\nleaves = 2\nspines = 1\nhosts_per_leaf = 1\n[switch]\nmode = pfc\n[pfc.spine]\nheadroom_blocks = 100\n'"$FLOW" \
  ":11: warning: [pfc.spine] headroom_blocks = 100: below the 135 blocks * cable leaf0 -> spine0 (100 Gb/s, 2 m; * and 1 more cables like it into spine switches" $BT
warns host_headroom "$STAR"'[switch]\nmode = pfc\n[host]\nrx_blocks = 1000\nrx_xoff = 900\nrx_xon = 800\n'"$FLOW" \
  ":12: warning: [host] rx_xoff = 900: leaves rx_blocks - rx_xoff = 100 blocks of headroom, below the $HR blocks * cable sw0 -> h0 *" $BT
warns host_credits "$STAR"'[switch]\nmode = ib\n[host]\nrx_blocks = '$((CE - 1))'\n'"$FLOW" \
  ":11: warning: [host] rx_blocks = $((CE - 1)): below the $CE credits an end node needs * cable sw0 -> h0 *" $BT
}
warns host_headroom_default "$STAR"'[switch]\nmode = pfc\n[host]\nrx_blocks = 1000\n'"$FLOW" ""
# the derived rx_xoff follows an override of the cable (it was kept from the file's 2 m)
warns host_headroom_override '[sim]\nduration_us = 2\n[topology]\nkind = star\nhosts_per_switch = 2\n[switch]\nmode = pfc\n[host]\nrx_blocks = 400\n'"$FLOW" "" \
  --set link.cable_m=100
# lfc-sim's defaults add terms to the calculators' figures, and so do the warnings (the same
# functions, calc.h): line time's gap slot and merged packets, h + 1 + ceil(h / (mtu - 1))
# (SPEC §11); the hosts' response jitter (10.24 ns, 2 cycles at 100 Gb/s: --response-quanta 2);
# the FCP hold-off of two packets (130 cycles at k = 1) on the credit loop.
HRJ=$("$SIM" headroom --speed-gbps 100 --cable-m 100 --mtu 4160 --response-quanta 2 | sed -n 's/^  headroom: \([0-9]*\) blocks.*/\1/p')
HRL=$((HRJ + 1 + (HRJ + 63) / 64)) HEL=$((HR + 1 + (HR + 63) / 64))
CRH=$((CR + 130)) CEH=$((CE + 130))
echo "  with the defaults' terms: headroom $HRL (host $HEL), switch credits $CRH, end node $CEH"
warns headroom_line_short "$STAR"'[switch]\nmode = pfc\n[pfc]\nheadroom_blocks = '$((HRL - 1))'\n'"$FLOW" \
  ":11: warning: [pfc] headroom_blocks = $((HRL - 1)): below the $HRL blocks * peer response 2 cycles, * then + 1 + ceil(that / (mtu - 1)) for line time (wire_time = 1), SPEC §11)*"
warns headroom_line_at "$STAR"'[switch]\nmode = pfc\n[pfc]\nheadroom_blocks = '"$HRL"'\n'"$FLOW" ""
warns credits_holdoff_short "$STAR"'[switch]\nmode = ib\n[ib]\nvl_blocks = '$((CRH - 1))'\n'"$FLOW" \
  ":11: warning: [ib] vl_blocks = $((CRH - 1)): below the $CRH credits * + 130 for an FCP hold-off of 130 cycles (SPEC §5.5)): *"
warns credits_holdoff_at "$STAR"'[switch]\nmode = ib\n[ib]\nvl_blocks = '"$CRH"'\n'"$FLOW" ""
warns host_headroom_line "$STAR"'[switch]\nmode = pfc\n[host]\nrx_blocks = 1000\nrx_xoff = '$((1001 - HEL))'\nrx_xon = 600\n'"$FLOW" \
  ":12: warning: [host] rx_xoff = $((1001 - HEL)): leaves rx_blocks - rx_xoff = $((HEL - 1)) blocks of headroom, below the $HEL blocks * for line time *"
warns host_credits_holdoff "$STAR"'[switch]\nmode = ib\n[host]\nrx_blocks = '$((CEH - 1))'\n'"$FLOW" \
  ":11: warning: [host] rx_blocks = $((CEH - 1)): below the $CEH credits an end node needs * + 130 for an FCP hold-off *"
warns host_credits_holdoff_at "$STAR"'[switch]\nmode = ib\n[host]\nrx_blocks = '"$CEH"'\n'"$FLOW" ""
warns no_warnings "$STAR"'[switch]\nmode = pfc\n[pfc]\nheadroom_blocks = 32\n'"$FLOW" "" --no-warnings
d1=$("$SIM" "$OUT/no_warnings.ini" --no-progress --digest 2>/dev/null | sed -n 's/^digest //p')
d2=$("$SIM" "$OUT/no_warnings.ini" --no-progress --digest --no-warnings | sed -n 's/^digest //p')
[ -n "$d1" ] && [ "$d1" = "$d2" ] && ok "a warning changes nothing of the run (digest $d1)" ||
  bad "digest with a warning $d1, without $d2"
# The shipped scenarios: none warns but those built to show the effect, which say so.
for f in "$HERE"/../scenarios/*.ini; do
  n=$(basename "$f" .ini)
  "$SIM" "$f" --no-progress --estimate >/dev/null 2>"$OUT/shipped_$n.err"
  if [ ! -s "$OUT/shipped_$n.err" ]; then continue; fi
  if grep -q 'lfc-sim warns at load' "$f" && ! grep -qv ': warning: ' "$OUT/shipped_$n.err"; then
    ok "$n warns, as its comment says: $(head -c 100 "$OUT/shipped_$n.err")..."
  else bad "$n: a warning its comment does not announce: $(cat "$OUT/shipped_$n.err")"; fi
done

[ $fail -eq 0 ] && echo "test-sim-defaults: all passed" || echo "test-sim-defaults: FAILED"
exit $fail
