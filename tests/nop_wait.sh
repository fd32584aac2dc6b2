#!/usr/bin/env bash
# covers: docs/isa.md "Multi-cycle nop", docs/timing.md "3. FU issue"
# nop_wait.sh: the multi-cycle nop `nop N` (docs/isa.md "Multi-cycle nop",
# docs/timing.md section 3) from the outside. regress/streams/nop_wait.tasm
# uses `nop N` with next, goto, br on a control signal, br on a flag and
# halt, each br placed where the signal or flag differs between the word's
# first and last cycle; nop_wait_plain.tasm is the same program with N
# plain nops per `nop N`. Checked: the text round trip through asm and
# disasm (one 16-byte word per `nop N`); the C model's datapath events are
# the ones the docs give (branch in the last cycle, halt in the last cycle,
# one `issue` per word); both programs give the same trace but for `issue`
# and `insn`; a `nop 65537 ; halt` halts in cycle 65536 (a counter of 16
# bits would not). On the RTL harness (`tcpa harness`): the same runs,
# every trace kind equal to the model's (cosim-check). Prints TAP lines.
set -u
. tests/tap.sh

S=regress/streams
for f in nop_wait nop_wait_plain; do
  "$TCPA" asm "$S/$f.tasm" -o "$tmp/$f.bin" >/dev/null 2>&1
  check "$f.tasm assembles" $?
done
"$TCPA" disasm "$tmp/nop_wait.bin" -o "$tmp/nw.dis.tasm" &&
  "$TCPA" asm "$tmp/nw.dis.tasm" -o "$tmp/nw.2.bin" && cmp -s "$tmp/nop_wait.bin" "$tmp/nw.2.bin" &&
  grep -q '^    nop 4 ; br c0 ? L3 : L2  *// 1$' "$tmp/nw.dis.tasm" &&
  grep -q '^    nop 2 ; goto L8  *// 6$' "$tmp/nw.dis.tasm" &&
  grep -q '^    nop 2  *// 9$' "$tmp/nw.dis.tasm" &&
  grep -q '^    nop 3 ; halt  *// 11$' "$tmp/nw.dis.tasm" &&
  grep -q '^    nop 3 ; br f0 ? L2 : L1  *// 0$' "$tmp/nw.dis.tasm"
check "disasm prints nop N with its branch, and asm of it gives the same bytes" $?
a=$(stat -c %s "$tmp/nop_wait.bin"); b=$(stat -c %s "$tmp/nop_wait_plain.bin")
check_eval "each nop N is one word: the plain stream is 11 words (176 bytes) longer ($a, $b)" \
  '[ $((b - a)) -eq 176 ]'

# datapath events only: the state events (docs/trace.md) are compared
# between the engines below
dp='^[0-9]+ (start|sig|issue|halt|wr|pop|push|fdrd|hop|bank|fault|done) '
# Runs stream $1 ($tmp/$1.bin) on engine $2 (model: tcpa sim; else the
# harness $2) into $tmp/$1.$3.trace; returns the engine's status.
run() {
  if [ "$2" = model ]; then
    "$TCPA" sim "$tmp/$1.bin" --trace "$tmp/$1.$3.trace" --max-cycles "${4:-200}" >/dev/null 2>&1
  else
    "$2" "$tmp/$1.bin" --trace "$tmp/$1.$3.trace" --max-cycles "${4:-200}" >/dev/null 2>&1
  fi
}
# Returns 0 when traces $1 and $2 agree but for their issue and insn lines.
same_but_issue() {
  diff <(grep -v '^#' "$1" | grep -Ev '^[0-9]+ (issue|insn) ') \
       <(grep -v '^#' "$2" | grep -Ev '^[0-9]+ (issue|insn) ') >"$tmp/diff" 2>&1
}

# What docs/timing.md section 3 gives for nop_wait.tasm (the comments of
# the .tasm): alu1's br f0 in cycle 2 sees the flag of alu0's add of
# cycle 0; alu0's br c0 of the nop 4 issued at 1 is evaluated in 4 (c0 = 1:
# cycles 4..7), that of the nop 3 issued at 6 in 8 (c0 = 0); the goto of
# the nop 2 issued at 9 is taken at the end of 10; the nop 3 ; halt issued
# at 15 halts in 17.
cat > "$tmp/want" <<'EOT'
0 wr 0,0 0 rd0 0x00000001
3 wr 0,0 1 rd3 0x0000000a
4 halt 0,0 1
5 wr 0,0 0 rd0 0x0000000b
11 wr 0,0 0 rd2 0x00000010
14 wr 0,0 0 rd2 0x00000011
17 halt 0,0 0
17 done - 18
EOT
cat > "$tmp/want.issue" <<'EOT'
0 issue 0,0 0 0
0 issue 0,0 1 0
1 issue 0,0 0 1
3 issue 0,0 1 2
4 issue 0,0 1 3
5 issue 0,0 0 3
6 issue 0,0 0 4
9 issue 0,0 0 6
11 issue 0,0 0 8
12 issue 0,0 0 9
14 issue 0,0 0 10
15 issue 0,0 0 11
EOT
printf 'fingerprint 0x4ae1ec2ede81d159\ngc 0 pe 0,0\n    ii 1\n    bounds 1\nprogram fu alu0 pe 0,0\n    nop 65537 ; halt\nstart gc 0 pe 0,0\n' >"$tmp/long.tasm"
"$TCPA" asm "$tmp/long.tasm" -o "$tmp/long.bin" >/dev/null 2>&1
check "nop 65537 ; halt assembles" $?

# engine_checks ENGINE NAME: the checks above on one engine.
engine_checks() {
  local e=$1 name=$2 st
  run nop_wait "$e" "$name"; st=$?
  [ $st -eq 0 ] && diff <(grep -Ev '^[0-9]+ (issue|insn|sig|start) ' "$tmp/nop_wait.$name.trace" | grep -E "$dp") \
    "$tmp/want" >"$tmp/diff" 2>&1
  st=$?
  check "$name: nop_wait runs to done in 18 cycles, branches and halts in the last cycle of each nop N ($(head -3 "$tmp/diff" | tr '\n' ' '))" $st
  diff <(grep -E '^[0-9]+ issue ' "$tmp/nop_wait.$name.trace") "$tmp/want.issue" >"$tmp/diff" 2>&1
  st=$?
  check "$name: one issue per word, none while a nop N waits ($(head -3 "$tmp/diff" | tr '\n' ' '))" $st
  run nop_wait_plain "$e" "$name" && same_but_issue "$tmp/nop_wait.$name.trace" "$tmp/nop_wait_plain.$name.trace"
  st=$?
  check "$name: nop N and N plain nops give the same trace but for issue and insn ($(head -3 "$tmp/diff" | tr '\n' ' '))" $st
  ! diff -q "$tmp/nop_wait.$name.trace" "$tmp/nop_wait_plain.$name.trace" >/dev/null
  check "$name: (the unfiltered traces differ: the plain nops issue)" $?
  run long "$e" "$name" 70000 && grep -q '^65536 halt 0,0 0$' "$tmp/long.$name.trace" &&
    grep -q '^65536 done - 65537$' "$tmp/long.$name.trace" &&
    [ "$(grep -c ' issue ' "$tmp/long.$name.trace")" -eq 1 ]
  check "$name: nop 65537 ; halt issues once in cycle 0 and halts in cycle 65536" $?
}

engine_checks model model

RTL=$(harness)
check "the rtl harness of the default configuration builds" $?
if [ ! -x "$RTL" ]; then
  unbuilt "nop N on the RTL"
else
  engine_checks "$RTL" rtl
  for f in nop_wait nop_wait_plain long; do
    "$TCPA" cosim-check "$tmp/$f.model.trace" "$tmp/$f.rtl.trace" >"$tmp/cmp" 2>&1
    st=$?
    check "cosim-check: the RTL's trace of $f, every kind, equals the model's ($(head -1 "$tmp/cmp"))" $st
  done
fi
exit $fail
