#!/bin/bash
# covers: docs/instantiate.md "Input FIFO depth",
#   docs/timing.md "5. Interconnect"
# fifo_depth.sh: the input-FIFO depth check of instantiation
# (docs/instantiate.md, "Input FIFO depth", compiler/inst/inst_fifo.c); TAP.
# A propagation channel whose consumer PE reads later than the producer
# writes holds tokens in the consumer's input FIFO; more than pe.fifo_depth
# of them overflowed at run time (model and RTL alike). Now `tcpa run`
# exits 3 with "does not fit: pe.fifo_depth: channel odX -> idY from PE
# (r,c) into PE (r,c) holds up to N values, pe.fifo_depth = D". For every
# reproduction of the first reports (matmul, fir, bmv3, bmm4) and matmul on
# configs/big1d.ini itself:
#   - with pe.fifo_depth = 1 the message names N, the computed occupancy;
#   - with pe.fifo_depth = N the C model runs and equals the reference
#     (the edge: exactly enough);
#   - with pe.fifo_depth = N - 1: exit 3 naming N and N - 1, and with the
#     check skipped (--no-fifo-check) the model really overflows
#     (so N is exact, not a bound);
#   - on configs/big1d.ini (depth 16) the edge case runs in cosim (model
#     and RTL in lockstep, build/rtl/big1d/tcpa-rtl) too.
# Configurations other than configs/*.ini are written to $tmp (model only:
# only configs/ have an RTL harness).
cd "$(dirname "$0")/.." || exit 1
. tests/tap.sh
BIG=configs/big1d.ini

# U28: the 2x8 configuration of tests/unseen.sh (pe.fifo_depth 8)
U28=tests/configs/u28.ini

# depth_cfg BASE D: writes BASE with pe.fifo_depth = D to $tmp, prints its path
depth_cfg() {
  local f
  f="$tmp/$(basename "$1" .ini)-fd$2.ini"
  sed "s/^fifo_depth = .*/fifo_depth = $2/" "$1" > "$f"
  echo "$f"
}

# run ARCH PROG PARAMS PES MAP [ENGINE]: tcpa run (model unless ENGINE;
# the options $RUN_EXTRA too); stdout+stderr in $tmp/run.txt; returns
# tcpa's exit status
run() {
  local pa="" p mp=""
  for p in $3; do pa="$pa --param $p"; done
  [ "$5" != - ] && mp="--map $5"
  rm -rf "$tmp/out"
  mkdir -p "$tmp/out"
  # shellcheck disable=SC2086
  $TCPA run "$2" --arch "$1" $pa --pes "$4" $mp --engine "${6:-model}" ${RUN_EXTRA:-} --out-dir "$tmp/out" \
    > "$tmp/run.txt" 2>&1
}

# edge NAME BASE PROG PARAMS PES MAP: the checks of the top of the file
edge() {
  local name="$1" base="$2" need st msg
  shift 2
  run "$(depth_cfg "$base" 1)" "$@"
  st=$?
  need=$(grep -o 'holds up to [0-9]* values, pe.fifo_depth = 1$' "$tmp/run.txt" | grep -o '[0-9]\+' | head -n 1)
  msg=$(grep -o 'does not fit: pe.fifo_depth: channel od[0-9]* -> id[0-9]* from PE ([0-9]*,[0-9]*) into PE ([0-9]*,[0-9]*) holds up to [0-9]* values, pe.fifo_depth = 1' "$tmp/run.txt")
  check_eval "$name, pe.fifo_depth 1: exit 3 naming the channel, the PEs and the values held ($msg)" \
    "[ $st -eq 3 ] && [ -n '$msg' ] && [ -n '$need' ] && [ '$need' -ge 2 ]"
  [ -n "$need" ] || need=2
  run "$(depth_cfg "$base" "$need")" "$@"
  st=$?
  check_eval "$name, pe.fifo_depth $need (exactly enough): the model equals the reference" \
    "[ $st -eq 0 ] && grep -q 'verdict   pass' '$tmp/run.txt'"
  run "$(depth_cfg "$base" $((need - 1)))" "$@"
  st=$?
  check_eval "$name, pe.fifo_depth $((need - 1)): exit 3, $need values and depth $((need - 1)) named" \
    "[ $st -eq 3 ] && grep -q 'pe.fifo_depth: channel .* holds up to $need values, pe.fifo_depth = $((need - 1))' '$tmp/run.txt'"
  RUN_EXTRA=--no-fifo-check run "$(depth_cfg "$base" $((need - 1)))" "$@"
  check_eval "$name, pe.fifo_depth $((need - 1)) with the check skipped: the model overflows (the bound is exact)" \
    "grep -q 'faults:.*overflow' '$tmp/run.txt' && grep -q 'verdict   fail' '$tmp/run.txt'"
}

# (the fast tier: matmul; the full tier fir, bmv3 and bmm4 too, 2 to 5 s
# a run)
edge "matmul N=4 M=9 K=3 on 2x2 of big1d" $BIG regress/programs/matmul.pla "N=4 M=9 K=3" 2x2 -
if full_tier; then
  edge "fir N=30 T=4 on 1x2 of big1d" $BIG regress/programs/fir.pla "N=30 T=4" 1x2 -
  edge "bmv3 B=1 N=2 K=17 on 2x2 of u28 --map 1,2" "$U28" tests/programs-extra/bmv3.pla "B=1 N=2 K=17" 2x2 1,2
  edge "bmm4 Q=2 N=2 M=2 K=17 on 2x2 of u28 --map 2,3" "$U28" tests/programs-extra/bmm4.pla \
    "Q=2 N=2 M=2 K=17" 2x2 2,3
fi

# -- the first reports of FIFO overflow, as they were reported ---------------
run "$(depth_cfg $BIG 2)" regress/programs/matmul.pla "N=4 M=9 K=3" 2x2 -
# (id1 since B, read on the first row only, shares that channel's id:
# docs/symbolic.md "Registers"; it was id3)
check_eval "first report: matmul N=4 M=9 K=3 on 2x2, fifo_depth 2: exit 3, channel od1 -> id1 into PE (1,0), 4 values" \
  "[ $? -eq 3 ] && grep -q 'matmul does not fit: pe.fifo_depth: channel od1 -> id1 from PE (0,0) into PE (1,0) holds up to 4 values, pe.fifo_depth = 2' '$tmp/run.txt'"
for k in 16 17; do
  full_tier || break # (bmv3's first reports: the full tier's)
  run "$U28" tests/programs-extra/bmv3.pla "B=1 N=2 K=$k" 2x2 1,2
  st=$?
  if [ $k -eq 16 ]; then
    check "first report: bmv3 B=1 N=2 K=16 on 2x2 of u28 (fifo_depth 8) runs and equals the reference" $st
  else
    check_eval "first report: bmv3 B=1 N=2 K=17 on 2x2 of u28: exit 3, 9 values > pe.fifo_depth 8" \
      "[ $st -eq 3 ] && grep -q 'holds up to 9 values, pe.fifo_depth = 8' '$tmp/run.txt'"
  fi
done

# -- configs/big1d.ini itself: the edge in the model and in cosim --------------
run $BIG regress/programs/matmul.pla "N=4 M=35 K=3" 2x2 -
check_eval "matmul N=4 M=35 K=3 on 2x2 of big1d (fifo_depth 16): exit 3, 17 values" \
  "[ $? -eq 3 ] && grep -q 'holds up to 17 values, pe.fifo_depth = 16' '$tmp/run.txt'"
run $BIG regress/programs/matmul.pla "N=4 M=34 K=3" 2x2 -
check "matmul N=4 M=34 K=3 on 2x2 of big1d (16 values, the edge): the model equals the reference" $?
if full_tier; then  # big1d's harness
  run $BIG regress/programs/matmul.pla "N=4 M=34 K=3" 2x2 - cosim
  check_eval "matmul N=4 M=34 K=3 on 2x2 of big1d (the edge): cosim, traces agree and equal the reference" \
    "[ $? -eq 0 ] && grep -q 'traces agree' '$tmp/run.txt'"
fi

exit $fail
