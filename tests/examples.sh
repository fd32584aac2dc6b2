#!/usr/bin/env bash
# covers: docs/runtime.md "Examples"
# examples.sh: the host programs of examples/ (make examples, docs/
# runtime.md), each run on the C model with the .sym files tcpa compile
# makes here. TAP.
#   - matmul_sizes (three sizes on one region, nothing compiled again),
#     pipeline (matmul's C into trimv's L on two regions, three batches,
#     the two at once), rtp_update (fir's T updated between runs, the
#     signal written once): exit 0 and every output line "equals the
#     reference";
#   - each with a reference program that means something else (an
#     operator of the program changed): exit 1, so a wrong result fails;
#   - no arguments: exit 2 with the usage; a .sym that does not exist:
#     exit 2 naming it.
# Environment: TCPA (default build/bin/tcpa), BUILD (default build).
set -u
. tests/tap.sh
ex=${BUILD:-build}/examples
P=regress/programs

for p in matmul trimv fir; do
  "$TCPA" compile "$P/$p.pla" -o "$tmp/$p.sym" >/dev/null
  check "tcpa compile $p" $?
  # the same program with its multiplication turned into a subtraction
  sed 's/\* /- /' "$P/$p.pla" > "$tmp/wrong_$p.pla"
done

# run NAME LINES ARGS...: the example, its exit status and its lines
run() {
  local name=$1 lines=$2; shift 2
  "$ex/$name" "$@" >"$tmp/out" 2>"$tmp/err"
  st=$?
  eq=$(grep -c 'equals the reference' "$tmp/out")
  check_eval "$name: exit 0, $eq of $lines runs equal to the reference ($(tail -1 "$tmp/err"))" \
    "[ $st -eq 0 ] && [ $eq -eq $lines ]"
}
# wrong NAME ARGS...: with a reference that means something else: exit 1
wrong() {
  local name=$1; shift
  "$ex/$name" "$@" >"$tmp/out" 2>"$tmp/err"
  st=$?
  check_eval "$name: a reference of another meaning: exit 1 ($(tail -1 "$tmp/err"))" \
    "[ $st -eq 1 ] && grep -q 'differs from the reference' '$tmp/out'"
}

run matmul_sizes 3 "$tmp/matmul.sym" "$P/matmul.pla"
grep -q 'N=12 M=8 K=6' "$tmp/out"; check "matmul_sizes: the third size is 12x8x6" $?
run pipeline 3 "$tmp/matmul.sym" "$P/matmul.pla" "$tmp/trimv.sym" "$P/trimv.pla"
run rtp_update 3 "$tmp/fir.sym" "$P/fir.pla"
grep -q 'T=4' "$tmp/out" && grep -q 'equals the reference and the filter' "$tmp/out"
check "rtp_update: T updated to 4, y equal to the filter computed from the signal written once" $?

wrong matmul_sizes "$tmp/matmul.sym" "$tmp/wrong_matmul.pla"
wrong pipeline "$tmp/matmul.sym" "$P/matmul.pla" "$tmp/trimv.sym" "$tmp/wrong_trimv.pla"
wrong rtp_update "$tmp/fir.sym" "$tmp/wrong_fir.pla"

for e in matmul_sizes pipeline rtp_update; do
  "$ex/$e" >/dev/null 2>"$tmp/err"
  st=$?
  check_eval "$e without arguments: exit 2 with the usage" "[ $st -eq 2 ] && grep -q '^usage: $e' '$tmp/err'"
done
"$ex/matmul_sizes" "$tmp/none.sym" "$P/matmul.pla" >/dev/null 2>"$tmp/err"
st=$?
check_eval "a missing .sym: exit 2 naming it ($(cat "$tmp/err"))" "[ $st -eq 2 ] && grep -q 'none.sym' '$tmp/err'"
exit $fail
