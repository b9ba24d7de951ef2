#!/usr/bin/env bash
# test_tables.sh - make test-tables: the copies of tables/ agree with it, and the check can fail.
#
#   scripts/test_tables.sh OUTDIR
#
# 1. scripts/check_tables.py passes on the tree: the generated files are what
#    scripts/gen_tables.py writes from tables/, the hand-written copies agree (docs/tables.md).
# 2. On a copy of the files it reads, in OUTDIR, each of a list of one-line breakages of one copy
#    (a generated file edited by hand, a table changed without regenerating, an adapter's width,
#    parameter or connection, the SPEC's register table) must make it exit 1 with a line naming
#    that file; the untouched copy must pass first, so that the failures are the breakages'.
# 3. gen_tables.py --check is quiet and 0 on the tree, 1 on a stale copy.
# Under two seconds. Exit 0 when all hold, 1 when one does not, 2 for bad arguments.
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
cd "$(dirname "$0")/.." || exit 2
OUT=$1
PY=${PYTHON3:-python3}
fails=0
fail() { echo "test-tables: FAIL $*"; fails=$((fails + 1)); }

# ---- 1. the tree ----
if ! "$PY" scripts/check_tables.py; then
  fail "check_tables.py finds copies that disagree with tables/ (above)"
fi
"$PY" scripts/gen_tables.py --check || fail "gen_tables.py --check: a generated file is stale"

# ---- 2. broken copies ----
files="tables scripts/gen_tables.py scripts/check_tables.py rtl/lfc_switch.v rtl/lfc_tables.vh
       rtl/lfc_switch_checks.vh cmodel/src/params_table.h cmodel/src/regs_table.h
       tb/common/tb_rtl_params.h tb/vpi/tb_top.v tb/vpi/cosim_vpi.c tb/verilator/cosim_top.sh
       tb/dpi/lfc_dpi_checker.sv tb/dpi/lfc_dpi_bind.sv tb/formal/switch_props.v
       cmodel/src/flat.c lfc.core docs/SPEC.md"
tree=$OUT/tree
rm -rf "$tree"
mkdir -p "$tree"
for f in $files; do
  mkdir -p "$tree/$(dirname "$f")"
  cp -r "$f" "$tree/$f"
done
"$PY" "$tree/scripts/check_tables.py" --root "$tree" > "$OUT/clean.log" 2>&1 ||
  { cat "$OUT/clean.log"; fail "the unbroken copy in $tree does not pass"; }

# break NAME FILE SED: FILE's copy changed by SED (it must change) must fail the check with a
# line naming the file that disagrees (the copy, or for a table the file generated from it).
n=0
break_one() {
  local name=$1 file=$2 expr=$3 named=${4:-$2}
  local copy="$tree/$file" log="$OUT/$name.log"
  cp "$copy" "$copy.orig"
  sed -i -E "$expr" "$copy"
  if cmp -s "$copy" "$copy.orig"; then
    fail "$name: the sed '$expr' changed nothing in $file (the file changed?)"
  else
    "$PY" "$tree/scripts/check_tables.py" --root "$tree" > "$log" 2>&1
    rc=$?
    if [ $rc -ne 1 ]; then
      fail "$name: check_tables.py exit $rc on a broken $file, want 1 ($log)"
    elif ! grep -q "^$named:[0-9]*: " "$log"; then
      fail "$name: check_tables.py failed, but named no line of $named ($log)"
    else
      printf '  caught %-24s %s\n' "$name" "$(grep -m 1 "^$named:" "$log" | cut -c 1-110)"
    fi
  fi
  mv "$copy.orig" "$copy"
  n=$((n + 1))
}

break_one generated_by_hand rtl/lfc_switch_checks.vh 's/Latency > 4095/Latency > 4096/'
break_one c_table_by_hand cmodel/src/params_table.h \
  's/LFC_P_KMAX_MAX 1048575u/LFC_P_KMAX_MAX 1048576u/'
break_one table_not_regenerated tables/params.toml '0,/^max = 4095$/s//max = 4000/' \
  rtl/lfc_switch_checks.vh
break_one switch_param_default rtl/lfc_switch.v \
  's/(parameter integer +XonOffset += )8/\19/'
break_one switch_port_width rtl/lfc_switch.v \
  's/\[Ports\*12-1:0\]  rx_fc_fccl_i/[Ports*11-1:0]  rx_fc_fccl_i/'
break_one tb_top_width tb/vpi/tb_top.v \
  's/reg \[Ports\*4-1:0\] rx_cls_i;/reg [Ports*3-1:0] rx_cls_i;/'
break_one tb_top_param tb/vpi/tb_top.v 's/\.Kmax\(Kmax\), //'
break_one dpi_bind_param tb/dpi/lfc_dpi_bind.sv 's/\.Pmax\(Pmax\), //'
break_one dpi_checker_port tb/dpi/lfc_dpi_checker.sv \
  's/input wire \[Ports\*16-1:0\]  stat_xon_o/input wire [Ports*8-1:0]   stat_xon_o/'
break_one dpi_checker_key tb/dpi/lfc_dpi_checker.sv 's/; pfc.pmax=/; pfc.pmx=/'
break_one formal_port tb/formal/switch_props.v '/\.stat_wd_trip_o/d'
break_one vpi_width tb/vpi/cosim_vpi.c 's/\{"tx_fc_vl_o", 4\}/{"tx_fc_vl_o", 5}/'
break_one cosim_top_stats tb/verilator/cosim_top.sh \
  's/wd_trip:16 wd_restore:16/wd_trip:16 wd_restore:8/'
break_one flat_stat_width cmodel/src/flat.c \
  's/\{1, 3, 16, 1, 16, 16, 16, 16, 1\}/{1, 3, 16, 1, 16, 16, 16, 16, 2}/'
break_one core_param lfc.core 's/Kmin, Kmax, Pmax,/Kmin, Pmax,/'
break_one spec_register docs/SPEC.md \
  's/^\| 24 \| `pause_timer` \| 21 /| 24 | `pause_timer` | 20 /'

# ---- 3. gen_tables.py --check on a stale copy ----
sed -i 's/Latency > 4095/Latency > 4096/' "$tree/rtl/lfc_switch_checks.vh"
if "$PY" "$tree/scripts/gen_tables.py" --root "$tree" --check > "$OUT/gen-check.log" 2>&1; then
  fail "gen_tables.py --check exit 0 on a stale rtl/lfc_switch_checks.vh"
else
  grep -q "rtl/lfc_switch_checks.vh" "$OUT/gen-check.log" ||
    fail "gen_tables.py --check did not name the stale file ($OUT/gen-check.log)"
fi

if [ "$fails" -ne 0 ]; then
  echo "test-tables: $fails failure(s)"
  exit 1
fi
echo "test-tables: PASS: the tree agrees with tables/; $n broken copies caught, each by its file"
