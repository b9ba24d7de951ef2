# yosys_chparam.sh - sourced by tb/scripts/netlist.sh and tb/mutants/mutants.sh.
# shellcheck shell=bash
#
# yosys_chparam "-GName=value ...": prints " -chparam Name value ..." for Yosys's
# `hierarchy` command, from the Verilator flags of `tb-params verilator <config>`. Yosys reads
# the Verilog constants tb-params writes, but not a negative decimal (AlphaLog2 = -1): that one
# is written as its 32-bit two's complement (the parameter is declared integer, so it stays
# signed; the co-simulation of the netlist against the model checks the result anyway).
yosys_chparam() {
  local out="" g name value
  for g in $1; do
    name="${g%%=*}"; name="${name#-G}"; value="${g#*=}"
    if [[ "$value" =~ ^-[0-9]+$ ]]; then
      value="32'h$(printf '%08x' $(( (value + (1 << 32)) & 0xffffffff )))"
    fi
    out+=" -chparam $name $value"
  done
  printf '%s' "$out"
}
