#!/usr/bin/env bash
# covers: docs/rtl.md "Assertions"
# rtl_assert.sh: the SystemVerilog assertions of the RTL (docs/rtl.md
# "Assertions", rtl/tcpa_assert.svh). The RTL with TCPA_ASSERT_ON (alone and
# with the mutation hooks) is `verilator --lint-only -Wall --assert` clean
# (full tier); every module but three combinational ones (their list
# below) states at least one assertion;
# the macro expands to assertions only with TCPA_ASSERT_ON and
# never under SYNTHESIS (what Yosys defines); the harnesses of the cache
# are built with them (their names are in the binary). With assertions on,
# the normal runs pass and print no assertion failure: the streams of
# regress/streams/ on the rtl and (full tier) mutants harnesses (no
# mutant) and bitextract in cosim. An assertion can fire (full tier): mutant 3 (a push into an
# input FIFO does not grow its count) breaks the FIFO's count invariant,
# and the harness exits 1 naming FifoCntTracksPushPop and the cycle, after
# running to the end (the trace goes on past that cycle). Prints TAP.
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
VERILATOR=${VERILATOR:-verilator}
. tests/tap.sh

sv="rtl/tcpa_pkg.sv $(ls rtl/tcpa_*.sv | grep -v tcpa_pkg.sv | sort)"
# the parameter package made here (tcpa arch --sv), so the test runs where
# make has not written build/gen/tcpa_params_pkg.sv; the ISA and stream
# packages are `make gen`'s (every harness build makes them)
"$TCPA" arch configs/default.ini --sv -o "$tmp/tcpa_params_pkg.sv" || echo "# tcpa arch --sv failed"
pkgs="$tmp/tcpa_params_pkg.sv $BUILD/gen/tcpa_isa_pkg.sv $BUILD/gen/tcpa_stream_pkg.sv"

# -- lint and preprocessing ---------------------------------------------------
# (the full tier; in the fast tier rtl_debug_ports.sh lints with every
# define at once, these among them: half a minute a lint)
lints=()
full_tier && lints+=("+define+TCPA_ASSERT_ON" "+define+TCPA_ASSERT_ON +define+TCPA_MUTANTS")
for defs in "${lints[@]}"; do
  # shellcheck disable=SC2086
  "$VERILATOR" --lint-only -Wall --assert $defs --top-module tcpa_top rtl/lint_waivers.vlt \
    $pkgs $sv >"$tmp/lint.log" 2>&1
  st=$?
  [ $st -eq 0 ] || head -5 "$tmp/lint.log" | sed 's/^/# /'
  check "verilator --lint-only -Wall --assert $defs is clean" $st
done

# Prints the number of assertions in the preprocessed
# tcpa_fifo.sv with the defines $@.
nassert() { "$VERILATOR" -E -P "$@" rtl/tcpa_fifo.sv | grep -o 'assert (' | wc -l; }
check_eval "TCPA_ASSERT_ON: tcpa_fifo.sv has its 3 assertions" '[ "$(nassert +define+TCPA_ASSERT_ON)" -eq 3 ]'
check_eval "no TCPA_ASSERT_ON (lint, default): no assertion" '[ "$(nassert)" -eq 0 ]'
check_eval "SYNTHESIS (Yosys) with TCPA_ASSERT_ON: no assertion" \
  '[ "$(nassert +define+SYNTHESIS +define+TCPA_ASSERT_ON)" -eq 0 ]'

# every module states invariants but three that hold no state and are
# checked through their users (docs/rtl.md "Assertions"): tcpa_op_eval
# and tcpa_cons_eval (combinational), tcpa_clock_gate (the latch of a
# clock gate cell, as lowRISC's prim_clock_gating); those three have no
# register or memory
exempt=" tcpa_op_eval tcpa_cons_eval tcpa_clock_gate "
noassert=""
stateful=""
for f in rtl/tcpa_*.sv; do
  m=$(basename "$f" .sv)
  [ "$m" = tcpa_pkg ] && continue
  case "$exempt" in
  *" $m "*) grep -q 'always_ff' "$f" && stateful="$stateful $m" ;;
  *) grep -q '`TCPA_ASSERT' "$f" || noassert="$noassert $m" ;;
  esac
done
check_eval "every module of rtl/ but$exempt""states an assertion (missing:${noassert:- none})" \
  '[ -z "$noassert" ]'
check_eval "the modules without assertions hold no register (with one:${stateful:- none})" \
  '[ -z "$stateful" ]'

# -- the harnesses run the assertions -----------------------------------------
RTL=$("$TCPA" harness)
check "the rtl harness builds (tcpa harness)" $?
# the mutants harness in the full tier (a build of its own, docs/testing.md
# "The budget")
hs=("$RTL")
if full_tier; then
  MUT=$("$TCPA" harness --kind mutants)
  check "the mutants harness builds (tcpa harness --kind mutants)" $?
  [ -x "$MUT" ] || exit 1
  hs+=("$MUT")
fi
[ -x "$RTL" ] || exit 1
for h in "${hs[@]}"; do
  grep -q FifoCntTracksPushPop "$h" && grep -q LoaderCountsInRange "$h" && grep -q StepIncOneHot "$h"
  ok=$?; check "$(basename "$(dirname "$h")"): the assertions are compiled in" $ok
done

# Runs harness $1 on stream $2 with trace $3 and the arguments after;
# output (stdout and stderr) in $3.out; returns the harness's status.
run() {
  local h=$1 bin=$2 tr=$3; shift 3
  "$h" "$bin" --trace "$tr" --max-cycles 5000 "$@" >"$tr.out" 2>&1
}

for s in regress/streams/*.tasm; do
  name=$(basename "$s" .tasm)
  "$TCPA" asm "$s" -o "$tmp/$name.bin" >/dev/null 2>&1 || { check "$name: assembles" 1; continue; }
  for h in "${hs[@]}"; do
    kind=$(basename "$(dirname "$h")" | cut -d- -f1)
    run "$h" "$tmp/$name.bin" "$tmp/$name.$kind.trace"
    st=$?
    # the streams that end in a fault exit 1 with or without assertions:
    # what matters here is that no assertion fails
    [ $st -le 1 ] && ! grep -q 'ASSERT FAILED\|assertion failed' "$tmp/$name.$kind.trace.out"
    check "$name on $kind: no assertion fails (exit $st)" $?
  done
done

"$TCPA" run regress/programs/bitextract.pla --param N=8 --pes 1x2 --engine cosim >"$tmp/cosim.log" 2>&1
check "bitextract N=8 on 1x2 in cosim with assertions on: exit 0" $?

# -- an assertion fires (full tier: a mutant) ---------------------------------
full_tier || exit $fail
"$TCPA" asm regress/streams/ag_bank.tasm -o "$tmp/agb.bin" >/dev/null 2>&1
run "$MUT" "$tmp/agb.bin" "$tmp/m3.trace" +mutant=3
st=$?
check "mutant 3 on ag_bank: the harness exits 1 ($st)" "$([ $st -eq 1 ]; echo $?)"
grep -q '\[ASSERT FAILED\] FifoCntTracksPushPop' "$tmp/m3.trace.out"
check "mutant 3: the failure names FifoCntTracksPushPop" $?
grep -q 'u_fifo.FifoCntTracksPushPop' "$tmp/m3.trace.out"
check "mutant 3: the failure names the FIFO instance" $?
cyc=$(sed -n 's/^tcpa-rtl: an assertion failed in cycle \([0-9]*\) .*/\1/p' "$tmp/m3.trace.out")
check_eval "mutant 3: stderr names the cycle of the first failure (${cyc:-none})" '[ -n "$cyc" ]'
last=$(grep -v '^#' "$tmp/m3.trace" | tail -n 1 | cut -d' ' -f1)
check_eval "mutant 3: the run went on past that cycle (last event at ${last:-none})" \
  '[ -n "$cyc" ] && [ -n "$last" ] && [ "$last" -gt "$cyc" ]'
run "$MUT" "$tmp/agb.bin" "$tmp/m0.trace"
st=$?
[ $st -eq 0 ] && ! grep -q 'ASSERT FAILED' "$tmp/m0.trace.out"
check "the same stream without the mutant: exit 0, no assertion fails" $?
exit $fail
