#!/bin/bash
# covers: docs/instantiate.md "The prolog", "2-D regions"
# prolog_cli.sh: the prolog as a loop (docs/instantiate.md, "The prolog");
# TAP. 2-D regions whose inner PEs are served through pass-through hops
# start their kernels sigma steps late; with sigma >= 2 every FU program
# starts with one pi-word block of nops looping on a control signal, not
# sigma * pi nops:
#   - matmul on 4x4 of configs/big1d.ini (sigma >= 2): the listing says
#     "a loop of pi words", every FU program's start kernel q0 is at word
#     pi, and each program is (sigma - 1) * pi words shorter than with
#     --prolog-nops (the former nops);
#   - the same programs run in the C model (--engine model) and in cosim
#     (model and RTL in lockstep, build/rtl/big1d/tcpa-rtl) and equal the
#     reference interpreter;
#   - on 32x32 of configs/array32.ini: matmul's programs and conv fit
#     (conv's prolog of sigma * pi nops exceeded pe.imem 256 before).
# The loop is made only with --no-waits (every nop a word of its own); by
# default the prolog is one multi-cycle `nop N` word (docs/isa.md), no
# loop and no signal: the listing says "nop N: waits", every program is no
# longer than the loop's, the stream is smaller, and the runs equal the
# reference in the model and in cosim.
cd "$(dirname "$0")/.." || exit 1
. tests/tap.sh
BIG=configs/big1d.ini
A32=configs/array32.ini

# words PROGRAM-HEADER-LINES: the word counts of the FU programs of a listing
words() { grep -o ', [0-9]* words (unreduced' "$1" | grep -o '[0-9]*'; }

# prolog LISTING: "sigma pi" of a listing
prolog() {
  local s p
  s=$(grep -o 'prolog sigma = [0-9]*' "$1" | grep -o '[0-9]*$')
  p=$(grep -o 'pi = [0-9]*' "$1" | head -n 1 | grep -o '[0-9]*$')
  echo "${s:-0} ${p:-0}"
}

# loop_ok NAME LISTING: the listing's prolog is a loop of pi words and every
# FU program's start kernel q0 begins at word pi
loop_ok() {
  local s p nfu nq0
  read -r s p <<< "$(prolog "$2")"
  nfu=$(words "$2" | wc -l)
  nq0=$(grep -cE "^ +L$p +q0: " "$2")
  check_eval "$1: sigma $s >= 2, prolog a loop of $p words, q0 at L$p in all $nfu programs ($nq0)" \
    "[ $s -ge 2 ] && grep -q 'prolog sigma = $s steps (a loop of $p words on c[0-9]*)' '$2' && [ $nfu -gt 0 ] && [ $nq0 -eq $nfu ]"
}

# -- instantiate: the loop and the words saved --------------------------------
$TCPA compile regress/programs/matmul.pla --arch $BIG --map i,j -o "$tmp/mm.sym" > /dev/null 2>&1
check "compile matmul --map i,j on big1d: exit 0" $?
for ps in "N=12 M=12 K=2" "N=16 M=16 K=2"; do
  pa=""
  for p in $ps; do pa="$pa --param $p"; done
  # shellcheck disable=SC2086
  $TCPA instantiate "$tmp/mm.sym" --arch $BIG $pa --pes 4x4 --no-waits -o "$tmp/l.bin" --listing "$tmp/l.lst" \
    > /dev/null 2>&1
  check "instantiate matmul $ps on 4x4 --no-waits: exit 0" $?
  loop_ok "matmul $ps on 4x4" "$tmp/l.lst"
  # shellcheck disable=SC2086
  $TCPA instantiate "$tmp/mm.sym" --arch $BIG $pa --pes 4x4 --no-waits --prolog-nops -o "$tmp/n.bin" \
    --listing "$tmp/n.lst" > /dev/null 2>&1
  read -r s p <<< "$(prolog "$tmp/l.lst")"
  save=$(( (s - 1) * p ))
  paste <(words "$tmp/l.lst") <(words "$tmp/n.lst") > "$tmp/pairs"
  bad=$(awk -v d=$save '$2 - $1 != d' "$tmp/pairs" | wc -l)
  check_eval "matmul $ps: each of $(wc -l < "$tmp/pairs") programs $save words shorter than with sigma * pi nops" \
    "[ -s '$tmp/pairs' ] && [ $bad -eq 0 ] && grep -q 'prolog sigma = $s steps ($((s * p)) nops' '$tmp/n.lst'"
  check_eval "matmul $ps: the loop's stream is smaller" "[ \$(stat -c %s '$tmp/l.bin') -lt \$(stat -c %s '$tmp/n.bin') ]"
  # shellcheck disable=SC2086
  $TCPA instantiate "$tmp/mm.sym" --arch $BIG $pa --pes 4x4 -o "$tmp/w.bin" --listing "$tmp/w.lst" > /dev/null 2>&1
  check "instantiate matmul $ps on 4x4 with waits: exit 0" $?
  paste <(words "$tmp/w.lst") <(words "$tmp/l.lst") > "$tmp/wpairs"
  bad=$(awk '$1 > $2' "$tmp/wpairs" | wc -l)
  check_eval "matmul $ps with waits: prolog 'nop $((s * p)): waits', no program longer than the loop's ($(wc -l < "$tmp/wpairs"))" \
    "[ -s '$tmp/wpairs' ] && [ $bad -eq 0 ] && grep -q 'prolog sigma = $s steps (nop $((s * p)): waits)' '$tmp/w.lst' && ! grep -q 'prolog loop' '$tmp/w.lst'"
  check_eval "matmul $ps: the stream with waits is smaller than the loop's" \
    "[ \$(stat -c %s '$tmp/w.bin') -lt \$(stat -c %s '$tmp/l.bin') ]"
done

# -- model and cosim against the reference ------------------------------------
# run ENGINE PARAMS RxC: tcpa run of matmul --map i,j on big1d (exit 0: the
# outputs equal the reference interpreter's)
run() {
  local pa="" p
  for p in $2; do pa="$pa --param $p"; done
  rm -rf "$tmp/out"
  # shellcheck disable=SC2086
  $TCPA run regress/programs/matmul.pla --arch $BIG $pa --pes "$3" --map i,j --engine "$1" --out-dir "$tmp/out" \
    $4 > "$tmp/run.txt" 2>&1
}
run model "N=12 M=12 K=2" 4x4 --no-waits
st=$?
loop_ok "model run's configuration" "$tmp/out/config.lst"
check "model: matmul N=12 M=12 K=2 on 4x4 (prolog loop) equals the reference" $st
run model "N=16 M=16 K=2" 4x4 --no-waits
check "model: matmul N=16 M=16 K=2 on 4x4 (prolog loop) equals the reference" $?
run model "N=16 M=16 K=2" 4x4
check "model: matmul N=16 M=16 K=2 on 4x4 (prolog as one nop N) equals the reference" $?
if full_tier; then  # big1d's harness
  run cosim "N=12 M=12 K=2" 4x4 --no-waits
  check "cosim (model and RTL in lockstep): matmul N=12 M=12 K=2 on 4x4 of big1d with the prolog loop" $?
  run cosim "N=12 M=12 K=2" 4x4
  check "cosim: matmul N=12 M=12 K=2 on 4x4 of big1d with the prolog as one nop N" $?
fi

# -- 32x32 of array32.ini -----------------------------------------------------
$TCPA compile regress/programs/matmul.pla --arch $A32 --map i,j -o "$tmp/m32.sym" > /dev/null 2>&1
$TCPA instantiate "$tmp/m32.sym" --arch $A32 --param N=64 --param M=64 --param K=4 --pes 32x32 -o "$tmp/m32.bin" \
  --no-waits --listing "$tmp/m32.lst" > /dev/null 2>&1
check "instantiate matmul N=64 M=64 K=4 on 32x32 of array32 --no-waits: exit 0" $?
loop_ok "matmul 32x32" "$tmp/m32.lst"
$TCPA compile regress/programs/conv.pla --arch $A32 --map o,r -o "$tmp/c32.sym" > /dev/null 2>&1
$TCPA instantiate "$tmp/c32.sym" --arch $A32 --param CO=64 --param R=64 --param C=1 --param CI=1 --param KR=1 \
  --param KC=2 --pes 32x32 -o "$tmp/c32.bin" --no-waits --listing "$tmp/c32.lst" > /dev/null 2> "$tmp/err"
vst=$?; check "conv CO=64 R=64 on 32x32 of array32 fits with --no-waits (exit 0; $(head -c 120 "$tmp/err"))" $vst
loop_ok "conv 32x32" "$tmp/c32.lst"
if full_tier; then # (5 s; the fast tier: conv on 32x32 without waits)
  $TCPA instantiate "$tmp/c32.sym" --arch $A32 --param CO=64 --param R=64 --param C=1 --param CI=1 --param KR=1 \
    --param KC=2 --pes 32x32 -o "$tmp/c32w.bin" > /dev/null 2> "$tmp/err"
  vst=$?; check "conv CO=64 R=64 on 32x32 of array32 fits with waits (exit 0; $(head -c 120 "$tmp/err"))" $vst
fi

# the configuration (stream without IODATA, as in bench Table 2) at 32x32
# within 2x of 4x4 (docs/stream.md: the configuration is symbolic; 4x4 at N=16, the bounds its gc.history
# allows): a size, not a time. It was 2.15x with a word per WRAPPER sink,
# 1.52x (15576 / 10268 bytes) before the first row and column of matmul
# shared the channels' ids (docs/instantiate.md "2-D regions"), 2.14x
# (11468 / 5360) since: both shrank, the 4x4 more (9 -> 4 processor
# classes is most of its configuration); what 32x32 adds are the border
# banks' AG and WRAPPER packets, which grow with the sides and banks. Since
# the last row and column write the channels' ods too (1 processor class,
# docs/instantiate.md "2-D regions") both shrank again, 9164 / 2576 bytes:
# the 4x4 is little more than its border packets, so the ratio is 3.56x.
# The check: the 32x32 configuration stays below its 11468 bytes with 4
# classes, within 4x of the 4x4's; the paper's goal of 2x is not met for
# matmul (scripts/bench_tables.sh Table 2 says so).
# conf_bytes BIN: the configuration bytes `tcpa instantiate` reports.
conf_bytes() { sed -n 's/^stream: [0-9]* bytes: configuration \([0-9]*\) bytes.*/\1/p' "$1"; }
$TCPA instantiate "$tmp/m32.sym" --arch $A32 --param N=64 --param M=64 --param K=4 --pes 32x32 -o "$tmp/m32b.bin" \
  > "$tmp/i32" 2>&1
$TCPA instantiate "$tmp/m32.sym" --arch $A32 --param N=16 --param M=16 --param K=4 --pes 4x4 -o "$tmp/m4.bin" \
  > "$tmp/i4" 2>&1
b32=$(conf_bytes "$tmp/i32") b4=$(conf_bytes "$tmp/i4")
[ -n "$b32" ] && [ -n "$b4" ] && [ "$b32" -lt 11468 ] && [ $((b32 * 100)) -le $((b4 * 400)) ]
vst=$?; check "matmul configuration bytes: 32x32 ${b32:-?} < 11468 and within 4x of 4x4 ${b4:-?}" $vst

exit $fail
