#!/usr/bin/env bash
# covers: docs/model.md "Running it", docs/trace.md "File",
#   "The model's FST", docs/asm.md "Lines"
# model_cli.sh: tests of `tcpa sim` (the C model, docs/model.md) from the
# outside. Streams are written here as .tasm text (docs/asm.md) and
# assembled with `tcpa asm`: a bank-to-bank run (cycles, trace file with
# the fingerprint header, --dump-banks contents, --stats), an endless loop
# (--max-cycles: exit 1 and a timeout fault), a FIFO underflow (exit 1),
# a corrupted stream and a stream for another architecture (exit 2, the
# message names the file), bad options (exit 2); the model's own FST
# (tcpa run --engine model, tcpa sim --fst): readable, its values those of
# the trace, its names the RTL's. Prints TAP lines.
set -u
. tests/tap.sh

# North bank 0 holds 3 4 5 6; the read AG (phase 0, ii 1, S = 4 steps)
# reads word j0 at cycle j0, pushed into id0 at the end of j0 + 1. c0 (a term
# without constraints) is 1 in steps 0..3 and 0 from step 4 = S: the branch
# at pc 2 loops at cycles 2 and 3 and falls through at 4, so the adds run at
# 2, 3, 4 (pc 2) and 5 (pc 3), each popping one word; halt at 6. od0 drives
# n1: a result of cycle t reaches north bank 1 at t + 2 = j0 + 4, where the
# write AG (phase 4, base 10) stores it at 10 + j0. The last write event is
# 3 + 4 = 7: done in cycle 7, 8 cycles.
cat > "$tmp/banks.tasm" <<'EOF'
iodata side n bank 0 pe 0,0
    data 3 4 5 6
gc 0 pe 0,0
    ii 1
    bounds 4
    term c0
ag side n bank 0 pe 0,0
    mode read
    stride 1
ag side n bank 1 pe 0,0
    mode write
    phase 4
    base 10 0 0
    stride 1
wrapper pe 0,0
    id0 = n0
    n1 = od0
program fu alu0 pe 0,0
    nop
    nop
loop:
    add od0, id0, #100 ; br c0 ? loop : last
last:
    add od0, id0, #100
    nop ; halt
start gc 0 pe 0,0
EOF

cat > "$tmp/loop.tasm" <<'EOF'
gc 0 pe 0,0
    ii 1
    bounds 1
program fu alu0 pe 0,0
    nop ; goto L0
start gc 0 pe 0,0
EOF

cat > "$tmp/under.tasm" <<'EOF'
gc 0 pe 0,0
    ii 1
    bounds 1
program fu alu0 pe 0,0
    mov rd0, id1 ; halt
start gc 0 pe 0,0
EOF

for s in banks loop under; do
  "$TCPA" asm "$tmp/$s.tasm" -o "$tmp/$s.bin" 2>"$tmp/$s.err"
  check "asm $s.tasm" $?
done

out=$("$TCPA" sim "$tmp/banks.bin" --trace "$tmp/banks.trace" --dump-banks "$tmp/dump"); rc=$?
[ $rc -eq 0 ] && [ "$out" = "$tmp/banks.bin: done in 8 cycles" ]
check "sim banks: exit 0, done in 8 cycles ($out)" $?
fp=$("$TCPA" arch configs/default.ini --fingerprint)
[ "$(head -n 1 "$tmp/banks.trace")" = "# tcpa-trace 1 fp=$fp" ]
check "sim banks: trace header carries the fingerprint" $?
[ "$(tail -n 1 "$tmp/banks.trace")" = "7 done - 8" ]
check "sim banks: trace ends with '7 done - 8'" $?
grep -qx '4 bank 0,0 n 1 wr 10 0x00000067' "$tmp/banks.trace" &&
  grep -qx '7 bank 0,0 n 1 wr 13 0x0000006a' "$tmp/banks.trace"
check "sim banks: first write at 4, last at 7" $?
printf '10 0x00000067\n11 0x00000068\n12 0x00000069\n13 0x0000006a\n' |
  cmp -s - "$tmp/dump/bank_0_0_n_1.txt"
check "sim banks: --dump-banks north bank 1 holds 103..106 at 10..13" $?
printf '0 0x00000003\n1 0x00000004\n2 0x00000005\n3 0x00000006\n' |
  cmp -s - "$tmp/dump/bank_0_0_n_0.txt"
check "sim banks: --dump-banks north bank 0 keeps its input" $?
[ "$(ls "$tmp/dump" | wc -l)" -eq 2 ] && ! ls -a "$tmp" | grep -q '\.tmp'
check "sim banks: only nonzero banks dumped, no temporary files left" $?

"$TCPA" sim "$tmp/banks.bin" --trace - 2>/dev/null | head -n 1 | grep -q '^# tcpa-trace 1 '
check "sim --trace - writes the trace to stdout" $?

# --stats: the run's cycles (8), the started region's PEs (1: pe 0,0)
# and a rate consistent with them (PE-cycles/s * seconds = cycles * PEs,
# up to the rounding of the seconds to 6 decimals).
out=$("$TCPA" sim "$tmp/banks.bin" --stats); rc=$?
echo "$out" | awk -v rc=$rc '/^stats:/ { n++; ok = $3 == 8 && $5 == 1 && $7 > 0 &&
  ($9 * $7 - 8) ^ 2 <= ($9 * 0.5e-6 + 0.01) ^ 2 } END { exit !(rc == 0 && n == 1 && ok) }'
check "sim --stats: cycles 8, pes 1, PE-cycles/s = cycles * PEs / step seconds ($out)" $?

out=$("$TCPA" sim "$tmp/loop.bin" --max-cycles 50 --trace "$tmp/loop.trace"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'not done within 50 cycles' &&
  [ "$(tail -n 1 "$tmp/loop.trace")" = "49 fault - timeout 50" ]
check "sim endless loop: exit 1, timeout fault in cycle 49" $?

out=$("$TCPA" sim "$tmp/under.bin"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'faults: 1 (underflow 1)'
check "sim underflow: exit 1 and the fault counted ($out)" $?

cp "$tmp/banks.bin" "$tmp/bad.bin"
printf '\xff' | dd of="$tmp/bad.bin" bs=1 seek=20 conv=notrunc 2>/dev/null
err=$("$TCPA" sim "$tmp/bad.bin" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "bad.bin" && echo "$err" | grep -q "CRC"
check "sim corrupted CRC: exit 2, message names the file and the CRC ($err)" $?

err=$("$TCPA" sim "$tmp/banks.bin" --arch configs/wide.ini 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "fingerprint"
check "sim for another architecture: exit 2, fingerprint named" $?

"$TCPA" sim "$tmp/nonexistent.bin" 2>/dev/null; [ $? -eq 2 ]
check "sim of a missing file: exit 2" $?
"$TCPA" sim "$tmp/banks.bin" --max-cycles x 2>/dev/null; [ $? -eq 2 ]
check "sim --max-cycles x: exit 2" $?
"$TCPA" sim "$tmp/banks.bin" --frobnicate 2>/dev/null; [ $? -eq 2 ]
check "sim unknown option: exit 2" $?
"$TCPA" sim --help | grep -q '^usage: tcpa sim'
check "sim --help" $?

# -- the model's own FST (docs/trace.md "The model's FST") -------------------
# tcpa run --engine model --out-dir writes DIR/model.fst; fst2vcd reads it;
# every rd write and every issue of the trace is in it at its time
# (u_regfile.rd_q[K] at 2t+1, dbg_issue_o and dbg_pc_o at 2t:
# tests/fst_events.awk);
# its signal names and widths are the RTL's (the harness's FST of the same
# stream; docs/rtl.md "Signal names"); tcpa sim
# --fst writes the same; --fst to an unwritable place: exit 2.
if ! command -v fst2vcd >/dev/null; then
  n=$((n + 1)); echo "ok $n - # SKIP fst2vcd missing (gtkwave package): no model FST tests"
else
  "$TCPA" run regress/programs/bitextract.pla --param N=8 --pes 1x2 --engine model --out-dir "$tmp/mf" >/dev/null 2>&1 &&
    [ -s "$tmp/mf/model.fst" ] && fst2vcd "$tmp/mf/model.fst" > "$tmp/m.vcd" 2>"$tmp/err" && grep -q '^\$enddefinitions' "$tmp/m.vcd"
  check "run --engine model --out-dir: model.fst is an FST that fst2vcd converts" $?
  res=$(awk -f tests/fst_events.awk "$tmp/mf/model.trace" "$tmp/m.vcd")
  set -- $res
  [ "${2:-0}" -gt 50 ] && [ "${4:-1}" -eq 0 ]
  vst=$?; check "model.fst: rd writes and issues of the trace at their times ($(echo "$res" | head -3 | tr '\n' ' '))" $vst
  sed '0,/ wr 0,0 0 rd0 0x/s/\( wr 0,0 0 rd0 \)0x[0-9a-f]*/\10x00000077/' "$tmp/mf/model.trace" > "$tmp/bad.trace"
  res=$(awk -f tests/fst_events.awk "$tmp/bad.trace" "$tmp/m.vcd" | tail -1)
  set -- $res
  [ "${4:-0}" -eq 2 ]
  check "the FST check sees a trace value changed in one place ($res)" $?
  # every variable with its full scope and width
  vars() { awk '$1 == "$scope" { s[++d] = $3 } $1 == "$upscope" { d-- }
                $1 == "$var" { v = s[1]; for (i = 2; i <= d; i++) v = v "." s[i]; print v "." $5, $3 }' "$1" | sort -u; }
  vars "$tmp/m.vcd" > "$tmp/mvars"
  grep -q '^TOP.tcpa_top.g_row\[0\].g_col\[1\].u_pe.g_fu\[1\].u_fu.pc_q 8$' "$tmp/mvars" &&
    grep -q '^TOP.tcpa_top.g_row\[3\].g_col\[3\].u_pe.u_regfile.rd_q\[3\] 32$' "$tmp/mvars"
  vst=$?; check "model.fst names PE, unit and register ($(wc -l < "$tmp/mvars") signals)" $vst
  if RTL=$(harness); then
    "$RTL" "$tmp/mf/config.bin" --fst "$tmp/r.fst" >/dev/null 2>&1 && fst2vcd "$tmp/r.fst" 2>/dev/null > "$tmp/r.vcd"
    vars "$tmp/r.vcd" > "$tmp/rvars"
    extra=$(comm -23 "$tmp/mvars" "$tmp/rvars" | head -3 | tr '\n' ' ')
    [ -s "$tmp/rvars" ] && [ -z "$extra" ]
    check "model.fst: every signal has the RTL FST's name and width${extra:+ (not in the RTL: $extra)}" $?
  else
    unbuilt "model FST names compared with the RTL's"
  fi
  "$TCPA" sim "$tmp/mf/config.bin" --fst "$tmp/s.fst" >/dev/null && fst2vcd "$tmp/s.fst" 2>/dev/null > "$tmp/s.vcd" &&
    vars "$tmp/s.vcd" | cmp -s - "$tmp/mvars" && grep -v '^\$date\|^\t' "$tmp/s.vcd" | sed -n '/enddefinitions/,$p' > "$tmp/s.body" &&
    grep -v '^\$date\|^\t' "$tmp/m.vcd" | sed -n '/enddefinitions/,$p' | cmp -s - "$tmp/s.body"
  check "tcpa sim --fst: the same signals and values as run's model.fst" $?
  "$TCPA" sim "$tmp/mf/config.bin" --fst "$tmp/nodir/x.fst" >/dev/null 2>"$tmp/err"
  [ $? -eq 2 ] && grep -q "x.fst" "$tmp/err" && [ ! -e "$tmp/nodir" ]
  check "tcpa sim --fst into a missing directory: exit 2 naming the file" $?
fi

exit $fail
