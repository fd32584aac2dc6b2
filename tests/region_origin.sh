#!/usr/bin/env bash
# covers: docs/user-guide.md "Regions", docs/instantiate.md "Origin"
# region_origin.sh: a region placed at an origin (`--pes RxC@ROW,COL`,
# the instantiator's inst_opts.row0/col0: the stream's rectangles, AGs and
# banks at the origin). TAP.
#   - every benchmark that fits default.ini, on 1x2 moved along the north
#     border to columns 2..3 and on 4x1 moved to the east border (column
#     3), in the model: verdict pass (outputs equal to the reference) and
#     the same `model` line (last output write, cycles, done) as at 0,0;
#     1x4 on the south row (3,0) for two of them;
#   - matmul 2x2 (--map i,j) at each quadrant of the 4x4: verdict pass;
#   - a 1x4 in row 1 (no PE of it beyond the first on the array border):
#     exit 3 naming the I/O banks and the PE in array coordinates;
#   - conv 2x2@2,2 (img cannot reach its inner PE): exit 3, the PE named
#     in array coordinates;
#   - 2x2@3,3 (past the array): exit 3; `--pes 2x2@1` (no column): exit 2.
# Environment: TCPA (default build/bin/tcpa).
set -u
. tests/tap.sh

# run PROG PES PARAMS...: tcpa run on the model; its stdout in $tmp/out,
# stderr in $tmp/err; returns its status.
run() {
  local prog=$1 pes=$2
  shift 2
  local pp=()
  for kv in "$@"; do pp+=(--param "$kv"); done
  "$TCPA" run "regress/programs/$prog.pla" "${pp[@]}" --pes "$pes" --engine model >"$tmp/out" 2>"$tmp/err"
}

# same PROG PES ORIGIN PARAMS...: the run at PES@ORIGIN passes with the
# model line of PES at 0,0.
same() {
  local prog=$1 pes=$2 at=$3
  shift 3
  run "$prog" "$pes" "$@"
  local st0=$? m0
  m0=$(grep '^model ' "$tmp/out")
  run "$prog" "$pes@$at" "$@"
  local st1=$? m1
  m1=$(grep '^model ' "$tmp/out")
  check_eval "$prog $pes@$at: verdict pass with the cycles at 0,0 ($m1)" \
    "[ $st0 -eq 0 ] && [ $st1 -eq 0 ] && grep -q '^verdict   pass' '$tmp/out' && [ -n \"\$m0\" ] && [ \"\$m0\" = \"\$m1\" ]"
}

while read -r prog params; do
  # shellcheck disable=SC2086
  same "$prog" 1x2 0,2 $params
  # shellcheck disable=SC2086
  same "$prog" 4x1 0,3 $params
done <<'L'
bitextract N=13
fir N=9 T=3
matmul N=2 M=3 K=4
conv CO=1 R=3 C=3 CI=1 KR=2 KC=2
trimv N=7
maxpool R=4 C=4
dotprod N=10
editdist N=4 M=5
L
same dotprod 1x4 3,0 N=10
same editdist 1x4 3,0 N=4 M=5

for at in 0,0 0,2 2,0 2,2; do
  "$TCPA" run regress/programs/matmul.pla --param N=4 --param M=4 --param K=4 --pes "2x2@$at" --map i,j \
    --engine model >"$tmp/out" 2>"$tmp/err"
  st=$?
  check_eval "matmul 2x2@$at: verdict pass" "[ $st -eq 0 ] && grep -q '^verdict   pass' '$tmp/out'"
done

run dotprod 1x4@1,0 N=10
st=$?
check_eval "dotprod 1x4@1,0: exit 3, I/O banks of PE (row 1, column 1) ($(head -c 160 "$tmp/err"))" \
  "[ $st -eq 3 ] && grep -q 'I/O banks' '$tmp/err' && grep -q 'row 1, column 1' '$tmp/err'"
run conv 2x2@2,2 CO=1 R=3 C=3 CI=1 KR=2 KC=2
st=$?
check_eval "conv 2x2@2,2: exit 3, the PE in array coordinates ($(head -c 120 "$tmp/err"))" \
  "[ $st -eq 3 ] && grep -q 'PE (2,2) is not on the array border' '$tmp/err'"
run matmul 2x2@3,3 N=2 M=3 K=4
st=$?
check_eval "matmul 2x2@3,3: exit 3, past the array" "[ $st -eq 3 ] && grep -q '2x2@3,3' '$tmp/err'"
run matmul 2x2@1 N=2 M=3 K=4
check "--pes 2x2@1: exit 2" $([ $? -eq 2 ] && echo 0 || echo 1)
exit $fail
