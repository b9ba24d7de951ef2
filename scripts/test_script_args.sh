#!/usr/bin/env bash
# test_script_args.sh - bad arguments to each script under scripts/ are refused at once with one
# line on stderr naming the argument (or variable) and exit 2, before anything is built or run.
# A stand-in `make` and `valgrind` (first on PATH, failing with exit 1) make sure of the latter:
# a script that got past its checks would reach them and exit 1. About 2 s.
#
#   scripts/test_script_args.sh WORKDIR
#
# With DEMO and BENCH set (paths of the built lfc-demo and bench_model), their bad options are
# checked the same way: one line, exit 2.
#
# Exit status: 0 every check held, 1 one failed, 2 bad arguments.
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 WORKDIR" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$1"
rm -rf "$work" && mkdir -p "$work/bin" && work="$(cd "$work" && pwd)"
for tool in make valgrind; do
  printf '#!/bin/sh\necho "stand-in %s: the script did not refuse its arguments" >&2\nexit 1\n' \
    "$tool" >"$work/bin/$tool"
  chmod +x "$work/bin/$tool"
done
fails=0 checks=0
fail() { echo "  FAIL: $*"; fails=$((fails + 1)); }

# bad WANT CMD...: CMD (run from the top of the tree) exits 2 with one stderr line holding WANT.
bad() {
  local want="$1" rc; shift
  checks=$((checks + 1))
  (cd "$root" && PATH="$work/bin:$PATH" timeout 60 "$@") >/dev/null 2>"$work/err"
  rc=$?
  if [ "$rc" -ne 2 ] || [ "$(wc -l <"$work/err")" -ne 1 ] || ! grep -Fq -- "$want" "$work/err"; then
    fail "$*: exit $rc, stderr: $(head -c 300 "$work/err"); want exit 2 and one line with: $want"
  fi
}

bad "unknown option '--bogus'" scripts/sweep --bogus
bad "sweep-run: usage" scripts/sweep-run
bad "usage: " scripts/golden.sh
bad "usage: " scripts/golden.sh recrod
if [ -n "${DEMO:-}" ]; then
  bad "lfc-demo: unknown option '--bogus' (allowed: --ports" "$DEMO" --bogus
  bad "lfc-demo: --ports needs a value" "$DEMO" --ports
fi
if [ -n "${BENCH:-}" ]; then
  bad "bench_model: bad option '--bogus ' (allowed: --ports 2..64" "$BENCH" --bogus
fi
bad "bench: usage" scripts/bench.sh --quick
bad "BENCH_QUICK='2': 0 or 1" env BENCH_QUICK=2 scripts/bench.sh
bad "BENCH_PORT_CYCLES='4e6'" env BENCH_PORT_CYCLES=4e6 scripts/bench.sh
bad "BENCH_CG_PORT_CYCLES='0'" env BENCH_CG_PORT_CYCLES=0 scripts/bench.sh
bad "bench-cosim: usage" scripts/bench-cosim.sh pfc_basic
bad "BENCH_COSIM_REPEAT='0'" env BENCH_COSIM_REPEAT=0 scripts/bench-cosim.sh
bad "BENCH_COSIM_CONFIGS='nosuch'" env BENCH_COSIM_CONFIGS=nosuch scripts/bench-cosim.sh
bad "usage: " scripts/install_check.sh
bad "DIR '$work/none' is not a directory" scripts/install_check.sh "$work/none" 0.2.0 lfc-demo
bad "VERSION '0.2' is not allowed" scripts/install_check.sh "$work" 0.2 lfc-demo
bad "PROGRAMS: '../lfc-demo' is not allowed" scripts/install_check.sh "$work" 0.2.0 ../lfc-demo
bad "unknown option '--draw'" scripts/doc-figures.sh --draw build
bad "no BUILD directory given" scripts/doc-figures.sh --check
bad "one BUILD directory only" scripts/doc-figures.sh build other
bad "usage: " scripts/test_abi.sh build/liblfc.so
bad "$work/none.so: no such file" scripts/test_abi.sh "$work/none.so" "$work/abi"
bad "usage: " scripts/test_abi_selftest.sh build/obj/src
bad "$work/none: not the library's objects" scripts/test_abi_selftest.sh "$work/none" x "$work/s"
bad "usage: " scripts/test_abi_users.sh build/liblfc.so build/liblfc.a
bad "$work/none.so: no such file" scripts/test_abi_users.sh "$work/none.so" "$work/none.a" .
bad "usage: test_layers.py OBJDIR" python3 scripts/test_layers.py
bad "bad argument '--bogus'" python3 scripts/test_layers.py --bogus
bad "$work/none/alloc.o: no such object" python3 scripts/test_layers.py "$work/none"
bad "usage: test_wire_tshark.sh" scripts/test_wire_tshark.sh build/tools/lfc_wire_gen
bad "usage: test_lfc_check.sh" scripts/test_lfc_check.sh build/tools/lfc_check
bad "'$work/none' is not an executable" scripts/test_lfc_check.sh "$work/none" /bin/true /bin/true \
  "$work/c"
bad "WIRE_COUNT='many'" env WIRE_COUNT=many scripts/test_wire_tshark.sh /bin/true "$work/w"
bad "WIRE_SEED='-1'" env WIRE_SEED=-1 scripts/test_wire_tshark.sh /bin/true "$work/w"
bad "GEN '$work/none' is not an executable" scripts/test_wire_tshark.sh "$work/none" "$work/w"
bad "usage: pcap_out_check.py sim|cosim" python3 scripts/pcap_out_check.py sim
bad "argument source: invalid choice: 'both'" python3 scripts/pcap_out_check.py both a b
bad "$work/none.json: [Errno 2]" python3 scripts/pcap_out_check.py sim "$work/none.json" "$work"
bad "no 'pcap file=' lines" python3 scripts/pcap_out_check.py cosim /dev/null "$work" --mode pfc
# make test-vip-variants' scripts (tb/scripts/vip_variants.sh, pcap_mac_fault.py)
bad "NAME 'nosuch': one of: latency_ib" env LFC_CHECK=/bin/true tb/scripts/vip_variants.sh nosuch
bad "'$work/none' is not an executable" env LFC_CHECK="$work/none" tb/scripts/vip_variants.sh
bad "usage: pcap_mac_fault.py opcode|fcs" python3 tb/scripts/pcap_mac_fault.py bits a b
bad "$work/none.pcap: No such file" python3 tb/scripts/pcap_mac_fault.py fcs "$work/none.pcap" b
head -c 24 /dev/zero >"$work/zero.pcap"
bad "not a classic pcap file" python3 tb/scripts/pcap_mac_fault.py fcs "$work/zero.pcap" "$work/o"

echo "test_script_args: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
