#!/usr/bin/env bash
# covers: docs/instantiate.md "What each step computes", docs/arch.md "Keys"
# bank_layout.sh: the tile-local bank layout (docs/instantiate.md, step 7;
# compiler/inst/inst_io.c): a bank holds the elements its PE's tile
# accesses, row-major over the box of indices one tile spans, so the
# largest problem a region runs is set by iobuf.depth, not by the arrays'
# sizes. On configs/default.ini (iobuf.depth 1024):
#   - matmul N = M = 4, K = 500 on 4x4 (p = 1 x 1) needs 500 words per
#     bank (with the arrays' global row-major layout B's tile spanned 1997
#     words and did not fit): the listing's addresses step by 1 along k for
#     A and B, and the run passes in the model and in cosim;
#   - K = 1024 fills a bank exactly and passes in the model; K = 1025
#     does not instantiate (exit 3 naming the access, the words needed and
#     the words available), and `tcpa run` runs it in chunks along k
#     instead (docs/tiling.md), passing;
#   - 1-D, tiled over columns: maxpool R = 16, C = 192 on 1x4 of
#     configs/big1d.ini (iobuf.depth 4096) passes in the model: a tile
#     reads 32 rows of 96 columns, 3072 words (the global layout spanned
#     32 rows of the whole 384-column image, 12000 words).
# Prints TAP.
set -u
. tests/tap.sh
MM=regress/programs/matmul.pla

"$TCPA" compile $MM --map 0,1 -o "$tmp/mm.sym" > /dev/null 2>&1
check "matmul compiles for an RxC region" $?
"$TCPA" instantiate "$tmp/mm.sym" --param N=4 --param M=4 --param K=500 --pes 4x4 -o "$tmp/mm.bin" \
  --listing "$tmp/mm.lst" > "$tmp/inst.txt" 2>&1
ok=$?; check "matmul N=M=4 K=500 instantiates on 4x4 ($(tail -n 1 "$tmp/inst.txt"))" $ok
check_eval "A and B step by one bank word along k: address ... + 1*j2" \
  "grep -q '^access 0: read A .*address 0 + [0-9]*\*j0 + 0\*j1 + 1\*j2' '$tmp/mm.lst' &&
   grep -q '^access 1: read B .*address 0 + 0\*j0 + [0-9]*\*j1 + 1\*j2' '$tmp/mm.lst'"
for eng in model cosim; do
  "$TCPA" run $MM --map 0,1 --param N=4 --param M=4 --param K=500 --pes 4x4 --engine $eng > "$tmp/run.txt" 2>&1
  st=$?
  check_eval "matmul N=M=4 K=500 on 4x4 passes in $eng" "[ $st -eq 0 ] && grep -q '^verdict *pass' '$tmp/run.txt'"
done
"$TCPA" run $MM --map 0,1 --param N=4 --param M=4 --param K=1024 --pes 4x4 --engine model > "$tmp/run.txt" 2>&1
check "K = 1024 = iobuf.depth fills a bank exactly and passes in the model" $?
"$TCPA" instantiate "$tmp/mm.sym" --param N=4 --param M=4 --param K=1025 --pes 4x4 -o "$tmp/mm1025.bin" \
  > "$tmp/run.txt" 2>&1
st=$?
check_eval "K = 1025: exit 3 naming the access, the words needed and available" \
  "[ $st -eq 3 ] && grep -q 'access 0 (A): a tile spans 1025 bank words, iobuf.depth is 1024' '$tmp/run.txt'"
"$TCPA" run $MM --map 0,1 --param N=4 --param M=4 --param K=1025 --pes 4x4 --engine model > "$tmp/run.txt" 2>&1
st=$?
check_eval "K = 1025 in tcpa run: in chunks along k (docs/tiling.md), passes" \
  "[ $st -eq 0 ] && grep -q '^tiling *k in chunks' '$tmp/run.txt' && grep -q '^verdict *pass' '$tmp/run.txt'"
"$TCPA" run regress/programs/maxpool.pla --arch configs/big1d.ini --map 1 --param R=16 --param C=192 --pes 1x4 \
  --engine model > "$tmp/run.txt" 2>&1
check "1-D over columns: maxpool R=16 C=192 on 1x4 of big1d passes in the model" $?
exit $fail
