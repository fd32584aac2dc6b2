#!/bin/bash
# covers: docs/symbolic.md "What each step computes",
#   docs/timing.md "3. FU issue"
# latency_mix.sh: a variable defined by several equations whose operations
# have different latencies (docs/symbolic.md, write-offset alignment); TAP.
# In the triangle 0 <= j <= i, P[i,j] = 1 on the borders (an ALU mov, 1
# cycle) and (P[i-1,j-1] + P[i-1,j]) * md inside (a multiply, 3 cycles on
# configs/big1d.ini). Both producers fed the same channel (od -> id) and
# where consecutive iterations alternate between them (every row meets the
# diagonal border) their results reached the od II cycles apart or less:
# two tokens in one cycle (fault wconflict, a token lost) or, with longer
# latencies, tokens out of order (wrong values without any fault). The
# mapper now moves the earlier producer later (map_sched.c, write-offset
# alignment); where that cannot bring them within II cycles, instantiation
# checks the concrete token order and exits 3 "channel order"
# (inst_fifo.c). Checks:
#   - the .sym of p10 (and of pascal on a long-latency configuration):
#     every od's producers write (tau + lat) within II cycles of each other;
#   - p10's .sym edited back to the unaligned schedule: instantiate exits 3
#     "channel order" (and, with the check skipped, the model faults with
#     wconflict); the aligned one simulates without a fault;
#   - p10 on 2x2 of big1d, N = 5..8, and on 2x3 and 3x3: the C model equals
#     the reference (or, where a resource runs out, exit 3, never 1); the
#     `% md` variant (divider, 6 cycles) too;
#   - pascal (tests/programs-extra) on the long-latency configuration of
#     the first report (alu 3, mul 7, div 11) on 2x2, 2x3, 3x3, and on
#     configs/unseen-2x3.ini on 2x2: equal to the reference;
#   - cosim (model and RTL in lockstep) of p10 N=6 and pascal N=9 on 2x2 of
#     configs/big1d.ini.
cd "$(dirname "$0")/.." || exit 1
. tests/tap.sh
BIG=configs/big1d.ini
PASCAL=tests/programs-extra/pascal.pla

cat > "$tmp/p10.pla" <<'EOF'
program p10(N) {
  in  int32 md;
  out int32 row[N];
  par (0 <= i < N, 0 <= j <= i) {
    P[i,j]  = 1                              if (j == 0 or j == i);
    P[i,j]  = (P[i-1,j-1] + P[i-1,j]) * md   if (j != 0 and j != i);
    row[j]  = P[i,j]                         if (i == N-1);
  }
}
EOF
sed 's/) \* md /) % md /' "$tmp/p10.pla" > "$tmp/p10div.pla"
python3 -c "import sys; s=open('$BIG').read(); open('$tmp/lat.ini','w').write(s.replace('[latency]\nalu = 1\nmul = 3\ndiv = 6','[latency]\nalu = 3\nmul = 7\ndiv = 11'))"

# od_spread SYM: "ODS SPREAD II": the number of ods written by two or more
# ops, the largest difference of the write offsets tau + lat of the ops
# writing one od, and II
od_spread() {
  awk '$1 == "ii" { ii = $2 }
       $1 == "op" { for (i = 3; i < NF; i++) { if ($i == "lat") l = $(i + 1); if ($i == "tau") t = $(i + 1) }
                    w[$2] = l + t }
       $1 == "leaf" && $9 == "od" { k = $10 SUBSEP $7
                    if (!(k in seen)) { seen[k] = 1; n[$10]++; v = w[$7]
                      if (!($10 in lo) || v < lo[$10]) lo[$10] = v
                      if (!($10 in hi) || v > hi[$10]) hi[$10] = v } }
       END { s = 0; m = 0; for (o in n) if (n[o] > 1) { m++; if (hi[o] - lo[o] > s) s = hi[o] - lo[o] }
             print m, s, ii }' "$1"
}

# run ARCH PROG PARAMS PES [ENGINE]: tcpa run, output in $tmp/run.txt
run() {
  local pa="" p
  for p in $3; do pa="$pa --param $p"; done
  rm -rf "$tmp/out"
  mkdir -p "$tmp/out"
  # shellcheck disable=SC2086
  $TCPA run "$2" --arch "$1" $pa --pes "$4" --engine "${5:-model}" --seed 3 --out-dir "$tmp/out" > "$tmp/run.txt" 2>&1
}

# -- the mapping: producers of one od write within II cycles --------------------
$TCPA compile "$tmp/p10.pla" --arch $BIG --map 0,1 -o "$tmp/p10.sym" > /dev/null 2>&1
check "compile p10 on big1d --map i,j" $?
read -r m s ii <<< "$(od_spread "$tmp/p10.sym")"
check_eval "p10 on big1d: $m ods written by two ops (mov and mul), write offsets $s apart < II $ii" \
  "[ '$m' -ge 1 ] && [ '$s' -lt '$ii' ]"
$TCPA compile $PASCAL --arch "$tmp/lat.ini" --map 0,1 -o "$tmp/pascal.sym" > /dev/null 2>&1
check "compile pascal on the long-latency configuration --map i,j" $?
read -r m s ii <<< "$(od_spread "$tmp/pascal.sym")"
check_eval "pascal (alu 3, div 11): every od's producers write within II: spread $s < II $ii ($m shared ods)" \
  "[ -n '$ii' ] && [ '$s' -lt '$ii' ]"

# -- the instantiator's channel-order check: p10's .sym with the mov moved
# back to tau 0 (the schedule before the alignment: write offsets 1 and 4, II 3)
sed -e 's/^\(op 0 .* lat 1 \)tau [0-9]* /\1tau 0 /' -e 's/^leaf fu \([0-9]*\) tau [0-9]* op 0 /leaf fu \1 tau 0 op 0 /' \
  "$tmp/p10.sym" > "$tmp/p10u.sym"
$TCPA instantiate "$tmp/p10u.sym" --arch $BIG --param N=5 --pes 2x2 -o "$tmp/p10u.bin" > /dev/null 2> "$tmp/err"
st=$?
check_eval "unaligned p10 .sym: instantiate exits 3 naming the channel order ($(head -c 150 "$tmp/err"))" \
  "[ $st -eq 3 ] && grep -q 'channel order: channel od[0-9]* -> id[0-9]* from PE (0,0): the value of iteration' '$tmp/err' && [ ! -e '$tmp/p10u.bin' ]"
$TCPA instantiate "$tmp/p10u.sym" --arch $BIG --param N=5 --pes 2x2 --no-fifo-check -o "$tmp/p10u.bin" \
  > /dev/null 2>&1
$TCPA sim "$tmp/p10u.bin" --arch $BIG > "$tmp/sim.txt" 2>&1
check_eval "unaligned p10 with the check skipped: the model faults (wconflict), as it did before the alignment" \
  "[ $? -eq 1 ] && grep -q 'wconflict' '$tmp/sim.txt'"
$TCPA instantiate "$tmp/p10.sym" --arch $BIG --param N=5 --pes 2x2 -o "$tmp/p10a.bin" > /dev/null 2>&1 &&
  $TCPA sim "$tmp/p10a.bin" --arch $BIG > "$tmp/sim.txt" 2>&1
check_eval "aligned p10: instantiated and simulated without a fault" "[ $? -eq 0 ] && ! grep -q fault '$tmp/sim.txt'"

# -- p10 in the C model ---------------------------------------------------------
for N in 5 6 7 8; do
  run $BIG "$tmp/p10.pla" "N=$N" 2x2
  st=$?
  check_eval "p10 N=$N on 2x2 of big1d: the model equals the reference, or exit 3 naming a resource (exit $st)" \
    "{ [ $st -eq 0 ] && grep -q 'verdict   pass' '$tmp/run.txt'; } || { [ $st -eq 3 ] && grep -q 'does not fit' '$tmp/run.txt'; }"
  [ $N -le 6 ] && check "p10 N=$N on 2x2 of big1d runs (exit 0)" $st
done
for pes in 2x3 3x3; do
  run $BIG "$tmp/p10.pla" "N=7" $pes
  check "p10 N=7 on $pes of big1d: the model equals the reference" $?
done
for N in 5 6; do
  run $BIG "$tmp/p10div.pla" "N=$N" 2x2
  check "p10 with % md (divider, 6 cycles) N=$N on 2x2 of big1d: the model equals the reference" $?
done

# -- pascal: wrong values without faults before ---------------------------------
for pes in 2x2 2x3 3x3; do
  run "$tmp/lat.ini" $PASCAL "N=9" $pes
  check "pascal N=9 on $pes, alu 3 mul 7 div 11: the model equals the reference" $?
done
for N in 7 9; do
  run configs/unseen-2x3.ini $PASCAL "N=$N" 2x2
  check "pascal N=$N on 2x2 of unseen-2x3: the model equals the reference" $?
done

# -- cosim on configs/big1d.ini -----------------------------------------------
if full_tier; then  # big1d's harness
  run $BIG "$tmp/p10.pla" "N=6" 2x2 cosim
  check_eval "cosim p10 N=6 on 2x2 of big1d: traces agree, outputs equal the reference" \
    "[ $? -eq 0 ] && grep -q 'traces agree' '$tmp/run.txt'"
  run $BIG $PASCAL "N=9" 2x2 cosim
  check_eval "cosim pascal N=9 on 2x2 of big1d: traces agree, outputs equal the reference" \
    "[ $? -eq 0 ] && grep -q 'traces agree' '$tmp/run.txt'"
fi

exit $fail
