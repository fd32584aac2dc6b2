#!/usr/bin/env bash
# covers: docs/instantiate.md "What each step computes",
#   docs/symbolic.md "What fits"
# io_sides.sh: I/O accesses of 1-D regions on every border side of a PE
# (docs/instantiate.md step 7, docs/symbolic.md "What fits"): an access
# that finds no bank left on the region's side (north for 1xC, west for
# Rx1) takes, on each PE that accesses it, a free bank of another array
# border side of that PE, before the instantiator reports that banks ran
# out. TAP.
#   - configs derived from configs/default.ini with iobuf.banks = 2
#     (tests/configs/banks2*.ini: the 4x4 array, an array of one row, one of
#     one column), where these runs stopped with "I/O banks: N input/output
#     accesses need a bank and a wrapper port each, iobuf.banks = 2": trimv
#     and maxpool on 1x1 (north and west), trimv, maxpool and dotprod on
#     1x4 of the one-row array (north and south) and 4x1 of the one-column
#     array (west and east) run on the C model equal to the reference, and
#     their listings place an access on the side that was not used before;
#   - satarith (eight accesses, tests/configs/sat8.ini: 4 banks a side) and
#     band N=5 W=4 (configs/default.ini) on 1x1, which stopped at the banks
#     of one side (satarith) or at the registers of the one-side mapping
#     (band), run on the model;
#   - what still does not fit exits 3 naming the access, the PE, the sides
#     tried and the banks needed and available: trimv on 1x4 of the 4x4
#     array (its inner PEs have the north side only); dotprod on 1x1, also
#     mapped as one tile, naming its accesses and the sides' banks;
#   - a program that fits one side keeps one WRAPPER packet for the region
#     (the streams of before, byte for byte: tests/golden.sh);
#   - full tier: the same runs in cosim (model and RTL in lockstep, the
#     harness of each configuration built when missing) on banks2.ini and
#     default.ini; the nightly tier on every configuration.
# Environment: TCPA (default build/bin/tcpa).
set -u
. tests/tap.sh

# run ENGINE CONFIG PES PROGRAM PARAM...: tcpa run into $tmp/r; status in
# $?, the last line of its output in $msg.
run() {
  local eng=$1 arch=$2 pes=$3 prog=$4
  shift 4
  local pa=() p
  for p in "$@"; do pa+=(--param "$p"); done
  rm -rf "$tmp/r"
  msg=$("$TCPA" run "regress/programs/$prog.pla" --arch "$arch" "${pa[@]}" --pes "$pes" --engine "$eng" \
    --out-dir "$tmp/r" 2>&1)
  local st=$?
  msg=$(printf '%s\n' "$msg" | tail -n 1)
  return $st
}

B2=tests/configs/banks2.ini ROW=tests/configs/banks2-row.ini COL=tests/configs/banks2-col.ini
# CONFIG PES PROGRAM PARAMS... | the side (listing word) some access now uses
JOBS="
$B2  1x1 trimv N=5            | west
$B2  1x1 maxpool R=3 C=4      | west
$ROW 1x4 trimv N=5            | south
$ROW 1x4 maxpool R=3 C=4      | south
$ROW 1x4 dotprod N=7          | south
$COL 4x1 trimv N=5            | east
$COL 4x1 maxpool R=3 C=4      | east
$COL 4x1 dotprod N=7          | east
tests/configs/sat8.ini 1x1 satarith N=7 | west
configs/default.ini 1x1 band N=5 W=4    | west
"

# --- the model: runs that stopped at the banks of one side --------------
while IFS='|' read -r job side; do
  [ -z "$job" ] && continue
  side=${side// /}
  # shellcheck disable=SC2086
  job=$(echo $job) # one blank between words
  # shellcheck disable=SC2086
  run model $job
  st=$?
  check "model: $job: equals the reference ($msg)" $st
  # the access on another side, on its listing line (`; banks: PEs ...`)
  grep -E "^access .*; banks:.* $side [0-9]" "$tmp/r/config.lst" >/dev/null
  check "model: $job: an access takes a bank on the $side side" $?
done <<<"$JOBS"

# --- what still does not fit: the access, PE, sides and banks named -----
run model $B2 1x4 trimv N=5
st=$?
check_eval "trimv on 1x4 of banks2 exits 3 ($msg)" "[ $st -eq 3 ]"
check_eval "its message names the access, the inner PE, the side tried and the banks" \
  "[[ \"\$msg\" == *'I/O banks: access 2 (output of y) finds no free bank on PE 1 (row 0, column 1); sides tried: north; banks needed 3, available 2'* ]]"
run model $B2 1x1 dotprod N=7
st=$?
check_eval "dotprod on 1x1 of banks2 exits 3 ($msg)" "[ $st -eq 3 ]"
# (mapped with channels, 5 banks of 3 left by their ports; then as one
# tile, docs/symbolic.md "Regions of one PE": 5 of 4, the message kept)
check_eval "its message names the accesses, the sides and the banks of the one-tile mapping" \
  "[[ \"\$msg\" == *'I/O banks: 5 input/output accesses need a bank and a wrapper port each; a PE of a 1-D region has at most 2 border sides x iobuf.banks 2 = 4'* ]]"

# --- a program that fits one side: one WRAPPER for the region -----------
run model configs/default.ini 1x4 fir N=5 T=3
st=$?
check "fir on 1x4 of default.ini equals the reference ($msg)" $st
nw=$("$TCPA" disasm "$tmp/r/config.bin" 2>/dev/null | grep -c '^wrapper ')
check_eval "fir on 1x4: one WRAPPER packet for the region (got $nw)" "[ \"$nw\" = 1 ]"
! grep -q '; banks:' "$tmp/r/config.lst"
check "fir on 1x4: no access placed per PE" $?

# --- cosim (full tier: banks2 and default; nightly: every configuration) ---
if full_tier; then
  cfgs="$B2 configs/default.ini"
  nightly_tier && cfgs="$B2 $ROW $COL tests/configs/sat8.ini configs/default.ini"
  for cfg in $cfgs; do
    if ! harness "$cfg" >/dev/null; then
      unbuilt "cosim on $cfg"
      continue
    fi
    while IFS='|' read -r job side; do
      [ -z "$job" ] && continue
      # shellcheck disable=SC2086
      set -- $job
      job="$*"
      [ "$1" = "$cfg" ] || continue
      run cosim "$@"
      st=$?
      [ $st -eq 0 ] && [ -s "$tmp/r/rtl.trace" ] && [ ! -e "$tmp/r/divergence.txt" ] || st=1
      check "cosim: $job: model = RTL = reference ($msg)" $st
    done <<<"$JOBS"
  done
fi
exit $fail
