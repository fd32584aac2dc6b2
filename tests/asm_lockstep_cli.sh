#!/usr/bin/env bash
# covers: docs/asm.md "Lines", "Example",
#   docs/trace.md "The lockstep checker and its report",
#   docs/timing.md "9. Worked example"
# asm_lockstep_cli.sh: `tcpa asm`, `tcpa disasm` and `tcpa cosim-check` from
# the outside. Every fixture of regress/streams assembles, disassembles and
# re-assembles to identical bytes; a .tasm error exits 2 with FILE:LINE:COL
# and leaves no output file; the C model (`tcpa sim`) runs
# timing_example.tasm to exactly regress/streams/timing_example.trace (the
# worked example of docs/timing.md section 9) as judged by cosim-check; a
# changed value, a dropped line and another fingerprint give exit 1, 1 and
# 2 with the cycle, PE and register in the report; --gtkw writes a save
# file with the marker. Prints TAP lines.
set -u
. tests/tap.sh

for f in regress/streams/*.tasm; do
  b=$tmp/$(basename "$f" .tasm)
  "$TCPA" asm "$f" -o "$b.bin" && "$TCPA" disasm "$b.bin" -o "$b.dis.tasm" &&
    "$TCPA" asm "$b.dis.tasm" -o "$b.2.bin" && cmp -s "$b.bin" "$b.2.bin"
  check "$f: asm, disasm, asm give identical bytes" $?
done

printf 'program fu alu0 pe 0,0\n  add rd0, rd9, #1\nstart gc 0 pe 0,0\n' > "$tmp/bad.tasm"
err=$("$TCPA" asm "$tmp/bad.tasm" -o "$tmp/bad.bin" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$err" | grep -q "^$tmp/bad.tasm:2:3: error: .*rd9" && [ ! -e "$tmp/bad.bin" ]
check "asm error: exit 2, FILE:LINE:COL, no output file" $?
"$TCPA" asm regress/streams/alu_single.tasm --arch configs/linear.ini -o "$tmp/x.bin" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "fingerprint" "$tmp/err"
check "asm for another architecture than the file's fingerprint: exit 2" $?
"$TCPA" asm regress/streams/alu_single.tasm -o "$tmp/a.bin" && "$TCPA" disasm "$tmp/a.bin" --arch configs/linear.ini >/dev/null 2>&1
[ $? -eq 2 ]
check "disasm with another architecture: exit 2" $?

exp=regress/streams/timing_example.trace
"$TCPA" asm regress/streams/timing_example.tasm -o "$tmp/te.bin" &&
  "$TCPA" sim "$tmp/te.bin" --trace "$tmp/te.trace" >/dev/null 2>&1
# (timing.md's events; the state events of docs/trace.md are the model's
# own, checked by tests/unit/test_model.c and against the RTL)
dp=start,sig,issue,halt,pop,fdrd,wr,hop,push,bank,fault,done
out=$("$TCPA" cosim-check "$exp" "$tmp/te.trace" --events $dp); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "agree: 22 events"
check "the C model runs timing_example.tasm to the trace of timing.md section 9" $?
"$TCPA" cosim-check "$exp" "$tmp/te.trace" >/dev/null; rc=$?
[ $rc -eq 1 ]
check "with every kind compared the model's trace has more: its state events (exit 1)" $?

sed 's/^5 wr 0,0 1 rd2 0x0000000b$/5 wr 0,0 1 rd2 0x0000000c/' "$exp" > "$tmp/v.trace"
out=$("$TCPA" cosim-check "$exp" "$tmp/v.trace" --window 3 --gtkw "$tmp/d.gtkw" --fst "$tmp/none.fst" 2>/dev/null); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "DIVERGENCE at cycle 5, PE (0,0)" &&
  echo "$out" | grep -q "wr (FU 1 -> rd2)" && echo "$out" | grep -q "> 5 wr 0,0 1 rd2 0x0000000c"
check "changed value: exit 1, cycle 5, PE (0,0), FU 1 -> rd2, RTL line marked" $?
grep -q '^\*[-0-9.]* 10 ' "$tmp/d.gtkw" && grep -q "g_row\[0\].g_col\[0\].u_pe" "$tmp/d.gtkw"
check "--gtkw: save file with the marker at cycle 5 (t0 0, period 2) and the PE scope" $?

grep -v '^6 hop' "$exp" > "$tmp/m.trace"
out=$("$TCPA" cosim-check "$exp" "$tmp/m.trace"); rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q "hop (side n port 0): in the model, missing in the RTL"
check "dropped line: exit 1, reported missing in the RTL" $?

sed '1s/fp=0x4ae1ec2ede81d159/fp=0x0000000000000001/' "$exp" > "$tmp/f.trace"
"$TCPA" cosim-check "$exp" "$tmp/f.trace" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ]
check "traces of different architectures refused: exit 2" $?

exit $fail
