#!/usr/bin/env bash
# covers: docs/rtl.md "Running", "Trace extraction",
#   docs/timing.md "9. Worked example", docs/stream.md "Header"
# rtl.sh: tests of the TCPA RTL through its Verilator harness tcpa-rtl
# (docs/rtl.md). The RTL is lint-clean (verilator --lint-only -Wall with the
# one waiver file); streams assembled from regress/streams/*.tasm run to
# done with the traces derived by hand from docs/timing.md below: one PE
# computing with immediates and a multiplication of latency.mul = 2, the
# worked example of timing.md section 9 (the whole trace), a hop between two
# PEs into a FIFO, AG bank reads and writes (trace lines and the dumped
# bank). The loader rejects a stream with a corrupted payload (CRC, code 6)
# and one with another fingerprint (code 4) with exit status 2. Prints TAP.
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
tmp=$(mktemp -d); trap 'echo "1..$n"; rm -rf "$tmp"' EXIT  # the TAP plan, at the end
n=0

# Prints one TAP line: check NAME STATUS (0 passes).
check() {
  n=$((n + 1))
  if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}

# Assembles regress/streams/NAME.tasm into $tmp/NAME.bin; returns asm's status.
asm() { "$TCPA" asm "regress/streams/$1.tasm" -o "$tmp/$1.bin" >"$tmp/$1.asm.log" 2>&1; }

# Runs tcpa-rtl on $tmp/NAME.bin; trace in $tmp/NAME.trace; returns its status.
run() {
  local name=$1; shift
  "$RTL" "$tmp/$name.bin" --trace "$tmp/$name.trace" --max-cycles 200 "$@" \
    >"$tmp/$name.log" 2>&1
}

# Returns 0 when the event lines of trace $1 equal the text on stdin.
# (the datapath events; the state events of docs/trace.md are checked
# against the model's trace below)
same_events() { diff <(grep -v '^#' "$1" | grep -Ev "^[0-9]+ ($state_kinds) ") - >"$tmp/diff" 2>&1; }
state_kinds='step|gc|insn|rf|flag|fifo|bankwr|ag|mem'

# -- lint ---------------------------------------------------------------------
sv="rtl/tcpa_pkg.sv $(ls rtl/tcpa_*.sv | grep -v tcpa_pkg.sv)"
# the parameter package made here, so the test runs in a build directory
# where make has not written build/gen/tcpa_params_pkg.sv; the ISA and
# stream packages are `make gen`'s (every harness build makes them)
"$TCPA" arch configs/default.ini --sv -o "$tmp/tcpa_params_pkg.sv"
check "tcpa arch --sv writes the parameter package of default.ini" $?
for f in "$BUILD/gen/tcpa_isa_pkg.sv" "$BUILD/gen/tcpa_stream_pkg.sv"; do
  [ -f "$f" ] || echo "# missing $f (make gen)"
done
# shellcheck disable=SC2086
verilator --lint-only -Wall --top-module tcpa_top rtl/lint_waivers.vlt \
  "$tmp/tcpa_params_pkg.sv" "$BUILD/gen/tcpa_isa_pkg.sv" "$BUILD/gen/tcpa_stream_pkg.sv" $sv >"$tmp/lint" 2>&1
check "verilator --lint-only -Wall is clean" $?

# No signal history: the PEs evaluate the GC's terms at their own step
# (docs/timing.md section 2), so no RTL module reads gc.history (legacy,
# docs/arch.md) and nothing bounds the start delays but the counters.
! grep -q 'GC_HISTORY\|\bHIST\b' rtl/*.sv
check "no RTL module sizes anything from gc.history (GC_HISTORY, HIST)" $?

# the harness of the default configuration and the current sources
# (`tcpa harness`, built when missing), or $RTL when given
RTL=${RTL:-$("$TCPA" harness)}
check "the rtl harness of the default configuration builds" $?
[ -x "$RTL" ] || exit 1

# -- one PE: immediates, registers, mul of latency 2 ---------------------------
asm alu_single && run alu_single; check "alu_single runs to done (exit 0)" $?
same_events "$tmp/alu_single.trace" <<'EOF2'
0 start 0,0
0 issue 0,0 0 0
0 issue 0,0 2 0
0 wr 0,0 0 rd0 0x00000005
1 issue 0,0 0 1
1 issue 0,0 2 1
1 wr 0,0 0 rd1 0x0000000c
2 issue 0,0 0 2
2 issue 0,0 2 2
2 wr 0,0 0 rd2 0x00000007
3 issue 0,0 0 3
3 issue 0,0 2 3
3 wr 0,0 0 rd3 0x0000001c
4 issue 0,0 0 4
4 issue 0,0 2 4
4 halt 0,0 0
5 issue 0,0 2 5
5 halt 0,0 2
5 wr 0,0 2 fd0 0x00000054
5 done - 6
EOF2
check "alu_single trace: mul issued at 4 writes fd0 = 84 at the end of 5" $?
head -n 1 "$tmp/alu_single.trace" | grep -qx '# tcpa-trace 1 fp=0x4ae1ec2ede81d159'
check "trace header names format 1 and the fingerprint" $?

# -- timing.md section 9 --------------------------------------------------------
asm timing_example && run timing_example; check "timing_example runs to done" $?
same_events "$tmp/timing_example.trace" <<'EOF2'
0 start 0,0
0 sig 0,0 0x00000001
0 issue 0,0 1 0
0 bank 0,0 w 0 rd 0 0x00000006
1 issue 0,0 1 1
1 push 0,0 id0 0x00000006
2 sig 0,0 0x00000000
2 issue 0,0 1 2
2 pop 0,0 id0 0x00000006
2 wr 0,0 1 rd1 0x00000003
3 issue 0,0 1 3
3 wr 0,0 1 od0 0x00000001
4 issue 0,0 1 4
4 push 0,0 id2 0x00000001
5 issue 0,0 1 5
5 halt 0,0 1
5 pop 0,0 id2 0x00000001
5 wr 0,0 1 rd2 0x0000000b
5 wr 0,0 1 od1 0x0000000b
6 hop 0,0 n 0 0x0000000b
7 bank 0,0 n 0 wr 0 0x0000000b
7 done - 8
EOF2
check "timing_example: the worked example of timing.md section 9, line for line" $?

# -- two PEs: od0 -> e0 -> one hop -> w0 -> id0 ---------------------------------
asm hop_two_pe && run hop_two_pe; check "hop_two_pe runs to done" $?
same_events "$tmp/hop_two_pe.trace" <<'EOF2'
0 start 0,0
0 start 0,1
0 issue 0,0 0 0
0 issue 0,1 0 0
0 halt 0,0 0
0 wr 0,0 0 od0 0x0000002a
1 issue 0,1 0 1
1 hop 0,0 e 0 0x0000002a
2 issue 0,1 0 2
2 push 0,1 id0 0x0000002a
3 issue 0,1 0 3
3 halt 0,1 0
3 pop 0,1 id0 0x0000002a
3 wr 0,1 0 rd0 0x0000002a
3 done - 4
EOF2
check "hop_two_pe: readable in id0 of (0,1) at t + L + 1 + h = 3" $?

# -- AG bank read and write -----------------------------------------------------
asm ag_bank && run ag_bank --dump-banks "$tmp/banks"; check "ag_bank runs to done" $?
grep -E ' (bank|done|fault) ' "$tmp/ag_bank.trace" | diff - <(cat <<'EOF2'
0 bank 0,0 n 0 rd 0 0x00000003
1 bank 0,0 n 0 rd 1 0x00000004
2 bank 0,0 n 0 rd 2 0x00000005
3 bank 0,0 n 0 rd 3 0x00000006
4 bank 0,0 n 1 wr 10 0x00000067
5 bank 0,0 n 1 wr 11 0x00000068
6 bank 0,0 n 1 wr 12 0x00000069
7 bank 0,0 n 1 wr 13 0x0000006a
9 done - 10
EOF2
) >"$tmp/diff" 2>&1
check "ag_bank: reads at cycles 0..3, writes at phase 4, done after the last event" $?
[ "$(sed -n '11,14p' "$tmp/banks/n_0_0_1.txt" 2>/dev/null | tr '\n' ' ')" = \
  "0x00000067 0x00000068 0x00000069 0x0000006a " ]
check "ag_bank: dumped north bank 1 of (0,0) holds 103..106 at 10..13" $?
run ag_bank --dump-banks "$tmp/banks14" --dump-depth 14 &&
  [ "$(wc -l < "$tmp/banks14/n_0_0_1.txt")" -eq 14 ] &&
  head -n 14 "$tmp/banks/n_0_0_1.txt" | cmp -s - "$tmp/banks14/n_0_0_1.txt" &&
  head -n 14 "$tmp/banks/n_0_0_0.txt" | cmp -s - "$tmp/banks14/n_0_0_0.txt"
check "ag_bank: --dump-depth 14 dumps words 0..13 of each bank, as the full dump has them" $?
for d in 0 100000 12x; do
  run ag_bank --dump-banks "$tmp/banks-bad" --dump-depth "$d"
  rc=$?
  [ "$rc" -eq 3 ] && grep -q -- '--dump-depth: expected 1\.\.' "$tmp/ag_bank.log"
  check "ag_bank: --dump-depth $d is refused (exit 3, the range named; got $rc)" $?
done
grep -q '^0 sig 0,0 0x00000001$' "$tmp/ag_bank.trace" && grep -q '^5 sig 0,0 0x00000000$' "$tmp/ag_bank.trace"
check "ag_bank: c0 falls at cycle 5 (epilog steps)" $?

# -- faults and waveforms ---------------------------------------------------------
asm underflow_early && run underflow_early --fst "$tmp/uf.fst"
[ $? -eq 1 ] && grep -qx '1 fault 0,0 underflow id0' "$tmp/underflow_early.trace"
check "underflow_early: reading an empty FIFO is a traced fault (exit 1)" $?
[ -s "$tmp/uf.fst" ] && head -c 1 "$tmp/uf.fst" | od -An -tx1 | grep -q '00'
check "--fst writes an FST waveform" $?

# -- a stream port with bubbles -------------------------------------------------
# The loader takes a word only when cfg_valid_i is high: --cfg-gaps N holds
# valid low for N cycles after every word, with garbage on the data lines
# and cfg_last_i toggling. The parser once moved its term and constraint
# counters on such idle cycles. matmul on 2x2 (GC terms with constraints,
# AGs, wrappers) must run to the same trace with 0, 1 and 3 idle cycles.
"$TCPA" run regress/programs/matmul.pla --engine model --pes 2x2 --param N=2 --param M=3 \
  --param K=4 --seed 5 --out-dir "$tmp/mm" >"$tmp/mm.log" 2>&1
check "matmul N=2 M=3 K=4 on 2x2: compiled and instantiated" $?
"$RTL" "$tmp/mm/config.bin" --trace "$tmp/mm0.trace" >"$tmp/mm0.log" 2>&1
st=$?
[ $st -eq 0 ] && [ "$(grep -vc '^#' "$tmp/mm0.trace")" -gt 100 ]
check "matmul on 2x2: the stream fed a word per cycle runs to done (exit $st)" $?
for g in 1 3; do
  "$RTL" "$tmp/mm/config.bin" --cfg-gaps $g --trace "$tmp/mm$g.trace" >"$tmp/mm$g.log" 2>&1
  st=$?
  [ $st -eq 0 ] && diff <(grep -v '^#' "$tmp/mm0.trace") <(grep -v '^#' "$tmp/mm$g.trace") >/dev/null
  check "matmul on 2x2: with $g idle cycles after every stream word, the same trace (exit $st)" $?
done

# -- the state events (docs/trace.md "State events") ------------------------------
# The RTL's trace, every kind compared, equals the model's: the state
# behind the datapath events (the register as written, FIFO occupancy, the
# bank's write port, the step, GC and AG counters, the bank words at the
# end) agrees too; and the RTL traces each of them.
"$TCPA" cosim-check "$tmp/mm/model.trace" "$tmp/mm0.trace" >"$tmp/mm.cmp" 2>&1
check "matmul on 2x2: the RTL's trace, state events included, equals the model's" $?
for k in step gc insn rf flag fifo bankwr ag mem; do
  n=$(grep -c "^[0-9]* $k " "$tmp/mm0.trace")
  [ "$n" -gt 0 ]
  check "matmul on 2x2: the RTL traces $k events ($n)" $?
done
for name in alu_single timing_example hop_two_pe ag_bank underflow_early; do
  "$TCPA" sim "$tmp/$name.bin" --trace "$tmp/$name.model.trace" --max-cycles 200 >/dev/null 2>&1
  "$TCPA" cosim-check "$tmp/$name.model.trace" "$tmp/$name.trace" >"$tmp/$name.cmp" 2>&1
  check "$name.tasm: the RTL's trace, state events included, equals the model's" $?
done

"$RTL" "$tmp/mm/config.bin" --cfg-gaps x >/dev/null 2>&1
check "--cfg-gaps x: usage error, exit 3" $([ $? -eq 3 ]; echo $?)

# -- the loader rejects bad streams -----------------------------------------------
cp "$tmp/timing_example.bin" "$tmp/badcrc.bin"
printf '\x55' | dd of="$tmp/badcrc.bin" bs=1 seek=40 conv=notrunc status=none
"$RTL" "$tmp/badcrc.bin" --trace "$tmp/badcrc.trace" >"$tmp/badcrc.log" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'error 6 (payload CRC mismatch)' "$tmp/badcrc.log" && [ ! -e "$tmp/badcrc.trace" ]
check "a corrupted payload is rejected with the loader's CRC error (exit 2, no trace)" $?
cp "$tmp/timing_example.bin" "$tmp/badfp.bin"
printf '\x00\x00\x00\x00' | dd of="$tmp/badfp.bin" bs=1 seek=8 conv=notrunc status=none
"$RTL" "$tmp/badfp.bin" >"$tmp/badfp.log" 2>&1
rc=$?
[ $rc -eq 2 ] && grep -q 'error 4 (architecture fingerprint mismatch)' "$tmp/badfp.log"
check "a stream for another fingerprint is rejected (exit 2, error 4)" $?
head -c 20 "$tmp/timing_example.bin" > "$tmp/short.bin"
"$RTL" "$tmp/short.bin" >"$tmp/short.log" 2>&1
check "a stream shorter than its header is rejected (exit 2)" $([ $? -eq 2 ]; echo $?)
"$RTL" >/dev/null 2>&1
check "no stream argument: usage, exit 3" $([ $? -eq 3 ]; echo $?)
