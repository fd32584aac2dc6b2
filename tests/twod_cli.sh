#!/bin/bash
# covers: docs/symbolic.md "2-D regions", docs/instantiate.md "2-D regions"
# twod_cli.sh: n-D loops on 2-D PE regions (tcpa compile --map I,J, tcpa
# instantiate --pes RxC, tcpa run --pes RxC [--map I,J]); TAP.
#   - the .sym of a 2-D mapping: version 2, mapped2, lambda-k2, tile
#     displacement pairs, a diagonal channel routed over two hops; bad
#     --map forms exit 2; a 1-D .sym on an RxC region exit 2;
#   - tcpa run --engine model (which checks every output against the
#     reference interpreter, exit 0 = pass) of matmul, fir, trimv, conv,
#     maxpool, band on configs/big1d.ini, region 4x4 (the full
#     tier: 2x2, 2x4, 4x2, 3x3, 4x4),
#     loop bounds that divide the region evenly and that do not; outputs
#     of inner PEs travel through pass-through hops to the border banks;
#   - summary.json pes [R, C]; --map j,i (transposed) and the default map;
#   - does not fit: a 1-D program on 2x2, configs/default.ini (resource
#     named; matmul N=M=4 needs 2x2 tiles, N=M=2 fits since tile size 1),
#     an inner PE's output that the interconnect cannot carry
#     (exit 3 naming side, row/column, channels needed and available);
#   - --engine cosim (model and RTL) on configs/default.ini (two small 2-D
#     programs written here: a diagonal channel, inner-PE I/O) and on
#     configs/big1d.ini (fir, matmul).
cd "$(dirname "$0")/.." || exit 1
. tests/tap.sh
BIG=configs/big1d.ini

# -- compile --map I,J -------------------------------------------------------
$TCPA compile regress/programs/fir.pla --arch $BIG --map i,j -o "$tmp/fir.sym" > "$tmp/out" 2>&1
check "compile fir --map i,j: exit 0" $?
check_eval "fir .sym: version 2 header" "[ \"\$(head -1 $tmp/fir.sym)\" = 'tcpa-sym 2' ]"
check_eval "fir .sym: mapped 0 axis both, mapped2 1, lambda-k2" \
  "grep -q '^mapped 0 axis both' $tmp/fir.sym && grep -q '^mapped2 1 p_min' $tmp/fir.sym && grep -q '^lambda-k2 ' $tmp/fir.sym"
check_eval "fir .sym: x's dependence (1,1) split into (1,0), (0,1) and the diagonal (1,1)" \
  "grep -q 'd 1,1 theta 1,1 ' $tmp/fir.sym && grep -q 'd 1,1 theta 1,0 ' $tmp/fir.sym && grep -q 'd 1,1 theta 0,1 ' $tmp/fir.sym"
check_eval "fir .sym: the diagonal channel takes two hops (E then S, through the intermediate wrapper)" \
  "grep -Eq '^route [0-9]+ edge [0-9]+ delta 1,1 od[0-9]+ [EW][0-9]+ [EW][0-9]+ [NS][0-9]+ [NS][0-9]+ id[0-9]+ hops 2' $tmp/fir.sym"
check_eval "fir compile report names both dimensions" "grep -q 'mapped dimensions i onto the rows' $tmp/out"
$TCPA compile regress/programs/fir.pla --arch $BIG --map 1,0 -o "$tmp/fir10.sym" > /dev/null 2>&1
st=$?
check_eval "compile --map 1,0 (numbers): rows j, columns i" "[ $st -eq 0 ] && grep -q '^mapped 1 axis both' $tmp/fir10.sym && grep -q '^mapped2 0 ' $tmp/fir10.sym"
$TCPA compile regress/programs/fir.pla --arch $BIG --map i,i -o "$tmp/x.sym" > /dev/null 2>"$tmp/err"
st=$?
check_eval "compile --map i,i: exit 2" "[ $st -eq 2 ] && grep -q 'two different dimensions' $tmp/err"
$TCPA compile regress/programs/fir.pla --arch $BIG --map i,q -o "$tmp/x.sym" > /dev/null 2>"$tmp/err"
st=$?
check_eval "compile --map i,q: exit 2" "[ $st -eq 2 ] && [ ! -e $tmp/x.sym ]"

# -- instantiate --pes RxC ---------------------------------------------------
$TCPA instantiate "$tmp/fir.sym" --arch $BIG --param N=7 --param T=5 --pes 3x2 -o "$tmp/fir.bin" \
  --listing "$tmp/fir.lst" > "$tmp/out" 2>&1
st=$?
check_eval "instantiate fir N=7 T=5 on 3x2: exit 0, 3x2 PEs, p = 3 x 3" \
  "[ $st -eq 0 ] && grep -q 'region 3x2, 3x2 PEs used, p = 3 x 3' $tmp/out"
$TCPA compile regress/programs/fir.pla --arch $BIG -o "$tmp/fir1d.sym" > /dev/null 2>&1
$TCPA instantiate "$tmp/fir1d.sym" --arch $BIG --param N=7 --param T=5 --pes 2x2 -o "$tmp/x.bin" > /dev/null 2>"$tmp/err"
st=$?
check_eval "1-D .sym on 2x2: exit 2 (compiled for a 1xC region)" "[ $st -eq 2 ] && grep -q 'compiled for a 1xC region' $tmp/err"
$TCPA instantiate "$tmp/fir.sym" --arch $BIG --param N=7 --param T=5 --pes 5x2 -o "$tmp/x.bin" > /dev/null 2>"$tmp/err"
st=$?
check_eval "2-D .sym on 5x2 of a 4x4 array: exit 3" "[ $st -eq 3 ] && grep -q 'does not fit the 4x4 array' $tmp/err"

# a 32x32 region: inner PEs' outputs reach all four borders (the chains from
# the south and east take the PEs nearer those sides); processor classes do
# not grow with the region: 1, as on 4x4 (the last row and column write the
# channels' ods too, their tokens leave the region: docs/instantiate.md
# "2-D regions"; 4 classes before)
$TCPA compile regress/programs/matmul.pla --arch configs/array32.ini --map i,j -o "$tmp/mm.sym" > /dev/null 2>&1
$TCPA instantiate "$tmp/mm.sym" --arch configs/array32.ini --param N=64 --param M=64 --param K=4 --pes 32x32 \
  -o "$tmp/mm.bin" --layout "$tmp/mm.lay" > "$tmp/out" 2>&1
st=$?
check_eval "matmul N=M=64 on 32x32 (array32.ini): exit 0, 1 processor class" \
  "[ $st -eq 0 ] && grep -q '32x32 PEs used, p = 2 x 2, II [0-9]*, 1 processor class,' $tmp/out"
check_eval "... outputs placed on all four sides' banks" \
  "(for x in n e s w; do awk '{print \$5}' $tmp/mm.lay | grep -qx \$x || exit 1; done)"
# AG packets merged by payload: a run of border banks with equal payloads
# (inner-PE chains of one ring of the region) is one packet, so the count
# grows with the sides and banks, not with the 1024 PEs (it was 968)
$TCPA disasm "$tmp/mm.bin" --arch configs/array32.ini > "$tmp/mm.tasm" 2>&1
nag=$(grep -c '^ag ' "$tmp/mm.tasm")
check_eval "matmul 32x32: $nag AG packets <= 4 sides x 16 banks + 3 accesses x 4 sides (not one per PE)" \
  "[ $nag -gt 0 ] && [ $nag -le $((4 * 16 + 3 * 4)) ]"
check_eval "matmul 32x32: merged AG packets span runs of border PEs (pe 0,A..B or A..B,0)" \
  "grep -Eq '^ag side n bank [0-9]+ pe 0,[0-9]+\.\.[0-9]+$' $tmp/mm.tasm && grep -Eq '^ag side w bank [0-9]+ pe [0-9]+\.\.[0-9]+,0$' $tmp/mm.tasm"
nwr=$(grep -c '^wrapper ' "$tmp/mm.tasm")
check_eval "matmul 32x32: $nwr WRAPPER packets < 1024 PEs / 4 (column chains: a row's wrappers are equal)" \
  "[ $nwr -gt 0 ] && [ $nwr -lt 256 ] && grep -Eq '^wrapper pe [0-9]+,[0-9]+\.\.[0-9]+$' $tmp/mm.tasm"
grep '^stream: ' "$tmp/out" > "$tmp/split"
check_eval "instantiate prints the stream split: configuration + IODATA data = stream bytes" \
  "awk '{ exit !(\$2 == \$5 + \$9 && \$9 > 0) }' $tmp/split && [ \$(awk '{print \$2}' $tmp/split) -eq \$(stat -c %s $tmp/mm.bin) ]"
$TCPA compile regress/programs/matmul.pla --arch $BIG --map i,j -o "$tmp/mmb.sym" > /dev/null 2>&1
$TCPA instantiate "$tmp/mmb.sym" --arch $BIG --param N=8 --param M=8 --param K=3 --pes 4x4 -o "$tmp/mmb.bin" \
  > "$tmp/out" 2>&1
# AG packets merged over runs of border PEs: at most one per side and bank
# used (A west, B north, C's chains on the four sides), not one per PE
nag=$($TCPA disasm "$tmp/mmb.bin" --arch $BIG 2>/dev/null | grep -c '^ag ')
nsb=$($TCPA disasm "$tmp/mmb.bin" --arch $BIG 2>/dev/null | awk '/^ag / { print $3, $5 }' | sort -u | wc -l)
check_eval "matmul 4x4 on big1d.ini: $nag AG packets <= 2 x $nsb sides and banks used (16 PEs x 3 unmerged)" \
  "[ $nag -gt 0 ] && [ $nag -le \$(( 2 * nsb )) ] && [ $nag -lt 48 ]"

# matmul on 4x4 of default.ini: A (read at j = 0 only) on the id of a's
# channel from the west, B (i = 0) on b's from the north, their banks on
# those channels' ports (docs/instantiate.md, "2-D regions"): the first row
# and column run the inner PEs' words, and the last ones write the
# channels' ods too: 1 processor class (9 before the first row and column
# shared the channels' ids, 4 before the last wrote the ods; the paper has
# 2)
$TCPA compile regress/programs/matmul.pla --map 0,1 -o "$tmp/mm4.sym" > "$tmp/out" 2>&1
check_eval "compile matmul --map 0,1 (default.ini): id 2 (A and B on the channels' ids)" \
  "grep -q 'registers: .* id 2/4,' $tmp/out"
$TCPA instantiate "$tmp/mm4.sym" --param N=16 --param M=16 --param K=16 --pes 4x4 -o "$tmp/mm4.bin" \
  --listing "$tmp/mm4.lst" --layout "$tmp/mm4.lay" > "$tmp/out" 2>&1
st=$?
check_eval "matmul N=M=K=16 on 4x4: exit 0, 1 processor class (4 by Algorithm 1)" \
  "[ $st -eq 0 ] && grep -q '4x4 PEs used, p = 4 x 4, II [0-9]*, 1 processor class,' $tmp/out &&
   grep -q '^processor classes: 1 (from [0-9]* inter-tile domains; 4 before merging' $tmp/mm4.lst"
check_eval "matmul 4x4: one class holds every PE" \
  "grep -qx '  class 0: PEs { \[k0, k1, k2 = 0\] : 0 <= k0 <= 3 and 0 <= k1 <= 3 }' $tmp/mm4.lst"
check_eval "matmul 4x4: A's bank on the west side (a's channel), B's on the north (b's), on PE (0,0) too" \
  "grep -Eq '^access [0-9]+: read A via id[0-9]+, west bank' $tmp/mm4.lst &&
   grep -Eq '^access [0-9]+: read B via id[0-9]+, north bank' $tmp/mm4.lst"

# -- tcpa run --engine model on 2-D regions ----------------------------------
# model PROG "P=V ..." RxC [MAP]: the run's exit status (0: outputs equal
# the reference interpreter's).
model() {
  local prog=$1 params=$2 pes=$3 map=${4:-} pa="" p
  for p in $params; do pa="$pa --param $p"; done
  # shellcheck disable=SC2086
  $TCPA run regress/programs/$prog.pla --arch $BIG $pa --pes "$pes" ${map:+--map $map} --engine model \
    > "$tmp/run.out" 2>&1
  local st=$?
  check "$prog $params on $pes${map:+ --map $map} (model): exit 0 $(grep -o 'II [0-9]*' "$tmp/run.out" | head -1)" $st
}
# the fast tier: the largest region; the full tier: all five
regions="4x4"
full_tier && regions="2x2 2x4 4x2 3x3 4x4"
for pes in $regions; do
  model matmul "N=4 M=4 K=3" $pes i,j       # divides 2x2, 2x4 (rows), 4x4
  model matmul "N=5 M=6 K=2" $pes i,j       # divides 2x2, 3x3 (columns) only
  model fir "N=8 T=8" $pes i,j
  model fir "N=7 T=5" $pes i,j
  model trimv "N=8" $pes
  full_tier && model trimv "N=7" $pes  # (the fast tier: one bound each of trimv and maxpool)
  model conv "CO=4 R=4 C=3 CI=1 KR=2 KC=2" $pes o,r
  model maxpool "R=4 C=4" $pes
  full_tier && model maxpool "R=5 C=3" $pes
done
model band "N=6 W=5" 2x2
model band "N=7 W=6" 3x3
model matmul "N=6 M=5 K=2" 3x2 j,i   # transposed: j onto the rows
model fir "N=9 T=6" 2x3 j,i

# summary.json: pes [R, C]
$TCPA run regress/programs/matmul.pla --arch $BIG --param N=3 --param M=5 --param K=2 --pes 2x3 --engine model \
  --out-dir "$tmp/od" > /dev/null 2>&1
check_eval "summary.json: status pass, pes [2, 3]" \
  "grep -q '\"status\": *\"pass\"' $tmp/od/summary.json && tr -d ' \n' < $tmp/od/summary.json | grep -q '\"pes\":\[2,3\]'"

# -- does not fit: exit 3 ----------------------------------------------------
$TCPA run regress/programs/bitextract.pla --arch $BIG --param N=8 --pes 3x2 --engine model > "$tmp/out" 2>"$tmp/err"
st=$?
check_eval "1-D program on 3x2: runs on its first column (3x1), exit 0 (was exit 3)" \
  "[ $st -eq 0 ] && grep -q 'on the first column of the 3x2 region (3x1)' $tmp/out"
$TCPA run regress/programs/matmul.pla --param N=4 --param M=4 --param K=3 --pes 2x2 --engine model --map i \
  > /dev/null 2>"$tmp/err"
st=$?
check_eval "--map with one index on 2x2: exit 2" "[ $st -eq 2 ] && grep -q 'two loop indices' $tmp/err"
# (matmul N=4 M=4 K=2 fits 2x2 of default.ini since it maps at II 2: below)
# band needs 7 ods on 2-D regions (docs/symbolic.md "What fits")
for prog in "band N=5 W=4"; do
  set -- $prog
  p=$1
  shift
  pa=""
  for a in "$@"; do pa="$pa --param $a"; done
  # shellcheck disable=SC2086
  $TCPA run regress/programs/$p.pla $pa --pes 2x2 --engine model > /dev/null 2>"$tmp/err"
  st=$?
  check_eval "$p on configs/default.ini 2x2: exit 3 naming the resource ($(grep -o 'does not fit: [a-z. ]*' "$tmp/err" | head -1))" \
    "[ $st -eq 3 ] && grep -Eq 'does not fit: .*(pe\\.|imem|ports|banks)' $tmp/err"
done
# fir fits 2x2 of default.ini since its chain u[i,j] = u[i-1,j-1] is read
# again as x[i-j] (docs/symbolic.md, "Re-reading"; it needed id 7, od 6)
$TCPA run regress/programs/fir.pla --param N=8 --param T=4 --pes 2x2 --engine model > /dev/null 2>&1
check "fir N=8 T=4 on configs/default.ini 2x2: fits, model = reference" $?
# trimv fits 2x2 of default.ini since its propagated x is read again
# (docs/symbolic.md, "Re-reading propagated inputs"; it needed id 5)
$TCPA run regress/programs/trimv.pla --param N=6 --pes 2x2 --engine model > /dev/null 2>&1
check "trimv N=6 on configs/default.ini 2x2: fits, model = reference" $?
$TCPA run regress/programs/matmul.pla --param N=4 --param M=4 --param K=2 --pes 2x2 --engine model > /dev/null 2>&1
check "matmul N=4 M=4 K=2 on configs/default.ini 2x2: fits, model = reference" $?
# an inner PE's I/O that the interconnect cannot carry: three ports and
# three banks per side; maxpool's border PEs take all three of their side's
# banks for their own accesses (the corners keep three), and the bent
# chains from the corners (docs/instantiate.md) carry only part of PE
# (1,1)'s three accesses
sed 's/^ports = 8/ports = 3/; s/^banks = 8/banks = 3/' $BIG > "$tmp/narrow.ini"
$TCPA run regress/programs/maxpool.pla --arch "$tmp/narrow.ini" --param R=3 --param C=3 --pes 3x3 \
  --engine model > /dev/null 2>"$tmp/err"
st=$?
check_eval "inner PE I/O that cannot be routed: exit 3" "[ $st -eq 3 ]"
check_eval "... naming the PE, the side, the column and row, channels needed and available" \
  "grep -q 'PE (1,1) is not on the array border' $tmp/err && grep -q 'north side, column 1 (1 hops): channels needed 4, available 3' $tmp/err && grep -q 'west side, row 1 (1 hops): channels needed 4, available 3' $tmp/err"
# with two ports and two banks (matmul's PE (1,1) once found no straight
# chain north or west) a bent chain from PE (0,0) carries C
sed 's/^ports = 8/ports = 2/; s/^banks = 8/banks = 2/' $BIG > "$tmp/two.ini"
$TCPA run regress/programs/matmul.pla --arch "$tmp/two.ini" --param N=4 --param M=4 --param K=2 --pes 2x2 \
  --engine model --out-dir "$tmp/bent" > /dev/null 2>&1
check "matmul on 2x2 with two ports and banks: PE (1,1) served by a bent chain, model = reference" $?
# the same program with banks to spare routes it (pass-through hops)
sed 's/^ports = 8/ports = 3/; s/^banks = 8/banks = 3/' $BIG > "$tmp/mid.ini"
$TCPA run regress/programs/matmul.pla --arch "$tmp/mid.ini" --param N=4 --param M=4 --param K=2 --pes 2x2 \
  --engine model > /dev/null 2>&1
check "the same with 3 ports and banks: C of PE (1,1) routed through PE (0,1): exit 0" $?

# -- cosim (model and RTL compared) -----------------------------------------
# Two small programs that fit configs/default.ini (RTL build/bin/tcpa-rtl):
# prefix2 (running sums along the columns' dimension; inner PEs' I/O
# through pass-through hops) and diag3 (a value carried along the diagonal:
# channels of displacement (1,0), (0,1) and the two-hop (1,1)).
cat > "$tmp/prefix2.pla" <<'PLA'
program prefix2(N, M) {
  in  int32 A[N, M];
  out int32 B[N, M];
  par (0 <= i < N, 0 <= j < M) {
    s[i,j] = A[i,j]                 if (j == 0);
    s[i,j] = s[i,j-1] + A[i,j]      if (j >= 1);
    B[i,j] = s[i,j];
  }
}
PLA
cat > "$tmp/diag3.pla" <<'PLA'
program diag3(N, M) {
  out int32 B[N, M];
  par (0 <= i < N, 0 <= j < M) {
    u[i,j] = 1                      if (i == 0 or j == 0);
    u[i,j] = u[i-1,j-1] + 3         if (i >= 1 and j >= 1);
    B[i,j] = u[i,j];
  }
}
PLA
$TCPA compile "$tmp/diag3.pla" --map i,j -o "$tmp/diag3.sym" > /dev/null 2>&1
check_eval "diag3 on default.ini: a two-hop diagonal route in the .sym" "grep -Eq '^route .* delta 1,1 .* hops 2\$' $tmp/diag3.sym"
# cosim FILE "P=V ..." RxC [ARCH]: exit status of a cosim run
cosim() {
  local prog=$1 params=$2 pes=$3 arch=${4:-configs/default.ini} pa="" p
  for p in $params; do pa="$pa --param $p"; done
  # shellcheck disable=SC2086
  $TCPA run "$prog" --arch "$arch" $pa --pes "$pes" --engine cosim > "$tmp/run.out" 2>&1
  vst=$?; check "$(basename "$prog" .pla) $params on $pes, $(basename "$arch") (cosim): exit 0" $vst
}
for pes in 2x2 3x2 2x3 4x4; do cosim "$tmp/diag3.pla" "N=5 M=7" $pes; done
cosim "$tmp/diag3.pla" "N=4 M=4" 2x2
for pes in 2x2 2x4; do cosim "$tmp/prefix2.pla" "N=5 M=7" $pes; done
cosim "$tmp/prefix2.pla" "N=4 M=8" 2x4
# configs/big1d.ini (its harness): the full tier only
if full_tier; then
  cosim regress/programs/fir.pla "N=6 T=5" 2x2 $BIG
  cosim regress/programs/matmul.pla "N=3 M=5 K=2" 2x3 $BIG
fi

exit $fail
