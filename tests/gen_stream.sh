#!/usr/bin/env bash
# covers: docs/fuzz.md "Random streams on both engines", "Coverage",
#   "Field coverage", "Operand values",
#   docs/user-guide.md "Random streams on both engines"
# gen_stream.sh: random valid configuration streams on both engines
# (`tcpa gen stream`, regress/gen_stream.h, docs/fuzz.md "Random streams on
# both engines"). The same seed gives the same bytes and prints the seed;
# a stream disassembles and assembles back to the same bytes; the streams
# of seeds 1-40 on configs/default.ini and 1-60 on
# tests/configs/shape3x2.ini (3x2, a divider, four-target branches:
# another shape, its harness built here) (and, in the full tier, 1-10 on
# configs/big1d.ini) run on the C model and the RTL in lockstep and agree
# in every cycle, and on the two the streams hit every value class of
# every field the format allows and every operand value class of every
# FU (`--fields --values`, docs/fuzz.md "Field coverage", "Operand
# values"; a class missed fails the check with its name; one seed alone
# misses some, named); over
# those seeds the generator covers (counted in the disassembly) every
# opcode of each FU class of the ISA table (common/isa.c), every branch
# form, conditions on signals and on flags, every register class, wrapper
# sinks and sources on every side, every AG mode, GC terms, bank data and
# every global controller; a stream that diverges on an RTL mutant
# (+mutant=5, the ALU one cycle late) is shrunk to a reproducer of at most
# 3 packets and one instruction that still diverges on the mutant and
# agrees on the clean RTL. The full tier runs 110 more seeds on three
# configurations, tests/configs/edge.ini (32 fds and ids, no rd, FIFOs of
# one word, ...) among them; the nightly tier about 900, on
# configs/unseen-2x3.ini too. Prints TAP lines.
set -u
. tests/tap.sh

# -- writing a stream -------------------------------------------------------
"$TCPA" gen stream --help | grep -q -- '--check'
check "gen stream --help: exit 0, names --check" $?
"$TCPA" gen stream --seed 7 -o "$tmp/a.bin" 2>"$tmp/err" &&
  "$TCPA" gen stream --seed 7 -o "$tmp/b.bin" 2>/dev/null && cmp -s "$tmp/a.bin" "$tmp/b.bin"
check "the same seed gives the same bytes" $?
grep -q "seed 7: [0-9]* packets" "$tmp/err"
ok=$?; check "the seed is printed ($(head -1 "$tmp/err"))" $ok
"$TCPA" gen stream --seed 8 -o "$tmp/c.bin" 2>/dev/null && ! cmp -s "$tmp/a.bin" "$tmp/c.bin"
check "another seed gives another stream" $?
"$TCPA" gen stream --seed 7 --tasm -o "$tmp/a.tasm" 2>/dev/null && "$TCPA" asm "$tmp/a.tasm" -o "$tmp/a2.bin" &&
  cmp -s "$tmp/a.bin" "$tmp/a2.bin"
check "--tasm: the disassembly assembles back to the same bytes" $?
"$TCPA" gen stream --seeds 1-3 -o "$tmp/x.bin" 2>/dev/null; rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/x.bin" ]
check "--seeds without --check: exit 2, nothing written" $?

# -- both engines in lockstep -----------------------------------------------
# run_check NAME ARCH SEEDS MAX-CYCLES [fields]: every seed's stream
# agrees on model and RTL; with `fields`, the streams hit every field and
# operand value class of ARCH (gen stream --fields --values), a missed
# one named.
run_check() {
  local name=$1 arch=$2 seeds=$3 max=$4 fields=${5:-} lo hi rc sum missed
  lo=${seeds%-*} hi=${seeds#*-}
  nice "$TCPA" gen stream --arch "$arch" --seeds "$seeds" --check ${fields:+--fields --values} --max-cycles "$max" \
    --out-dir "$tmp/out-$name" >"$tmp/$name.log" 2>&1; rc=$?
  sum=$(grep '^[0-9]* streams: ' "$tmp/$name.log")
  [ "$(grep -c '^seed [0-9]*: agree' "$tmp/$name.log")" -eq $((hi - lo + 1)) ] && [ -n "$sum" ]
  check "$name: seeds $seeds agree on model and RTL in lockstep ($sum)" $?
  grep -v ': agree\|^missed: \|^field coverage: ' "$tmp/$name.log" | head -20 | sed 's/^/# /'
  if [ -n "$fields" ]; then
    missed=$(sed -n 's/^missed: //p' "$tmp/$name.log" | tr '\n' ' ')
    [ $rc -eq 0 ] && [ -z "$missed" ] && grep -q '^field coverage: \([0-9]*\) of \1 field and value classes hit' "$tmp/$name.log"
    ok=$?; check "$name: the streams hit every field and operand value class of $arch ($(grep '^field coverage' "$tmp/$name.log")${missed:+; missed: $missed})" $ok
  else
    [ $rc -eq 0 ]
    check "$name: exit 0 ($rc)" $?
  fi
}
run_check default configs/default.ini 1-40 300 fields
# another shape: 3 rows, 2 columns (a decoder that takes one axis for the
# other shows), four-target branches, a divider; a small harness
if ! harness tests/configs/shape3x2.ini >"$tmp/shape.log" 2>&1; then
  unbuilt "gen stream --check on tests/configs/shape3x2.ini ($(tail -1 "$tmp/shape.log"))"
else
  run_check shape3x2 tests/configs/shape3x2.ini 1-60 300 fields
fi
"$TCPA" gen stream --seeds 1-1 --fields --values --max-cycles 300 >"$tmp/one.log" 2>&1; rc=$?
n1=$(grep -c '^missed: field\.' "$tmp/one.log"); n2=$(grep -c '^missed: insn\.' "$tmp/one.log")
n3=$(grep -c '^missed: value\.' "$tmp/one.log")
[ $rc -eq 1 ] && [ "$n1" -gt 0 ] && [ "$n2" -gt 0 ] && [ "$n3" -gt 0 ] &&
  grep -q '^field coverage: [0-9]* of [0-9]* field and value classes hit over 1 streams' "$tmp/one.log"
check "--fields --values: one seed misses classes: exit 1 ($rc), each named ($n1 field, $n2 insn, $n3 value)" $?
"$TCPA" gen stream --seeds 1-40 --fields >"$tmp/fo.log" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^field coverage: \([0-9]*\) of \1 field classes hit over 40 streams' "$tmp/fo.log" && ! grep -q value "$tmp/fo.log"
ok=$?; check "--fields alone, without --check: the field classes only, no run ($(head -1 "$tmp/fo.log"))" $ok
# big1d's RTL harness is a build of its own: the full tier only (the
# coverage below still counts big1d's streams, which need no harness)
if full_tier; then run_check big1d configs/big1d.ini 1-10 300; fi
grep -q 'agree (done' "$tmp/default.log" && grep -q 'agree (timeout' "$tmp/default.log"
check "both runs that reach done and runs that time out are compared" $?

# -- coverage, counted in the disassembly ------------------------------------
for s in $(seq 1 20); do "$TCPA" gen stream --seed "$s" --tasm 2>/dev/null; done >"$tmp/cov.tasm"
for s in $(seq 1 10); do "$TCPA" gen stream --arch configs/big1d.ini --seed "$s" --tasm 2>/dev/null; done >>"$tmp/cov.tasm"
# every instruction as "CLASS OPCODE OPERANDS ; BRANCH-PART"
awk '/^program fu / { cls = $3; sub(/[0-9]+$/, "", cls); next } /^[a-z]/ { cls = "" }
     cls != "" && NF { l = $0; sub(/ *\/\/.*/, "", l); sub(/^ */, "", l)
       br = "next"
       if (index(l, ";")) { br = l; sub(/.*; */, "", br); sub(/ *;.*/, "", l) }
       print cls, l " ; " br }' "$tmp/cov.tasm" >"$tmp/insns"
missing=
while read -r op cls; do
  cls=$(echo "$cls" | tr 'A-Z' 'a-z')
  [ "$cls" = any ] && cls=alu
  grep -q "^$cls $op " "$tmp/insns" || missing="$missing $cls:$op"
done < <(sed -n 's/.*= {"\([a-z]*\)", ISA_FU_\([A-Z]*\),.*/\1 \2/p' common/isa.c)
[ -z "$missing" ] && [ "$(sed -n 's/.*= {"\([a-z]*\)", ISA_FU_.*/\1/p' common/isa.c | wc -l)" -ge 26 ]
ok=$?; check "every opcode of each FU class of common/isa.c appears ($(wc -l <"$tmp/insns") instructions;${missing:- none missing})" $ok
missing=
for re in ' next$' ' goto L' ' halt$' ' br [cf][0-9]* ?' ' br [cf][0-9]*, [cf][0-9]* ?' ' br c[0-9]' ' br f[0-9]' ' br .*[, ]f[0-9]'; do
  grep -Eq "$re" "$tmp/insns" || missing="$missing '$re'"
done
[ -z "$missing" ]
check "every branch form: next, goto, br on one and on two conditions, signals and flags, halt${missing:+ (missing$missing)}" $?
missing=
for re in '[ {]rd[0-9]' '[ {]fd[0-9]' ' id[0-9]' '[ {,]od[0-9]' '#-?[0-9]' ' _,'; do
  grep -Eq -- "$re" "$tmp/insns" || missing="$missing '$re'"
done
[ -z "$missing" ]
check "every register class: rd, fd, id, od, imm and no destination${missing:+ (missing$missing)}" $?
missing=
for d in n e s w; do
  grep -Eq "^    $d[0-9]+ = " "$tmp/cov.tasm" || missing="$missing sink:$d"
  grep -Eq "^    [a-z]+[0-9]+ = $d[0-9]+" "$tmp/cov.tasm" || missing="$missing source:$d"
done
grep -Eq '^    id[0-9]+ = ' "$tmp/cov.tasm" && grep -Eq '^    [a-z]+[0-9]+ = od[0-9]+' "$tmp/cov.tasm" || missing="$missing id/od"
[ -z "$missing" ]
check "wrapper routes: sinks and sources on every side, ids and ods${missing:+ (missing$missing)}" $?
missing=
for m in off read write; do grep -q "^    mode $m$" "$tmp/cov.tasm" || missing="$missing $m"; done
for side in n e s w; do grep -q "^ag side $side " "$tmp/cov.tasm" || missing="$missing ag-$side"; done
grep -q '^    enable ' "$tmp/cov.tasm" || missing="$missing enable"
[ -z "$missing" ]
check "every AG mode, on every side, with enable constraints${missing:+ (missing$missing)}" $?
missing=
grep -q '^    term c[0-9]*:' "$tmp/cov.tasm" || missing="$missing term"
grep -q '^iodata ' "$tmp/cov.tasm" || missing="$missing iodata"
grep -q '^regcfg ' "$tmp/cov.tasm" || missing="$missing regcfg"
for g in 0 1 2 3; do grep -q "^start gc $g " "$tmp/cov.tasm" || missing="$missing start-gc$g"; done
[ -z "$missing" ]
check "GC terms, bank data, fd depths, every global controller started${missing:+ (missing$missing)}" $?

# -- the shrinker, on an RTL mutant (full tier: the mutants harness) -----------
if ! full_tier; then
  :
elif ! MUT=$(harness "" mutants); then
  unbuilt "the shrinker on the mutants harness"
else
  printf '#!/bin/sh\nexec "%s" "$@" +mutant=5\n' "$MUT" >"$tmp/mut5.sh"
  chmod +x "$tmp/mut5.sh"
  "$TCPA" gen stream --seed 5 --check --rtl "$tmp/mut5.sh" --max-cycles 100 --out-dir "$tmp/shr" \
    >"$tmp/shr.log" 2>&1; rc=$?
  [ $rc -eq 1 ] && grep -q '^seed 5: DIVERGE: cycle' "$tmp/shr.log" &&
    grep -q 'first divergence of the shrunk stream: cycle' "$tmp/shr.log"
  check "mutant 5 (ALU one cycle late): seed 5 diverges, exit 1, first divergence printed" $?
  p=$(grep -c '^program \|^gc \|^ag \|^iodata \|^wrapper \|^regcfg \|^start ' "$tmp/shr/seed-5.min.tasm" 2>/dev/null)
  i=$(awk '/^program / { on = 1; next } /^[a-z]/ { on = 0 } on && NF' "$tmp/shr/seed-5.min.tasm" 2>/dev/null | wc -l)
  [ -s "$tmp/shr/seed-5.bin" ] && [ "${p:-99}" -le 3 ] && [ "$i" -le 1 ]
  ok=$?; check "shrunk to seed-5.min.bin/.tasm: $p packets, $i instruction (from $(grep -c '^[a-z]' "$tmp/shr/seed-5.tasm"))" $ok
  "$TCPA" sim "$tmp/shr/seed-5.min.bin" --trace "$tmp/min.model" --max-cycles 100 >/dev/null 2>&1
  "$MUT" "$tmp/shr/seed-5.min.bin" +mutant=5 --trace "$tmp/min.mut" --max-cycles 100 >/dev/null 2>&1
  "$TCPA" cosim-check "$tmp/min.model" "$tmp/min.mut" >/dev/null 2>&1; rc=$?
  RTL=$(harness) && "$RTL" "$tmp/shr/seed-5.min.bin" --trace "$tmp/min.rtl" --max-cycles 100 >/dev/null 2>&1
  "$TCPA" cosim-check "$tmp/min.model" "$tmp/min.rtl" >/dev/null 2>&1; rc2=$?
  [ $rc -eq 1 ] && [ $rc2 -eq 0 ]
  check "the reproducer diverges on the mutant (exit $rc) and agrees on the clean RTL (exit $rc2)" $?
fi

# -- long run: the full tier, longer in the nightly tier ---------------------
if nightly_tier; then
  jobs="default configs/default.ini 21-300;big1d configs/big1d.ini 11-120;edge tests/configs/edge.ini 1-400;unseen-2x3 configs/unseen-2x3.ini 1-150"
elif full_tier; then
  jobs="default configs/default.ini 21-30;big1d configs/big1d.ini 11-20;edge tests/configs/edge.ini 1-15"
else
  jobs=
fi
IFS=';' read -ra job_list <<<"$jobs"
for job in "${job_list[@]}"; do
  set -- $job
  run_check "long-$1" "$2" "$3" 1000
done

exit $fail
