#!/usr/bin/env bash
# netlist.sh - the switch of one configuration as a flat Yosys netlist, for the Icarus
# co-simulation of the netlist (`make cosim SIM=icarus-netlist`, tb/README.md "Simulators").
#
#   tb/scripts/netlist.sh tb/configs/NAME.ini OUTDIR
#
# Yosys elaborates $TB_RTL_DIR/*.v (default rtl/) as lfc_switch with the configuration's
# parameters (tb-params), flattens it, optimises it at the word level and writes OUTDIR/
# netlist.v: a module lfc_switch with the same ports and no parameters (they are constants in
# it now), its processes and port drivers rewritten by tb/scripts/netlist_vvp.py, which
# tb/vpi/tb_top.v instantiates when compiled with -DTB_NETLIST (and iverilog -S, tb/tb.mk; the
# compiled file is then thinned by tb/scripts/vvp_strip.py). The logs are
# OUTDIR/yosys.log and OUTDIR/netlist_vvp.log; OUTDIR/netlist.yosys.v is Yosys's own output.
# The netlist is replaced only when its text changed, so make rebuilds what depends on it only
# then.
#
# Why: vvp evaluates the RTL's always blocks as interpreted threads, each loop, each
# re-triggering of a combinational block run in full; the flat netlist is continuous
# assignments that vvp evaluates only when an operand changed, and registers. On pfc_basic
# that is about a tenth of the instructions per simulated cycle (docs/perf-log.md). The
# netlist is also a check of its own: the design as Yosys synthesises it, against the same model.
#
# Environment: BUILD (build), TB_RTL_DIR (rtl), YOSYS (yosys).
# Exit status 0; 1 if Yosys or the rewriting failed (the end of Yosys's log, or the rewriting's
# message, is printed); 2 for bad arguments.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 tb/configs/NAME.ini OUTDIR" >&2; exit 2; }
ini="$1" out="$2"
: "${BUILD:=build}" "${TB_RTL_DIR:=rtl}" "${YOSYS:=yosys}"
here="$(dirname "$0")"
source "$here/yosys_chparam.sh"
command -v "$YOSYS" >/dev/null ||
  { echo "netlist: no $YOSYS (Debian package yosys; make deps)" >&2; exit 1; }

params="$("$BUILD/tb/tb-params" verilator "$ini")" || exit 2
mkdir -p "$out"
# prep: elaborate, processes to cells, no technology mapping. flatten: one module, so that
# constants and dead logic cross the old module boundaries. opt -full: fold constants (the
# parameters), merge equal cells, simplify muxes; -nodffe -nosdff keep plain flip-flops
# (their enables and synchronous resets stay muxes in front of them). wreduce: cut words to the
# bits that matter (the 32-bit loop integers of the RTL become a few bits). pmuxtree: a
# parallel multiplexer as a tree of 2-way ones (write_verilog writes a $pmux as a Verilog
# function, which vvp runs as a thread at each change). Each of these is worth it, measured in
# vvp's instructions per simulated cycle on pfc_basic: without -nodffe -nosdff 20 % more,
# without pmuxtree 14 % more. splitnets -driver: a wire driven in parts by several cells (the
# RTL's per-port slices of one port vector, `assign v[p*W +: W]`) becomes one wire per driver,
# so that vvp does not rebuild it with a strength-aware concatenation, bit by bit, whenever one
# part changes (on pfc_basic 26 % fewer instructions per cycle; the module's ports stay
# whole). -noattr: no (* src *) attributes.
cat >"$out/netlist.ys" <<YS
read_verilog -I$TB_RTL_DIR $(ls "$TB_RTL_DIR"/*.v | tr '\n' ' ')
hierarchy -check -top lfc_switch$(yosys_chparam "$params")
prep -top lfc_switch
flatten
opt -full -nodffe -nosdff
wreduce
pmuxtree
opt -nodffe -nosdff
opt_clean -purge
splitnets -driver
write_verilog -noattr $out/netlist.yosys.v
YS
if ! "$YOSYS" -q -l "$out/yosys.log" "$out/netlist.ys" >/dev/null 2>&1; then
  echo "netlist: yosys failed on $ini; the end of $out/yosys.log:" >&2
  tail -n 15 "$out/yosys.log" >&2
  exit 1
fi
# The processes in the form vvp runs fastest (tb/scripts/netlist_vvp.py): the flip-flops of
# each RTL instance as one register, which `iverilog -S` (tb/tb.mk) makes one flip-flop functor,
# the memories' writes as one process behind one test, and each output port driven in parts
# with one driver; the logic is untouched.
if ! python3 "$here/netlist_vvp.py" "$out/netlist.yosys.v" "$out/netlist.new.v" \
    >"$out/netlist_vvp.log"; then
  rm -f "$out/netlist.new.v"
  exit 1
fi
if cmp -s "$out/netlist.new.v" "$out/netlist.v"; then rm -f "$out/netlist.new.v"
else mv "$out/netlist.new.v" "$out/netlist.v"; fi
