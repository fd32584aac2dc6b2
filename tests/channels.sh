#!/usr/bin/env bash
# covers: docs/symbolic.md "What each step computes (paper section 5)"
# channels.sh: one token stream per value and direction (docs/symbolic.md,
# "One token stream per value and direction"). gcd and jacobi on 2-D
# regions of configs/big1d.ini (pe.id = pe.od = 8) needed id 10, od 9 and
# id 9, od 9 with an od, an id and a channel per consumer operand, so they
# ran on no 2-D region of any configuration. TAP.
#   - tcpa compile --map 0,1: gcd exits 0 with at most 8 ids and ods, and
#     its .sym has an od routed to two ids over one wrapper port (the
#     fan-out); jacobi exits 0 (its boundary copy gathered beside the sum:
#     one id serves both);
#   - tcpa run --engine model (every output checked against the reference
#     interpreter) of gcd and jacobi on 2x2 and 4x4, bounds that divide
#     the region evenly and that do not;
#   - the full tier: two of the six in cosim (model and RTL in lockstep,
#     big1d's harness); the nightly tier all six.
# Environment: TCPA (default build/bin/tcpa).
cd "$(dirname "$0")/.." || exit 1
. tests/tap.sh
BIG=configs/big1d.ini

# -- compile ----------------------------------------------------------------
$TCPA compile regress/programs/gcd.pla --arch $BIG --map 0,1 -o "$tmp/gcd.sym" > "$tmp/out" 2>&1
check "compile gcd --map 0,1 on big1d.ini: exit 0" $?
# regs OUT: "ID OD" from the compile report's register line
regs() { sed -n 's/^registers: .* id \([0-9]*\)\/8, od \([0-9]*\)\/8.*/\1 \2/p' "$1"; }
set -- $(regs "$tmp/out")
check_eval "gcd: at most 8 ids and ods (id ${1:-?}, od ${2:-?})" "[ -n '${2:-}' ] && [ $1 -le 8 ] && [ $2 -le 8 ]"
# an od on two routes with different ids and the same wrapper port
fan=$(awk '$1 == "route" { key = $7 " " $8; if (key in id && id[key] != $(NF-2)) n++; id[key] = $(NF-2) }
  END { print n + 0 }' \
  "$tmp/gcd.sym")
check_eval "gcd .sym: an od fanned out to two ids over one port ($fan routes)" "[ $fan -ge 2 ]"
$TCPA compile regress/programs/jacobi.pla --arch $BIG --map 0,1 -o "$tmp/jac.sym" > "$tmp/out" 2>&1
check "compile jacobi --map 0,1 on big1d.ini: exit 0" $?
set -- $(regs "$tmp/out")
check_eval "jacobi: at most 8 ids and ods (id ${1:-?}, od ${2:-?})" "[ -n '${2:-}' ] && [ $1 -le 8 ] && [ $2 -le 8 ]"

# -- run: model, then (full tier) cosim -------------------------------------
# run ENGINE PROG "P=V ..." RxC: one run against the reference
run() {
  local pa=""
  for p in $3; do pa="$pa --param $p"; done
  $TCPA run "regress/programs/$2.pla" --arch $BIG $pa --pes "$4" --engine "$1" --out-dir "$tmp/run" \
    > "$tmp/run.out" 2>&1
  local st=$?
  check_eval "$2 $3 on $4 ($1): exit 0, verdict pass" "[ $st -eq 0 ] && grep -q '^verdict   pass' $tmp/run.out"
}
for engine in model cosim; do
  [ $engine = cosim ] && ! full_tier && break
  # cosim in the full tier: gcd uneven, jacobi uneven on 4x4 (the other
  # four in the nightly tier)
  full=$([ $engine = cosim ] && ! nightly_tier && echo 1)
  [ -n "$full" ] || run $engine gcd "N=8 S=6" 2x2
  [ -n "$full" ] || run $engine gcd "N=16 S=8" 4x4
  run $engine gcd "N=5 S=3" 4x4
  [ -n "$full" ] || run $engine jacobi "T=6 N=8" 2x2
  run $engine jacobi "T=9 N=13" 4x4
  [ -n "$full" ] || run $engine jacobi "T=2 N=4" 4x4
done
exit $fail
