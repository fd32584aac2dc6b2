#!/usr/bin/env bash
# covers: docs/timing.md "2. Global controller",
#   docs/instantiate.md "Control signals and the loop bounds"
# control_path.sh: the control path bounds no tile size (docs/timing.md
# section 2): every PE evaluates the GC's signal terms at its own step, so a
# PE may start any number of cycles after the first (up to the 31-bit delay
# counters) and the signals it sees are still the formula's. Before, the GC
# kept gc.history = 128 steps of signal vectors and bitextract on 1x4 of
# configs/default.ini stopped at about N = 168 (the last PE starting
# 127 * ii = 254 cycles after the first), matmul N = M = K = 32 on 4x4 of
# configs/big1d.ini (--map 2,1) was refused (432 cycles).
#
#   model: bitextract N = 1000 and 4000 on 1x4 (start delays 1506 and 6006
#          cycles, read from the trace) and matmul N = M = K = 16 and 32 on
#          4x4 of configs/big1d.ini (32: the last PE starts in cycle 432,
#          refused before) run and equal the reference;
#   cosim: bitextract N = 1000 on 1x4 of configs/default.ini, beyond the
#          former bound: the RTL's trace equals the model's cycle by cycle
#          (control signals included) and the outputs the reference's; fir
#          N = 11 T = 3 on 1x4, whose GC terms have PE ranges, likewise;
#   full tier (make test-full): the same matmul N = M = K = 16 and 32 on
#          4x4 of big1d.ini in cosim (its harness built when missing);
#   signals: matmul N = M = K on 4x4 of big1d.ini needs the same number of
#          control signals for every perfect tiling with tiles of p >= 4
#          (N = 16 .. 32) and no more below (N = 4, 8, 12); bitextract on
#          1x2, 1x3 and 1x4 of default.ini needs the same number for every
#          N from 13 to 40 (tiles of 4 or more), imperfect tilings included (the GC terms' PE
#          ranges; before, 3 or 4 where the last tile was partial); a
#          region that does not fit says which resource
#          (docs/instantiate.md "Control signals and the loop bounds");
#   mutant 38 (docs/rtl.md "Fault injection": the PEs' signal
#          accumulators lose the wrap of the lower dimensions): a 3-D
#          matmul in cosim diverges (full tier: the mutants harness is
#          a build of its own).
# Prints TAP.
set -u
. "$(dirname "$0")/tap.sh"

# Returns the summary field $2 of summary.json $1 (a string or a number).
jget() {
  sed -n "s/^  \"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1" | head -1
}

# Runs `tcpa run PROG.pla ARGS...` into $tmp/$1 (first argument: a tag);
# returns its exit status.
run() {
  local tag=$1 prog=$2; shift 2
  rm -rf "${tmp:?}/$tag"
  timeout 600 "$TCPA" run "regress/programs/$prog.pla" --out-dir "$tmp/$tag" "$@" >"$tmp/$tag.out" 2>&1
}

# Prints the cycle of the last `start` event of trace $1.
last_start() { awk '$2 == "start" { c = $1 } END { print c + 0 }' "$1"; }

# -- model: sizes beyond the former history bound ------------------------------
for N in 1000 4000; do
  run bx$N bitextract --engine model --param N=$N --pes 1x4
  st=$?
  d=$(last_start "$tmp/bx$N/model.trace" 2>/dev/null)
  [ $st -eq 0 ] && [ "$(jget "$tmp/bx$N/summary.json" status)" = pass ] && [ "${d:-0}" -gt 254 ]
  check "model: bitextract N=$N on 1x4 passes against the reference, last PE starts in cycle ${d:-?} (> 254, the former bound) (exit $st)" $?
done
for N in 16 32; do
  run mm$N matmul --engine model --arch configs/big1d.ini --map 2,1 --param N=$N --param M=$N --param K=$N --pes 4x4
  st=$?
  d=$(last_start "$tmp/mm$N/model.trace" 2>/dev/null)
  [ $st -eq 0 ] && [ "$(jget "$tmp/mm$N/summary.json" status)" = pass ] && { [ $N = 16 ] || [ "${d:-0}" -gt 254 ]; }
  vst=$?
  check "model: matmul N=M=K=$N on 4x4 of big1d.ini (--map 2,1) passes, last PE starts in cycle ${d:-?}$([ $N = 32 ] && echo ' (> 254, the former bound)') (exit $st)" $vst
done

# -- the signal count and the loop bounds (docs/instantiate.md "Control
# signals and the loop bounds") ------------------------------------------------
# matmul N = M = K on 4x4 of big1d.ini (--map 2,1): every perfect tiling
# with tiles of p >= 4 needs the same count; the smaller tiles no more.
"$TCPA" compile regress/programs/matmul.pla --arch configs/big1d.ini --map 2,1 -o "$tmp/mm.sym" >/dev/null 2>&1
check "matmul compiles for 4x4 of big1d.ini (--map 2,1)" $?
counts=
for N in 4 8 12 16 20 24 28 32; do
  c=$("$TCPA" instantiate "$tmp/mm.sym" --arch configs/big1d.ini --param N=$N --param M=$N --param K=$N \
      --pes 4x4 -o "$tmp/mm.bin" 2>&1 | sed -n 's/.* \([0-9]*\) control signals.*/\1/p')
  counts="$counts ${c:-?}"
done
read -r c4 c8 c12 c16 c20 c24 c28 c32 <<<"$counts"
check_eval "matmul on 4x4: signals at N = 4 8 12 16 20 24 28 32:$counts: equal from N = 16 on, no more below" \
  '[ "$c16" != "?" ] && [ "$c20" = "$c16" ] && [ "$c24" = "$c16" ] && [ "$c28" = "$c16" ] && [ "$c32" = "$c16" ] &&
   [ "$c4" -le "$c16" ] && [ "$c8" -le "$c16" ] && [ "$c12" -le "$c16" ]'
# bitextract on 1x2, 1x3, 1x4 of default.ini: one count for every N from
# 13 to 40 (tiles of 4 or more), perfect and imperfect tilings alike (the last tile's own
# branches use terms with PE ranges, docs/stream.md; before: 2 and 3 on
# 1x2, 2 to 4 on 1x3 and 1x4)
"$TCPA" compile regress/programs/bitextract.pla -o "$tmp/bx.sym" >/dev/null 2>&1
check "bitextract compiles for 1xC of default.ini" $?
for pes in 1x2 1x3 1x4; do
  counts=
  for N in 13 14 16 17 18 19 20 30 31 32 40; do
    c=$("$TCPA" instantiate "$tmp/bx.sym" --param N=$N --pes $pes -o "$tmp/bx.bin" 2>&1 |
        sed -n 's/.* \([0-9]*\) control signals.*/\1/p')
    counts="$counts ${c:-?}"
  done
  check_eval "bitextract on $pes: signals at N = 13 14 16 17 18 19 20 30 31 32 40:$counts: all equal" \
    '[ "$(echo $counts | tr " " "\n" | sort -u | wc -l)" -eq 1 ] && ! echo "$counts" | grep -q "?"'
done
# an imperfect tiling that does not fit says which resource, and writes nothing
"$TCPA" compile regress/programs/matmul.pla --map 0,1 -o "$tmp/mmd.sym" >/dev/null 2>&1
"$TCPA" instantiate "$tmp/mmd.sym" --param N=10 --param M=10 --param K=10 --pes 4x4 -o "$tmp/mmd.bin" \
  >/dev/null 2>"$tmp/mmd.err"
st=$?
[ $st -eq 3 ] && grep -Eq "control signals: [0-9]* needed|instruction words|global controller|branch levels" "$tmp/mmd.err" && [ ! -e "$tmp/mmd.bin" ]
vst=$?
check "matmul N=M=K=10 on 4x4 of default.ini: exit 3 naming the resource ($st: $(head -c 300 "$tmp/mmd.err"))" $vst

# -- cosim: the RTL agrees beyond the former bound -----------------------------
RTL=$(harness)
check "the rtl harness of the default configuration builds" $?
if [ ! -x "$RTL" ]; then
  unbuilt "cosim of bitextract N=1000 on 1x4"
else
  run cbx bitextract --engine cosim --param N=1000 --pes 1x4
  st=$?
  d=$(last_start "$tmp/cbx/rtl.trace" 2>/dev/null)
  sigs=$(grep -c ' sig ' "$tmp/cbx/rtl.trace" 2>/dev/null)
  [ $st -eq 0 ] && [ "$(jget "$tmp/cbx/summary.json" status)" = pass ] &&
    [ "$(jget "$tmp/cbx/summary.json" divergence)" = null ] && [ "${d:-0}" -eq 1506 ] && [ "${sigs:-0}" -gt 4 ]
  check "cosim: bitextract N=1000 on 1x4: traces agree (${sigs:-0} sig events), PE (0,3) starts in cycle ${d:-?} = 1506, outputs = reference (exit $st)" $?
  # GC terms with PE ranges (docs/stream.md): fir N=11 T=3 on 1x4, an
  # imperfect tiling coloured per processor class; the model and the RTL
  # agree cycle by cycle and with the reference
  run cfr fir --engine cosim --param N=11 --param T=3 --pes 1x4
  st=$?
  ranged=$("$TCPA" stream-poke "$tmp/cfr/config.bin" --fields 2>/dev/null |
           grep -c 'term[0-9]*\.signal 0x[0-9a-f]\{0,5\}[1-9a-f]')
  [ $st -eq 0 ] && [ "$(jget "$tmp/cfr/summary.json" status)" = pass ] &&
    [ "$(jget "$tmp/cfr/summary.json" divergence)" = null ] && [ "${ranged:-0}" -gt 0 ]
  check "cosim: fir N=11 T=3 on 1x4 with ${ranged:-0} GC terms of a PE range: traces agree, outputs = reference (exit $st)" $?
fi

# -- full tier: matmul on 4x4 of big1d.ini in cosim ------------------------------
if full_tier; then
  RTLB=$(harness configs/big1d.ini)
  check "the rtl harness of configs/big1d.ini builds" $?
  if [ ! -x "$RTLB" ]; then
    unbuilt "cosim of matmul on 4x4 of big1d.ini"
  else
    for N in 16 32; do
      run cmm$N matmul --engine cosim --arch configs/big1d.ini --map 2,1 --param N=$N --param M=$N --param K=$N --pes 4x4
      st=$?
      [ $st -eq 0 ] && [ "$(jget "$tmp/cmm$N/summary.json" status)" = pass ] &&
        [ "$(jget "$tmp/cmm$N/summary.json" divergence)" = null ]
      check "cosim: matmul N=M=K=$N on 4x4 of big1d.ini: traces agree, outputs = reference (exit $st)" $?
    done
  fi
fi

# -- mutant 38: the PEs' accumulators must follow the wraps --------------------
# matmul N=4 M=4 K=3 on 1x2: 3-D, so dimension 0 wraps inside every tile
# and a signal that depends on j1 or j2 goes wrong at the first wrap.
# (full tier: the mutants harness is a build of its own)
full_tier || exit $fail
MUT=$(harness "" mutants)
check "the mutants harness of the default configuration builds" $?
if [ ! -x "$MUT" ]; then
  unbuilt "mutant 38 in cosim"
else
  printf '#!/bin/sh\nexec %s "$@" +mutant=38\n' "$MUT" > "$tmp/m38.sh"
  chmod +x "$tmp/m38.sh"
  export TCPA_RTL=$tmp/m38.sh; run m38 matmul --engine cosim --param N=4 --param M=4 --param K=3 --pes 1x2
  st=$?
  [ $st -eq 1 ] && [ -s "$tmp/m38/divergence.txt" ]
  vst=$?
  check "mutant 38 (the accumulators ignore the wraps): matmul in cosim diverges (exit $st: $(head -3 "$tmp/m38/divergence.txt" 2>/dev/null | tr '\n' ' '))" $vst
  export TCPA_RTL=$MUT; run m0 matmul --engine cosim --param N=4 --param M=4 --param K=3 --pes 1x2; st=$?; unset TCPA_RTL
  check "the mutants harness without a mutant: the same run passes (exit $st)" $st
fi
exit $fail
