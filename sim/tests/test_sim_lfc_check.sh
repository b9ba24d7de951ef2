#!/bin/bash
# sim/tests/test_sim_lfc_check.sh - lfc-check judges lfc-sim's own captures (docs/sim.md
# "Captures", docs/verify-your-rtl.md):
#   - every scenario of sim/scenarios run with --pcap: every file, checked with the options
#     lfc-sim wrote for it in DIR/lfc-check.args, has no violation (exit 0);
#   - those options carry what a clean verdict needs: without its skew, pfc_headroom's 100 m
#     cables show a pause honoured late (pfc-reaction), since at side A the host's data shows
#     the switch's pause a round trip late;
#   - a scenario that misbehaves on purpose is named: pfc_headroom, whose headroom is short,
#     flags pfc-headroom on the hosts' cables given the switch's headroom in bytes;
#   - a class map on a cable (ring_classes_ib's sw3-sw0) numbers both directions of its file
#     alike, side A's classes, so the credits of each VL add up (in the first part).
#
#   test_sim_lfc_check.sh LFC_SIM LFC_CHECK WORKDIR
set -u
sim=$1
check=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
fails=0
checks=0
ok() { checks=$((checks + 1)); echo "  ok   $1"; }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "  FAIL $1"; }

# Every scenario, every file, with its options.
for ini in sim/scenarios/*.ini; do
  name=$(basename "$ini" .ini)
  dir=$work/$name
  # the bound is every slot used both ways; the files of these runs are far smaller
  if ! "$sim" "$ini" --pcap "$dir" --pcap-max-mb 8192 >"$work/$name.out" 2>&1; then
    bad "$name: lfc-sim failed: $(tail -1 "$work/$name.out")"
    continue
  fi
  args=$dir/lfc-check.args
  nfiles=$(find "$dir" -name '*.pcap' | wc -l)
  if [ ! -s "$args" ] || [ "$(wc -l <"$args")" -ne "$nfiles" ]; then
    bad "$name: $args does not list the $nfiles capture files"
    continue
  fi
  viol=0
  while read -r file opts; do
    # shellcheck disable=SC2086 # the options are words
    if ! out=$("$check" --quiet $opts "$dir/$file" 2>&1); then
      viol=$((viol + 1))
      echo "    $file ($opts): $(echo "$out" | head -1)"
      "$check" --max-lines 3 $opts "$dir/$file" 2>&1 | head -3 | sed 's/^/      /'
    fi
  done <"$args"
  if [ "$viol" -eq 0 ]; then ok "$name: $nfiles files, no violation"; else
    bad "$name: $viol of $nfiles files with violations"; fi
  # the files of a clean scenario are not needed again (pfc_headroom's are, below)
  [ "$viol" -ne 0 ] || [ "$name" = pfc_headroom ] || rm -rf "$dir"
done

# The skew is needed: the same file without it.
hr=$work/pfc_headroom
file=sw0.6-h6.0.pcap
opts=$(awk -v f="$file" '$1 == f { $1 = ""; print }' "$hr/lfc-check.args")
case "$opts" in
  *"--skew-ns 0,1003"*) ok "pfc_headroom: $file has the round trip of 100 m as skew ($opts)" ;;
  *) bad "pfc_headroom: $file: options '$opts' lack --skew-ns 0,1003 (2 x 98 cycles)" ;;
esac
noskew=${opts/--skew-ns 0,1003/}
# shellcheck disable=SC2086
out=$("$check" --quiet $noskew "$hr/$file" 2>&1)
rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q 'pfc-reaction'; then
  ok "pfc_headroom: without the skew, a pause looks honoured late (exit 1, pfc-reaction)"
else
  bad "pfc_headroom: without the skew: exit $rc, '$out'"
fi

# The purposeful misbehaviour is named: 32 blocks of headroom (pfc_headroom.ini) = 2048 bytes.
# shellcheck disable=SC2086
out=$("$check" --quiet $opts --headroom-bytes 2048 "$hr/$file" 2>&1)
rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q 'pfc-headroom'; then
  ok "pfc_headroom: short headroom named (exit 1, $(echo "$out" | grep -o '(pfc-headroom [0-9]*)'))"
else
  bad "pfc_headroom: --headroom-bytes 2048: exit $rc, '$out'"
fi

echo "test_sim_lfc_check: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
