#!/usr/bin/env bash
# covers: docs/rtl.md "Design decisions", docs/testing.md "The full tier"
# tier: full (the mutants harness: a build of its own, docs/testing.md "The budget")
# xinit.sh: the RTL does not depend on the initial state of anything reset
# does not set. The mutants model
# (build/rtl/mutants/tcpa-rtl, no +mutant: the correct RTL) is built with
# Verilator's --x-initial unique --x-assign unique; run with
# +verilator+rand+reset+2 +verilator+seed+N, every variable without a reset
# (bank and instruction memories, fd rings, ...) and every X assignment
# starts at a random value of seed N. For each stream (bitextract N=8 on 1x2
# by tcpa run, and regress/streams/*.tasm assembled) the traces of seeds
# 1, 2 and 3 must equal, byte for byte, the trace of the same build without
# plusargs (zero initial state) and that of the default model
# build/bin/tcpa-rtl. That the randomization takes effect is checked too:
# the final bank contents (--dump-banks) of seeds 1 and 2 differ (in words
# nothing wrote) for at least one stream.
# Prints `# SKIP` while a harness is missing or older than rtl/. TAP.
set -u
. "$(dirname "$0")/tap.sh"
BUILD=${BUILD:-build}
RTL=$("$TCPA" harness)
MUT=$("$TCPA" harness --kind mutants)
SEEDS=${XINIT_SEEDS:-"1 2 3"}

# Returns 0 when the harness $1 exists and is not older than rtl/ and tb/.
# (`tcpa harness` below builds what is missing; the cache never holds a
# stale harness, so only a failed build leaves one out: a failure)
fresh() { [ -x "$1" ]; }

for h in "$RTL" "$MUT"; do
  if ! fresh "$h"; then
    echo "not ok 1 - randomized initial state: a harness did not build"
    n=1; exit 1
  fi
done

mkdir -p "$tmp/s"
"$TCPA" run regress/programs/bitextract.pla --engine model --out-dir "$tmp/bx" --param N=8 --pes 1x2 \
  --seed 3 --arch configs/default.ini >/dev/null 2>&1 && cp "$tmp/bx/config.bin" "$tmp/s/bitextract.bin"
check "bitextract N=8 on 1x2: stream made" $?
for f in regress/streams/*.tasm; do
  "$TCPA" asm "$f" -o "$tmp/s/$(basename "$f" .tasm).bin" >/dev/null 2>&1 ||
    rm -f "$tmp/s/$(basename "$f" .tasm).bin"
done

random_seen=0
for s in "$tmp"/s/*.bin; do
  name=$(basename "$s" .bin) d=$tmp/$(basename "$s" .bin)
  mkdir -p "$d"
  "$RTL" "$s" --trace "$d/default.trace" >/dev/null 2>&1
  st=$?
  [ $st -le 1 ] && [ "$(grep -vc '^#' "$d/default.trace")" -gt 0 ]
  check "$name: the default model runs it (exit $st)" $? || continue
  "$MUT" "$s" --trace "$d/zero.trace" >/dev/null 2>&1
  cmp -s "$d/zero.trace" "$d/default.trace"
  check "$name: mutants build, no plusargs: the default model's trace" $?
  for k in $SEEDS; do
    mkdir -p "$d/banks$k"
    "$MUT" "$s" +verilator+rand+reset+2 +verilator+seed+$k --trace "$d/seed$k.trace" \
      --dump-banks "$d/banks$k" >/dev/null 2>&1
    st=$?
    cmp -s "$d/seed$k.trace" "$d/default.trace"
    vst=$?; check "$name: random initial state, seed $k: the same trace byte for byte (exit $st, $(grep -vc '^#' "$d/seed$k.trace") events)" $vst
  done
  # the bank words nothing wrote differ between seeds
  set -- $SEEDS
  if [ $# -ge 2 ] && [ -n "$(ls "$d/banks$1" 2>/dev/null)" ]; then
    if ! diff -rq "$d/banks$1" "$d/banks$2" >/dev/null; then random_seen=$((random_seen + 1)); fi
  fi
done
[ $random_seen -ge 1 ]
check "the randomization takes effect: bank contents nothing wrote differ between seeds ($random_seen streams)" $?
exit $fail
