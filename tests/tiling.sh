#!/usr/bin/env bash
# covers: docs/tiling.md "The rule", "Chunk sizes", "Running the chunks", "In tcpa run"
# tiling.sh: problems whose arrays do not fit the banks of their region,
# run by `tcpa run` in chunks through the host runtime on the model
# (docs/tiling.md; runtime/rt_tile_*.c, regress/run_tile.c), on
# configs/default.ini (iobuf.depth 1024):
#   - matmul N = M = 4, K = 1500 on 4x4 (a size no other test uses): a
#     bank would hold 1500 words of A; cut along k, an accumulation: the
#     chunks' C added; passes, DIR/C.txt equal to the reference
#     interpreter's (--engine ref) on the whole problem, summary.json's
#     tiling with the chunks and the chunk's K;
#   - dotprod N = 5000 on 1x4: the sum from an initial value (bias)
#     carried from chunk to chunk, the max combined;
#   - stencil3 N = 4500 on 1x4 (tests/tiling/): neighbour reads, the
#     chunks' inputs overlap by two elements;
#   - refusals, nothing run, no outputs written: prefix (a partial sum
#     read at every iteration) and fir (its delay line carries values
#     from one chunk to the next) exit 3 naming the loop and the reason,
#     summary.json status nofit with each loop's rule; the matmul above on
#     --engine cosim exits 2 (the runtime runs on the model only); a
#     no-fit chunks do not cure (jacobi's division, pe.div = 0) exits 3 as
#     before, with no word of chunks; `tcpa run --help` says so;
#   - full tier: matmul N = 48, M = 40, K = 40 on 4x4 (fd depth): cut
#     along i and j, passes; conv CO=2 R=C=3 CI=300 KR=KC=2 on 1x4: cut
#     along ci (an accumulation whose equations also test kr and kc),
#     passes.
# Prints TAP.
set -u
. tests/tap.sh
MM=regress/programs/matmul.pla

# Runs `tcpa run` with the arguments after $1 (the out dir), status in $st.
trun() {
  local dir=$1
  shift
  "$TCPA" run "$@" --engine model --out-dir "$dir" > "$dir.out" 2> "$dir.err"
  st=$?
}

trun "$tmp/mm" $MM --map i,j --pes 4x4 --param N=4 --param M=4 --param K=1500
check_eval "matmul 4x4x1500 on 4x4 runs in chunks and passes (exit $st)" \
  "[ $st -eq 0 ] && grep -q '^verdict *pass' '$tmp/mm.out' && grep -q 'tiled by the host' '$tmp/mm.out'"
check_eval "nothing on stderr of a tiled run that passes" "[ ! -s '$tmp/mm.err' ]"
check_eval "summary.json: status pass, 2 chunks or more along k, the chunk's K < 1500, i and j whole" \
  "jq -e '.status == \"pass\" and .tiling.chunks >= 2 and .tiling.chunk_params.K < 1500 and
          .tiling.chunk_params.N == 4 and .tiling.loops[2].kind == \"accumulation\" and .tiling.differing == 0
          and .cycles > 0' '$tmp/mm/summary.json' > /dev/null"
"$TCPA" run $MM --param N=4 --param M=4 --param K=1500 --engine ref --out-dir "$tmp/mmref" > /dev/null 2>&1
check_eval "matmul's C from the chunks equals the reference interpreter's on the whole problem" \
  "cmp -s '$tmp/mm/C.txt' '$tmp/mmref/C.txt' && [ \$(wc -l < '$tmp/mm/C.txt') -ge 4 ]"

trun "$tmp/dp" regress/programs/dotprod.pla --pes 1x4 --param N=5000
check_eval "dotprod N=5000 on 1x4: the sum carried into the next chunk, the max combined; passes" \
  "[ $st -eq 0 ] && jq -e '.tiling.chunks >= 2 and .tiling.differing == 0' '$tmp/dp/summary.json' > /dev/null"

trun "$tmp/st" tests/tiling/stencil3.pla --pes 1x4 --param N=4500
check_eval "stencil3 N=4500 on 1x4: overlapping input chunks (halo); passes" \
  "[ $st -eq 0 ] && jq -e '.tiling.chunks >= 2 and .status == \"pass\"' '$tmp/st/summary.json' > /dev/null"

trun "$tmp/pf" tests/tiling/prefix.pla --pes 1x4 --param N=9001
check_eval "prefix: exit 3, loop i refused for its partial result read, nothing run" \
  "[ $st -eq 3 ] && grep -q 'loop i cannot be cut: line 12 reads s, a partial result' '$tmp/pf.err' &&
   grep -q 'iobuf.depth is 1024' '$tmp/pf.err' && [ ! -s '$tmp/pf.out' ] && [ ! -e '$tmp/pf/y.txt' ] &&
   [ ! -e '$tmp/pf/tiled.sym' ]"
check_eval "prefix: summary.json status nofit with loop i's rule" \
  "jq -e '.status == \"nofit\" and .tiling.loops[0].kind == \"fixed\" and
          (.tiling.loops[0].rule | test(\"partial result\"))' '$tmp/pf/summary.json' > /dev/null"

trun "$tmp/fir" regress/programs/fir.pla --pes 1x4 --param N=5000 --param T=4
check_eval "fir: exit 3, loops i and j refused for the delay line u, nothing run" \
  "[ $st -eq 3 ] && grep -q 'loop i cannot be cut: line 18 reads u at another iteration of i' '$tmp/fir.err' &&
   grep -q 'loop j cannot be cut' '$tmp/fir.err' && [ ! -e '$tmp/fir/y.txt' ]"

"$TCPA" run $MM --map i,j --pes 4x4 --param N=4 --param M=4 --param K=1500 --engine cosim > "$tmp/co.out" 2>&1
st=$?
check_eval "the same matmul on cosim: exit 2, the model only, nothing run" \
  "[ $st -eq 2 ] && grep -q 'on the model only: --engine cosim is not supported' '$tmp/co.out' &&
   ! grep -q '^verdict' '$tmp/co.out'"

"$TCPA" run regress/programs/jacobi.pla --pes 1x4 --param T=2 --param N=3000 --engine model > "$tmp/j.out" 2>&1
st=$?
check_eval "a no-fit chunks do not cure (pe.div): exit 3, no chunks" \
  "[ $st -eq 3 ] && grep -q 'pe.div = 0' '$tmp/j.out' && ! grep -q 'chunks' '$tmp/j.out'"

check_eval "tcpa run --help says problems too large for the banks run in chunks (docs/tiling.md)" \
  "\"\$TCPA\" run --help | grep -q 'docs/tiling.md'"

if full_tier; then
  trun "$tmp/mm2" $MM --map i,j --pes 4x4 --param N=48 --param M=40 --param K=40
  check_eval "full: matmul 48x40x40 on 4x4 (fd depth) cut along i and j; passes" \
    "[ $st -eq 0 ] && jq -e '.tiling.chunk_params.N < 48 and .tiling.chunk_params.M < 40 and
                             .tiling.chunk_params.K == 40 and .tiling.differing == 0' '$tmp/mm2/summary.json' > /dev/null"
  trun "$tmp/cv" regress/programs/conv.pla --pes 1x4 --param CO=2 --param R=3 --param C=3 --param CI=300 \
    --param KR=2 --param KC=2
  check_eval "full: conv CI=300 on 1x4 cut along ci (an accumulation under conditions on kr, kc); passes" \
    "[ $st -eq 0 ] && jq -e '.tiling.chunk_params.CI < 300 and .tiling.loops[3].kind == \"accumulation\" and
                             .tiling.differing == 0' '$tmp/cv/summary.json' > /dev/null"
fi
exit $fail
