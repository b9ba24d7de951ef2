#!/bin/sh
# test_sim_load.sh LFC_SIM OUTDIR - scenarios and command lines that contradict themselves are
# refused when they are loaded (docs/sim.md "Scenario files", "Load errors"), never run as
# something else or ended by a scoreboard error:
#  1. each bad scenario: exit 2, one line on stderr, nothing on stdout, the message in the
#     style of every load error, "file:line: [section] key = value: ...", at the key to blame;
#  2. the valid neighbour of each: runs (exit 0), so that the checks refuse no more than that.
set -u
SIM=$1
OUT=$2
mkdir -p "$OUT"
fail=0
ok() { echo "  ok   $*"; }
bad() { echo "  FAIL $*"; fail=1; }

# refuse NAME TEXT MESSAGE-GLOB [ARG...]: TEXT (printf format) as $OUT/NAME.ini is refused with
# one line matching "$OUT/NAME.ini"MESSAGE-GLOB ("--set" instead of the file when the glob
# starts with "--set").
refuse() {
  n=$1 text=$2 want=$3
  shift 3
  printf "$text" > "$OUT/$n.ini"
  "$SIM" "$OUT/$n.ini" --no-progress "$@" >"$OUT/$n.out" 2>"$OUT/$n.err"
  rc=$?
  msg=$(cat "$OUT/$n.err")
  lines=$(wc -l < "$OUT/$n.err")
  case $want in --set*) full=$want ;; *) full="$OUT/$n.ini$want" ;; esac
  if [ $rc -ne 2 ]; then bad "$n: exit $rc, not 2: $msg"; return; fi
  if [ "$lines" -ne 1 ] || [ -s "$OUT/$n.out" ]; then
    bad "$n: $lines lines on stderr, $(wc -c < "$OUT/$n.out") bytes on stdout: $msg"
    return
  fi
  pat=$(printf '%s' "$full" | sed 's/[][]/\\&/g') # [section] is no character class
  # shellcheck disable=SC2254 # the expected message is a glob: * stands for the rest
  case $msg in
    $pat) ok "$n: exit 2: $msg" ;;
    *) bad "$n: message: $msg; expected: $full" ;;
  esac
}

# accept NAME TEXT [ARG...]: TEXT runs (exit 0).
accept() {
  n=$1 text=$2
  shift 2
  printf "$text" > "$OUT/$n.ini"
  if "$SIM" "$OUT/$n.ini" --no-progress "$@" >"$OUT/$n.out" 2>"$OUT/$n.err"; then ok "$n: runs"
  else bad "$n: exit $?: $(head -3 "$OUT/$n.err") $(grep -E 'ERROR|wrong' "$OUT/$n.out" | head -2)"; fi
}

SIM5='[sim]\nduration_us = 2\n'
FLOW='[traffic.x]\npattern = flow\nsrc = 0\ndst = 1\n'
LS='[topology]\nkind = leaf_spine\n'

# --- a flow whose stop is not after its start -------------------------------------------
refuse stop_before_start "$SIM5$FLOW"'start_us = 1\nstop_us = 0.5\n' \
  ':8: [traffic.x] stop_us = 0.5: not after start_us = 1; allowed: 0 (the end of the run) or more than start_us'
refuse stop_at_start "$SIM5$FLOW"'start_us = 1\nstop_us = 1\n' ':8: [traffic.x] stop_us = 1: not after*'
refuse stop_set "$SIM5$FLOW"'start_us = 1\n' '--set: [traffic.x] stop_us = 0.5: not after*' \
  --set traffic.x.stop_us=0.5
accept stop_after_start "$SIM5$FLOW"'start_us = 0.5\nstop_us = 1\n'
refuse start_after_end "$SIM5$FLOW"'start_us = 2\n' \
  ':7: [traffic.x] start_us = 2: not before the end of the run (duration_us = 2)*'
refuse off_without_on "$SIM5$FLOW"'off_us = 1\n' ':7: [traffic.x] off_us = 1: bursts with on_us = 0*'
accept on_off "$SIM5$FLOW"'on_us = 0.2\noff_us = 0.2\n'

# --- a section for a switch role the topology does not have ------------------------------
refuse role_star "$SIM5"'[switch.spine]\nlatency_ns = 100\n' \
  ':4: [switch.spine] latency_ns = 100: a star topology has no switch role spine; allowed roles: sw'
refuse role_pfc_leaf "$SIM5"'[pfc.leaf]\nkmin = 10\n' ':4: [pfc.leaf] kmin = 10: a star topology has no switch role leaf*'
refuse role_fat_tree "$SIM5"'[topology]\nkind = fat_tree\n[ib.spine]\nvl_blocks = 100\n' \
  ':6: [ib.spine] vl_blocks = 100: a fat_tree topology has no switch role spine; allowed roles: edge, agg, core'
refuse role_set "$SIM5$LS" '--set: [switch.core] latency_ns = 5: a leaf_spine topology has no*' \
  --set switch.core.latency_ns=5
accept role_leaf "$SIM5$LS"'[switch.spine]\nlatency_ns = 100\n'

# --- traffic names beyond the name field: refused, not cut to one group --------------------
N31=abcdefghijabcdefghijabcdefghij_
refuse name_32 "$SIM5"'[traffic.'$N31'A]\npattern = flow\nsrc = 0\ndst = 1\n[traffic.'$N31'B]\npattern = flow\nsrc = 2\ndst = 3\n' \
  ":4: [traffic.${N31}A] pattern = flow: the section name traffic.${N31}A; allowed: [traffic] or [traffic.NAME] with a NAME of 1..31 characters other than main"
accept name_31 "$SIM5"'[traffic.'$N31']\npattern = flow\nsrc = 0\ndst = 1\n[traffic.'${N31%_}'B]\npattern = flow\nsrc = 2\ndst = 3\n'
refuse name_main "$SIM5"'[traffic]\nsrc = 0\ndst = 1\n[traffic.main]\nsrc = 2\ndst = 3\n' \
  ':7: [traffic.main] src = 2: the section name traffic.main;*'
refuse src_hosts "$SIM5"'[traffic]\nsrc = 0\nhosts = 2\ndst = 1\n' \
  ':5: [traffic] hosts = 2: src and hosts are one key, given twice (first on line 4)*'

# --- failed links that cut a host off the traffic ------------------------------------------
refuse cut_leaf "$SIM5$LS"'failed_links = leaf0-spine0,\n  leaf0-spine1\n[traffic.x]\npattern = flow\nsrc = 0\ndst = 2\n' \
  ':5: [topology] failed_links = leaf0-spine0, leaf0-spine1: h0 cannot reach h2 (pattern flow of [traffic.x]): no working path; allowed: failed links that leave every source connected to its destinations'
refuse cut_host "$SIM5$LS"'failed_links = h0-leaf0\n[traffic]\npattern = flow\nsrc = 1\ndst = 0\n' \
  ':5: [topology] failed_links = h0-leaf0: h1 cannot reach h0 (pattern flow of [traffic])*'
refuse cut_uniform "$SIM5$LS"'failed_links = h3-leaf1\n[traffic]\npattern = uniform\nsrc = 0-2\n' \
  ':5: [topology] failed_links = h3-leaf1: h0 cannot reach h3 (pattern uniform of [traffic])*'
refuse cut_set "$SIM5$LS"'[traffic]\nsrc = 1\ndst = 2\n' \
  '--set: [topology] failed_links = leaf1-spine1, leaf1-spine0: h1 cannot reach h2*' \
  --set topology.failed_links=leaf1-spine1,leaf1-spine0
refuse no_cable "$SIM5$LS"'failed_links = leaf0-spine0, leaf0-spine0\n' \
  ':5: [topology] failed_links = leaf0-spine0: no such cable*'
accept cut_spare "$SIM5$LS"'failed_links = leaf0-spine0, h0-leaf0\n[traffic]\nsrc = 1\ndst = 2\n'

# --- a cable longer than step_all's lfc_link holds: refused at load (--estimate builds no
# fabric), at the key that makes it long; skip-ahead has no such limit ---------------------------
refuse long_cable_step_all "$SIM5"'[link]\nspeed_gbps = 800\ncable_m = 10000\n' \
  ': [link] cable_m = 10000: a delay of 78125 cycles of 0.640 ns; allowed: 1..65535 cycles with step_all (lfc_link)' \
  --step-all --estimate
refuse long_host_cable_set "$SIM5"'[link]\nspeed_gbps = 800\n' \
  ': [link] host_cable_m = 10000: a delay of 78125 cycles*' --set sim.step_all=1 \
  --set link.host_cable_m=10000 --estimate
accept long_cable "$SIM5"'[link]\nspeed_gbps = 800\ncable_m = 10000\n'
# More end nodes than a 16-bit dst addresses (hosts and an aggregation engine per switch):
# refused at load, before 73,710 devices are built; one host a switch fewer fits.
AE='[traffic]\npattern = sharp\nsrc = 0-3\nbytes = 4096\n'
refuse endpoints_16bit "$SIM5"'[topology]\nkind = line\nswitches = 4095\nhosts_per_switch = 16\n'"$AE" \
  ': [topology] kind = line: 65520 hosts and 4095 aggregation engines (pattern sharp, an engine per switch); allowed: up to 65536 end nodes*' \
  --estimate
accept endpoints_fit "$SIM5"'[topology]\nkind = line\nswitches = 4095\nhosts_per_switch = 15\n'"$AE" --estimate

# --- traffic that would send to itself, to nobody, or crash --------------------------------
refuse flow_no_dst "$SIM5"'[traffic.x]\npattern = flow\nsrc = 1\n' \
  ':4: [traffic.x] dst: missing; allowed: the host that pattern flow sends to, 0..3'
refuse flow_self "$SIM5"'[traffic.x]\npattern = flow\nsrc = 1\ndst = 1\n' \
  ':6: [traffic.x] dst = 1: host 1 is also a source; allowed: a host not in src*'
refuse incast_self "$SIM5"'[traffic.x]\npattern = incast\nsrc = 0-3\ndst = 1\n' \
  ':6: [traffic.x] dst = 1: host 1 is also a source*'
refuse dst_beyond "$SIM5"'[traffic.x]\npattern = flow\nsrc = 1\ndst = 4\n' \
  ':6: [traffic.x] dst = 4: no such host; allowed: 0..3'
refuse src_beyond "$SIM5"'[traffic.x]\npattern = incast\nsrc = 1-4\ndst = 0\n' \
  ':5: [traffic.x] src: host 4 does not exist; allowed: 0..3'
refuse src_twice "$SIM5"'[traffic.x]\npattern = all_to_all\nsrc = 0-2, 1\n' \
  ':5: [traffic.x] src: host 1 listed twice*'
refuse perm_one "$SIM5"'[traffic.x]\npattern = permutation\nsrc = 2\n' \
  ':5: [traffic.x] src: 1 host; allowed: 2 or more hosts for pattern permutation*'
refuse a2a_one "$SIM5"'[traffic.x]\npattern = all_to_all\nsrc = 2\n' \
  ':5: [traffic.x] src: 1 host; allowed: 2 or more hosts for pattern all_to_all*'
refuse uniform_one_host "$SIM5"'[topology]\nkind = leaf_spine\nleaves = 1\nspines = 1\nspine_links = 2\nhosts_per_leaf = 1\n[traffic.x]\npattern = uniform\nsrc = 0\n' \
  ':10: [traffic.x] pattern = uniform: the topology has 1 host; allowed: 2 or more hosts*'
refuse ring_no_bytes "$SIM5"'[traffic.x]\npattern = ring_allreduce\nsrc = 0-3\n' \
  ':4: [traffic.x] bytes: allowed: more than 0 for pattern ring_allreduce*'
refuse class_set "$SIM5$FLOW" '--set: [traffic.x] class = 2: allowed: 0..1 (switch classes)' \
  --set traffic.x.class=2
accept uniform_two "$SIM5"'[traffic.x]\npattern = uniform\nsrc = 0-3\n'

# --- explicit paths and class maps that contradict each other --------------------------------
RING='[topology]\nkind = ring\nswitches = 4\nhosts_per_switch = 1\n'
refuse paths_disagree "$SIM5$RING"'[routing]\npath = h0 sw0 sw1 sw2 h2\npath = h1 sw1 sw0 sw3 sw2 h2\n'"$FLOW" \
  ':9: [routing] path = h1 sw1 sw0 sw3 sw2 h2: sw1 sends h2 on to sw0, but the path on line 8 sends it to sw2; allowed: paths that agree on each switch*'
refuse path_loops "$SIM5$RING"'[routing]\npath = h3 sw3 sw0 sw3 sw2 h2\n'"$FLOW" \
  ':8: [routing] path = h3 sw3 sw0 sw3 sw2 h2: sw3 sends h2 on to sw2, but this path, earlier, sends it to sw0;*'
accept paths_agree "$SIM5$RING"'[routing]\npath = h0 sw0 sw1 sw2 h2\npath = h1 sw1 sw2 h2\n'"$FLOW"
IBRING="$SIM5$RING"'[switch]\nmode = ib\nclasses = 2\n'
refuse classmap_both_ways "$IBRING"'[classmap]\nsw3-sw0 = 1, 0\nsw0-sw3 = 0, 1\n' \
  ':12: [classmap] sw0-sw3: the cable of sw3-sw0 (line 11); allowed in ib mode: one map per cable, which applies both ways*'
accept classmap_one_way "$IBRING"'[classmap]\nsw3-sw0 = 1, 0\n'"$FLOW"

# --- the command line: every number through lfc_parse_int, one line per error ---------------
# cli NAME MESSAGE-GLOB ARG...: lfc-sim ARG... exits 2 with one line matching the glob.
cli() {
  n=$1 want=$2
  shift 2
  "$SIM" "$@" >"$OUT/$n.out" 2>"$OUT/$n.err"
  rc=$?
  msg=$(cat "$OUT/$n.err")
  lines=$(wc -l < "$OUT/$n.err")
  if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || [ -s "$OUT/$n.out" ]; then
    bad "$n: exit $rc, $lines lines: $(head -c 300 "$OUT/$n.err")"
    return
  fi
  pat=$(printf '%s' "$want" | sed 's/[][]/\\&/g')
  # shellcheck disable=SC2254
  case $msg in
    $pat) ok "$n: exit 2: $msg" ;;
    *) bad "$n: message: $msg; expected: $want" ;;
  esac
}
printf "$SIM5$FLOW" > "$OUT/cli.ini"
Z60=000000000000000000000000000000000000000000000000000000000000
cli seed_junk 'lfc-sim: --seed 12abc: not an integer; allowed: an integer 0..4294967295*' \
  "$OUT/cli.ini" --seed 12abc
cli seed_long_junk "lfc-sim: --seed ${Z60}...: not an integer; allowed: an integer 0..4294967295*" \
  "$OUT/cli.ini" --seed "${Z60}7abc"
cli seed_range 'lfc-sim: --seed 4294967296: out of range; allowed: an integer 0..4294967295*' \
  "$OUT/cli.ini" --seed 4294967296
cli seed_empty 'lfc-sim: --seed : not an integer*' "$OUT/cli.ini" --seed ''
cli threads_junk 'lfc-sim: --threads 2x: not an integer; allowed: an integer 1..64*' \
  "$OUT/cli.ini" --threads 2x
cli threads_missing 'lfc-sim: --threads: missing its value; allowed: --threads N' \
  "$OUT/cli.ini" --threads
cli unknown 'lfc-sim: --bogus: unknown option; allowed: --json FILE, *' "$OUT/cli.ini" --bogus
cli no_scenario 'lfc-sim: no scenario file; *' --no-progress
cli two_scenarios "lfc-sim: $OUT/cli.ini: a second scenario file*" "$OUT/cli.ini" "$OUT/cli.ini"
# The same number as the scenario keys read it: 0x2 threads and 0x10 as a seed run like 2, 16.
a=$("$SIM" "$OUT/cli.ini" --no-progress --digest --threads 0x2 --seed 0x10 2>&1 | grep '^digest')
b=$("$SIM" "$OUT/cli.ini" --no-progress --digest --set sim.threads=2 --set sim.seed=16 2>&1 |
    grep '^digest')
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "--threads 0x2 --seed 0x10 == --set sim.threads=2, sim.seed=16 ($a)"
else bad "--threads 0x2 --seed 0x10: '$a', --set: '$b'"; fi
# The calculators' whole numbers too (decimals keep their fixed-point reader).
a=$("$SIM" headroom --speed-gbps 100 --cable-m 1 --mtu 0x5dc 2>&1)
b=$("$SIM" headroom --speed-gbps 100 --cable-m 1 --mtu 1500 2>&1)
if [ "$a" = "$b" ]; then ok "headroom --mtu 0x5dc == --mtu 1500"
else bad "headroom --mtu 0x5dc: $(echo "$a" | head -1)"; fi
# Each message says what is wrong, then what is allowed.
cli calc_junk "lfc-sim headroom: --mtu '1500x' is not allowed: not a whole number; give a whole number of bytes, 64..16320" \
  headroom --speed-gbps 100 --cable-m 1 --mtu 1500x
cli calc_empty "lfc-sim credits: --mtu '' is not allowed: not a whole number; give *" \
  credits --speed-gbps 100 --cable-m 1 --mtu ''
cli calc_range "lfc-sim headroom: --mtu '63' is not allowed: out of range; give a whole number of bytes, 64..16320" \
  headroom --speed-gbps 100 --cable-m 1 --mtu 63
cli calc_nan "lfc-sim headroom: --speed-gbps 'nan' is not allowed: not a number; give a speed in Gb/s, 0.001..3200, up to 3 decimals" \
  headroom --speed-gbps nan --cable-m 1 --mtu 1500
cli calc_decimals "lfc-sim credits: --latency-ns '0.0001' is not allowed: too many decimals; give *" \
  credits --speed-gbps 100 --cable-m 1 --latency-ns 0.0001

[ $fail -eq 0 ] && echo "test-sim-load: all passed" || echo "test-sim-load: FAILED"
exit $fail
