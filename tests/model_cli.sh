#!/usr/bin/env bash
# model_cli.sh: tests of `tcpa sim` (the C model, docs/model.md) from the
# outside. Streams are written here as .tasm text (docs/asm.md) and
# assembled with `tcpa asm`: a bank-to-bank run (cycles, trace file with
# the fingerprint header, --dump-banks contents), an endless loop
# (--max-cycles: exit 1 and a timeout fault), a FIFO underflow (exit 1),
# a corrupted stream and a stream for another architecture (exit 2, the
# message names the file), bad options (exit 2). Prints TAP lines.
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

exit $fail
