#!/bin/bash
# tb/fuzz/selftest.sh - the fuzz targets must catch a broken RTL / model / parser
# (`make fuzz-selftest`).
#
# Each RTL mutant is one sed change to a copy of rtl/ in $TBFUZZ_BUILD/selftest/<name>/rtl; the
# IB fuzz target is built against it and run for at most SELFTEST_SECONDS; it must stop with a
# MISMATCH line. Each model mutant is one sed change to a copy of cmodel/src; the model-only
# target built from it must stop with an INVARIANT line. Each parser mutant is one sed change to
# a copy of one source file of a parser target (tb/fuzz/fuzz_<parser>.c); the target built with
# it, run as briefly as `make test` runs it (SELFTEST_PARSER_SECONDS, its seeds, dictionary and
# regression inputs), must stop with a finding. One line per mutant, then a count.
set -u
: "${TBFUZZ_BUILD:?}" "${MAKE:=make}" "${SELFTEST_SECONDS:=120}" "${TBFUZZ_CC:=clang-14}"
: "${TBFUZZ_SAN:?}" "${SELFTEST_PARSER_SECONDS:=3}"
# The flags of tb/fuzz/fuzz.mk's model build, with a fixed version string.
cflags=(-std=c11 -O1 -g -Icmodel/include -Itb/common -Itb/fuzz -DLFC_VERSION_STRING='"selftest"')
here=$(cd "$(dirname "$0")" && pwd)

# name | file | sed expression | what it breaks
MUTANTS=(
  "mtu_boundary|lfc_rx_framing.v|s/\\(nblk_i <= MTU\\)/(nblk_i < MTU)/|SPEC §7.2: a packet of exactly mtu_blocks is well formed"
  "send_rule_window|lfc_credit_tx.v|s/\\(diff <= 12'd2048\\)/(diff <= 12'd1024)/|SPEC §5.3: the 2048-block window of the send rule"
)

# SELFTEST_ONLY=rtl|model runs one half (the other counts as passed).
only=${SELFTEST_ONLY:-}
[ "$only" = model ] || [ "$only" = parser ] && MUTANTS=()
caught=0
for m in "${MUTANTS[@]}"; do
  IFS='|' read -r name file expr what <<<"$m"
  dir="$TBFUZZ_BUILD/selftest/$name"
  rm -rf "$dir/rtl" "$dir/crashes" "$dir/corpus"
  mkdir -p "$dir/crashes" "$dir/corpus"
  cp -r rtl "$dir/rtl"
  sed -i -E "$expr" "$dir/rtl/$file"
  if cmp -s "rtl/$file" "$dir/rtl/$file"; then
    echo "MUTANT $name: the sed changed nothing in rtl/$file (the RTL changed?)"
    continue
  fi
  if ! $MAKE --no-print-directory RTL_DIR="$dir/rtl" TBFUZZ_BUILD="$dir" \
      "$dir/cosim-ib/fuzz-cosim" > "$dir/build.log" 2>&1; then
    echo "MUTANT $name: build failed ($dir/build.log)"
    continue
  fi
  nice -n 10 "$dir/cosim-ib/fuzz-cosim" -max_len=4096 -max_total_time="$SELFTEST_SECONDS" \
    -artifact_prefix="$dir/crashes/" "$dir/corpus" "$here/corpus/ib" > "$dir/run.log" 2>&1
  line=$(grep -m1 '^MISMATCH' "$dir/run.log")
  if [ -n "$line" ]; then
    caught=$((caught + 1))
    echo "MUTANT $name ($what): caught: $line"
  else
    echo "MUTANT $name ($what): NOT caught in $SELFTEST_SECONDS s ($dir/run.log)"
  fi
done
# The model-only target: mutants of a copy of cmodel/src (a quoted #include finds the copy's
# private headers first), each must end in an INVARIANT line.
# name | file | sed expression | what it breaks
MODEL_MUTANTS=(
  "send_rule_lax|lfc_rules.h|s/<= LFC_CREDIT_WINDOW;/<= LFC_CREDIT_WINDOW + 512u;/|SPEC §5.3: the switch sends beyond the window"
  "shared_not_freed|buffer.c|s/^  sw->shared_used -= s;/  (void)s;/|SPEC §6.3: shared_used = sum of pg_shared"
)
[ "$only" = rtl ] || [ "$only" = parser ] && MODEL_MUTANTS=()
mcaught=0
for m in "${MODEL_MUTANTS[@]}"; do
  IFS='|' read -r name file expr what <<<"$m"
  dir="$TBFUZZ_BUILD/selftest/model-$name"
  rm -rf "$dir"
  mkdir -p "$dir/src" "$dir/obj" "$dir/crashes" "$dir/corpus"
  cp cmodel/src/*.c cmodel/src/*.h "$dir/src/"
  sed -i -E "$expr" "$dir/src/$file"
  if cmp -s "cmodel/src/$file" "$dir/src/$file"; then
    echo "MODEL MUTANT $name: the sed changed nothing in cmodel/src/$file (the model changed?)"
    continue
  fi
  ok=1
  for c in "$dir"/src/*.c tb/fuzz/fuzz_input.c tb/fuzz/fuzz_model.c; do
    o="$dir/obj/$(basename "$c" .c).o"
    $TBFUZZ_CC "${cflags[@]}" $TBFUZZ_SAN -c -o "$o" "$c" >> "$dir/build.log" 2>&1 || ok=0
  done
  [ $ok = 1 ] && $TBFUZZ_CC -fsanitize=fuzzer,address,undefined -o "$dir/fuzz-model" \
    "$dir"/obj/*.o -lm >> "$dir/build.log" 2>&1 || ok=0
  if [ $ok = 0 ]; then
    echo "MODEL MUTANT $name: build failed ($dir/build.log)"
    continue
  fi
  nice -n 10 "$dir/fuzz-model" -max_len=4096 -max_total_time="$SELFTEST_SECONDS" \
    -artifact_prefix="$dir/crashes/" "$dir/corpus" "$here/corpus/model" > "$dir/run.log" 2>&1
  line=$(grep -m1 '^INVARIANT' "$dir/run.log")
  if [ -n "$line" ]; then
    mcaught=$((mcaught + 1))
    echo "MODEL MUTANT $name ($what): caught: $line"
  else
    echo "MODEL MUTANT $name ($what): NOT caught in $SELFTEST_SECONDS s ($dir/run.log)"
  fi
done

# The parser targets: a mutant of one source file of the target; the other objects are those of
# the target's normal build (made first).
# name | target | file | sed expression (no '|' in it) | what it breaks
PARSER_MUTANTS=(
  "hex_upper_f|parse_int|cmodel/src/config_keys.c|s/(c >= 'A' \&\& c <= )'F'/\1'E'/|lfc_parse_int: the hex digit F (upper case) is not a digit"
  "vlarb_partial|cfg_set|cmodel/src/config_keys.c|s/tmp\[n\]\.vl = \(uint8_t\)vl;/tmp[n].vl = tab[n].vl = (uint8_t)vl;/|lfc_switch_cfg_set: a VL arbitration table half written when a later entry is bad"
  "continuation_realloc|tb_config|tb/common/tb_config.c|s/have \+ \(size_t\)comma \+ add \+ 1\)/have + (size_t)comma + add)/|tb_config: a continuation line joined one byte beyond its block"
  "line_numbers|tb_config|tb/common/tb_config.c|s/^  ps->line\+\+;/  (void)0;/|tb_config: errors name line 0"
  "drr_quantum_index|flat_cfg|cmodel/src/config_keys.c|s/ n = LFC_PFC_MAX_PRIOS;/ (void)0;/|flat (lfc_flat_param reads the key table): drr_quantum read beyond its 8 slots (the bug the target found)"
  "cycles_zero|trace_args|cmodel/tools/lfc_trace.c|s/v < 1u /v < 0u /|lfc-trace: CYCLES 0 accepted"
  "delay_bound|demo_args|cmodel/demo/lfc_demo.c|s/parse_num\(a, v, 1u, LFC_LINK_MAX_DELAY, &x\)/parse_num(a, v, 0u, LFC_LINK_MAX_DELAY, \&x)/|lfc-demo: --delay 0 accepted"
  "bad_arg_goes_on|tb_args|tb/common/tb_main.c|/DBG_MAX\);$/{n;s/return -1;/continue;/}|cosim: a bad plusarg reported, and the run goes on"
  "reader_not_sticky|check_pcap|cmodel/src/pcap_read.c|s/^  r->failed = true;/  (void)0;/|pcap reader: after a bad record it reads on"
  "frame_after_finish|check_pcap|cmodel/src/check.c|s/if \(c->finished\) return refuse\(c, \"a frame after lfc_check_finish\"\);/(void)0;/|lfc_check_frame: a frame after finish is taken"
  "comma_not_separator|check_text|cmodel/src/check.c|s/(SETTING_SEPARATORS \" .{4}),\"/\1\"/|lfc_check_create_text: settings separated by commas refused"
  "links_max|check_text|cmodel/src/check.c|s/cfg->links > LFC_CHECK_MAX_LINKS/cfg->links >= LFC_CHECK_MAX_LINKS/|lfc_check_create: links = 4096 refused"
  "usage_on_error|check_args|cmodel/tools/lfc_check.c|s/die\(\"unknown option/usage(stderr), die(\"unknown option/|lfc-check: the usage printed before the error of an unknown option"
  "leak_on_die|check_args|cmodel/tools/lfc_check.c|s/^  release\(\); \/\* after the message.*/  (void)0;/|lfc-check: exit on bad input leaves the checker and readers allocated"
)
[ "$only" = rtl ] || [ "$only" = model ] && PARSER_MUTANTS=()
pcaught=0
for m in "${PARSER_MUTANTS[@]}"; do
  IFS='|' read -r name target file expr what <<<"$m"
  dir="$TBFUZZ_BUILD/selftest/parser-$name"
  rm -rf "$dir"
  mkdir -p "$dir/crashes" "$dir/corpus"
  if ! $MAKE --no-print-directory "$TBFUZZ_BUILD/fuzz_$target" > "$dir/build.log" 2>&1; then
    echo "PARSER MUTANT $name: the target does not build ($dir/build.log)"
    continue
  fi
  base=$(basename "$file" .c)
  cp "$file" "$dir/$base.c"
  sed -i -E "$expr" "$dir/$base.c"
  if cmp -s "$file" "$dir/$base.c"; then
    echo "PARSER MUTANT $name: the sed changed nothing in $file (the source changed?)"
    continue
  fi
  # The objects of the target, the mutated file's replaced: a library or test bench file is an
  # object of its own; a program's source is compiled into the target's own object.
  objs=("$TBFUZZ_BUILD/san/model/"*.o)
  [ "$target" = tb_config ] && objs+=("$TBFUZZ_BUILD/san/tb/tb_config.o")
  [ "$target" = tb_args ] &&
    objs+=("$TBFUZZ_BUILD"/san/tb/{tb_config,tb_stim,tb_score,tb_cov,dut_pack,dut_expect,tb_pcap,tb_free}.o \
      "$TBFUZZ_BUILD"/san/tb/{tb_check,tb_fast}.o \
    "$TBFUZZ_BUILD/san/fuzz_dut_stub.o")
  src="$here/fuzz_$target.c"
  case $file in
    cmodel/src/*|tb/common/tb_config.c)
      objs=("${objs[@]/*\/$base.o/$dir/$base.o}")
      obj_src="$dir/$base.c" ;;
    *)
      # The target includes the program's source by its path: compile a copy of the target
      # that includes the mutated copy instead.
      sed -e "s|#include \"../../$file\"|#include \"$base.c\"|" \
        -e "s|#include \"../common/$base.c\"|#include \"$base.c\"|" \
        "$src" > "$dir/fuzz_$target.c"
      src="$dir/fuzz_$target.c"
      obj_src="" ;;
  esac
  ok=1
  if [ -n "$obj_src" ]; then
    $TBFUZZ_CC "${cflags[@]}" -Icmodel/src -Itb/common $TBFUZZ_SAN -c -o "$dir/$base.o" \
      "$obj_src" >> "$dir/build.log" 2>&1 || ok=0
  fi
  $TBFUZZ_CC "${cflags[@]}" -Icmodel/src -Itb/common $TBFUZZ_SAN -c -o "$dir/fuzz_$target.o" \
    "$src" >> "$dir/build.log" 2>&1 || ok=0
  [ $ok = 1 ] && $TBFUZZ_CC -fsanitize=fuzzer,address,undefined -o "$dir/fuzz_$target" \
    "$dir/fuzz_$target.o" "${objs[@]}" -linih -lm -lpthread >> "$dir/build.log" 2>&1 || ok=0
  if [ $ok = 0 ]; then
    echo "PARSER MUTANT $name: build failed ($dir/build.log)"
    continue
  fi
  # As tb/fuzz/run.sh runs the target (its seeds, dictionary, regression inputs).
  seeds=("$here/corpus/$target")
  [ "$target" = tb_config ] && seeds+=("$here/../configs")
  [ -d "$here/regress/$target" ] && seeds+=("$here/regress/$target")
  dict=()
  [ -f "$here/$target.dict" ] && dict=(-dict="$here/$target.dict")
  nice -n 10 "$dir/fuzz_$target" -max_len=4096 -timeout=10 \
    -max_total_time="$SELFTEST_PARSER_SECONDS" \
    "${dict[@]}" -artifact_prefix="$dir/crashes/" "$dir/corpus" "${seeds[@]}" > "$dir/run.log" 2>&1
  rc=$?
  found=$(find "$dir/crashes" -type f | head -1)
  if [ $rc -ne 0 ] && [ -n "$found" ]; then
    pcaught=$((pcaught + 1))
    line=$(grep -a -m1 -E '^PROPERTY|^SUMMARY' "$dir/run.log")
    echo "PARSER MUTANT $name ($what): caught: ${line:-exit $rc} (input $found)"
  else
    echo "PARSER MUTANT $name ($what): NOT caught in $SELFTEST_PARSER_SECONDS s ($dir/run.log)"
  fi
done
echo "fuzz-selftest: $caught of ${#MUTANTS[@]} RTL mutants, $mcaught of ${#MODEL_MUTANTS[@]}" \
  "model mutants, $pcaught of ${#PARSER_MUTANTS[@]} parser mutants caught"
[ "$caught" -eq "${#MUTANTS[@]}" ] && [ "$mcaught" -eq "${#MODEL_MUTANTS[@]}" ] &&
  [ "$pcaught" -eq "${#PARSER_MUTANTS[@]}" ]
