#!/usr/bin/env bash
# covers: docs/testing.md "The full tier", docs/model.md "Tests"
# tier: full
# shards: 2
# asan.sh: the C code is clean under AddressSanitizer and
# UndefinedBehaviorSanitizer (docs/testing.md "The full tier"). `make
# debug` builds tcpa and the unit tests into build-debug/ with clang,
# -fsanitize=address,undefined; then, with leak detection on and any
# UBSan report fatal:
#   - every unit test (test_map_regs runs tcpa compile too: the debug one);
#   - every benchmark compiled, instantiated and run on the C model against
#     the reference, on a 1-D region of configs/big1d.ini (it has a
#     divider) and, for the multi-dimensional ones, on 2x2 of
#     configs/default.ini, the listing and layout written;
#   - asm and disasm of a stream, the stream loader on the fuzz regression
#     corpus (fuzz/regress/stream: rejected or run, never a crash), a few
#     random programs and streams (tcpa gen).
# A sanitizer report makes the command exit non-zero (ASan: 1, UBSan
# halt_on_error) and its first line is printed. Prints TAP.
# Two shards (tests/run.sh): each builds build-debug/ (one at a time, the
# second finds it built) and runs every other command of the list. Each
# unit test runs once, for both its sanitizer report and its verdict, and
# with its fast-tier parts in the full tier (its full-tier parts under the
# sanitizers in the nightly tier).
set -u
. tests/tap.sh
DBG=build-debug
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# one build at a time: the shards share build-debug/
mkdir -p "$DBG" && flock "$DBG/.lock" nice make -s debug >"$tmp/make.log" 2>&1
st=$?
[ $st -eq 0 ] || tail -5 "$tmp/make.log" | sed 's/^/# /'
check "make debug builds tcpa and the unit tests with ASan and UBSan" $st
[ $st -eq 0 ] || exit 1
T=$PWD/$DBG/bin/tcpa

# san NAME CMD...: runs CMD, records NAME as passed when no sanitizer
# report is in its output (whatever its exit status: a run that does not
# fit exits 3, a rejected stream 2).
# Only the commands of this shard run (every other one, tap.sh mine):
# returns 1 for another shard's; $st is the command's exit status. A chain
# of commands that read each other's files is one item: `chain` decides
# once for all of them (san then runs each while $pinned is 1).
item=0 pinned=0
san() {
  local name=$1 out="$tmp/san.log"
  shift
  if [ $pinned -eq 0 ]; then
    item=$((item + 1))
    mine $((item - 1)) || return 1
  fi
  "$@" >"$out" 2>&1
  st=$?
  if grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$out"; then
    echo "# $(grep -m1 -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$out")"
    check "$name: sanitizer report (exit $st)" 1
  else
    check "$name: no sanitizer report (exit $st)" 0
  fi
}

# the unit tests' long parts (TCPA_TIER=full) under the sanitizers only in
# the nightly tier
utier=fast
nightly_tier && utier=full
for t in $DBG/tests/test_*; do
  case $t in *.d) continue ;; esac
  [ -f "tests/unit/$(basename "$t").c" ] || continue  # a binary whose source went away
  TCPA=$T TCPA_TIER=$utier san "unit test $(basename "$t")" "$t" || continue
  check "unit test $(basename "$t") passes under the sanitizers (exit $st)" $st
done

# every benchmark on 1x2 of big1d, the multi-dimensional ones on 2x2 of
# default.ini too
while read -r arch pes prog params; do
  args=()
  for p in $params; do args+=(--param "$p"); done
  san "$prog on $pes of $arch.ini, model" "$T" run "regress/programs/$prog.pla" --engine model \
    --arch "configs/$arch.ini" --pes "$pes" "${args[@]}" --out-dir "$tmp/o"
done <<'EOF'
big1d 1x2 bitextract N=13
big1d 1x2 fir N=9 T=3
big1d 1x2 matmul N=2 M=3 K=4
big1d 1x2 conv CO=1 R=3 C=3 CI=1 KR=2 KC=2
big1d 1x2 trimv N=7
big1d 1x2 maxpool R=4 C=4
big1d 1x2 dotprod N=10
big1d 1x2 jacobi T=2 N=4
big1d 1x2 gcd N=5 S=6
big1d 1x2 editdist N=4 M=5
big1d 1x2 satarith N=10
big1d 1x2 band N=5 W=4
default 2x2 fir N=9 T=3
default 2x2 matmul N=4 M=4 K=3
default 2x2 matmul N=5 M=5 K=3
default 2x2 conv CO=2 R=3 C=3 CI=1 KR=2 KC=2
default 2x2 trimv N=7
default 2x2 maxpool R=4 C=4
default 2x2 band N=5 W=4
EOF

# Returns 0 when the chain of commands that follows is this shard's (and
# pins san to it until `pinned=0`).
chain() { item=$((item + 1)); mine $((item - 1)) && pinned=1; }
if chain; then
  san "compile matmul --map 0,1" "$T" compile regress/programs/matmul.pla --map 0,1 -o "$tmp/mm.sym"
  san "instantiate matmul on 4x4 with listing and layout" "$T" instantiate "$tmp/mm.sym" --param N=16 \
    --param M=16 --param K=16 --pes 4x4 -o "$tmp/mm.bin" --listing "$tmp/mm.lst" --layout "$tmp/mm.lay"
  san "disasm of the matmul stream" "$T" disasm "$tmp/mm.bin" -o "$tmp/mm.tasm"
  san "asm of the disassembly" "$T" asm "$tmp/mm.tasm" -o "$tmp/mm2.bin"
  pinned=0
fi
for f in fuzz/regress/stream/*; do
  [ -f "$f" ] || continue
  san "stream loader on $(basename "$f")" "$T" sim "$f" --max-cycles 2000
done
for s in 1 2 3 4 5; do
  chain || continue
  san "gen stream --seed $s" "$T" gen stream --seed "$s" -o "$tmp/g$s.bin"
  san "sim of the random stream $s" "$T" sim "$tmp/g$s.bin" --max-cycles 5000
  pinned=0
done
san "gen program --seeds 1-10 through compile, instantiate and the model" "$T" gen program --seeds 1-10 --check \
  --engine model --out-dir "$tmp/gp"
exit $fail
