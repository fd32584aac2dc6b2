#!/bin/bash
# covers: docs/isa.md "Multi-cycle nop", docs/instantiate.md "Waits"
# waits_cli.sh: runs of nops as one multi-cycle `nop N` word (docs/isa.md,
# docs/instantiate.md "Waits"); TAP. For benchmarks on 1-D and 2-D regions
# of configs/default.ini, each instantiated twice, by default (waits) and
# with --no-waits (every nop a word, the prolog a loop where sigma >= 2):
#   - both runs equal the reference in the C model;
#   - their traces agree on everything the datapath does (every event but
#     `issue` and `insn`, which name pcs and words, `sig` and `gc`, which
#     differ by the prolog loop's signal and the signals that kernel
#     sharing adds, and `halt`: a halt among several targets of a shared
#     kernel tail costs one `nop ; halt` word and cycle more, and the two
#     share different tails): a `nop N` waits exactly as N nops would;
#   - no FU program is longer with waits, and some are shorter;
#   - functional coverage (docs/regress.md) counts op.nop_wait only with waits;
#   - editdist on every 1-D region fits with waits (it needed 41 to 47
#     words, pe.imem 32, before) and passes in cosim (model and RTL in
#     lockstep) on 1x1 and 1x4.
# The fast tier leaves to the full tier (each run maps the program again,
# seconds apiece): trimv and conv, editdist on the regions other than 1x4
# and without waits (docs/testing.md).
cd "$(dirname "$0")/.." || exit 1
. tests/tap.sh

# words LISTING: the word counts of the FU programs of a listing
words() { grep -o ', [0-9]* words (unreduced' "$1" | grep -o '[0-9]*'; }
# datapath TRACE: the trace without comments and pc-, word- and signal-naming events
datapath() { grep -v '^#' "$1" | awk '$2 != "issue" && $2 != "insn" && $2 != "sig" && $2 != "gc" && $2 != "halt"'; }

# PROGRAM | REGION | MAP | PARAMS
cases="fir|1x2||N=8 T=3
bitextract|1x4||N=13
trimv|1x3||N=7
matmul|2x2|i,j|N=4 M=4 K=3
conv|2x2|o,r|CO=4 R=4 C=3 CI=2 KR=2 KC=2
maxpool|4x1||R=4 C=4"
full_tier || cases=$(echo "$cases" | grep -v '^trimv\|^conv')
shorter=0
while IFS='|' read -r prog region map params; do
  pa=""
  for p in $params; do pa="$pa --param $p"; done
  [ -n "$map" ] && pa="$pa --map $map"
  for w in waits nowaits; do
    opt=""
    [ $w = nowaits ] && opt=--no-waits
    rm -rf "$tmp/$w"
    # shellcheck disable=SC2086
    $TCPA run regress/programs/$prog.pla $pa --pes "$region" --engine model --out-dir "$tmp/$w" $opt \
      > "$tmp/$w.txt" 2>&1
    check "$prog $params on $region ($w): the model equals the reference" $?
  done
  datapath "$tmp/waits/model.trace" > "$tmp/a"
  datapath "$tmp/nowaits/model.trace" > "$tmp/b"
  check_eval "$prog on $region: the datapath events with waits equal those without ($(wc -l < "$tmp/a") lines)" \
    "[ -s '$tmp/a' ] && cmp -s '$tmp/a' '$tmp/b'"
  nw=$(grep -o '"op.nop_wait": [0-9]*' "$tmp/waits/fcov.json" | grep -o '[0-9]*$')
  nn=$(grep -o '"op.nop_wait": [0-9]*' "$tmp/nowaits/fcov.json" | grep -o '[0-9]*$')
  check_eval "$prog on $region: functional coverage counts op.nop_wait with waits (${nw:-?}), not without (${nn:-?})" \
    "[ '${nw:-0}' -gt 0 ] && [ '${nn:-x}' = 0 ]"
  paste <(words "$tmp/waits/config.lst") <(words "$tmp/nowaits/config.lst") > "$tmp/pairs"
  longer=$(awk '$1 > $2' "$tmp/pairs" | wc -l)
  shorter=$((shorter + $(awk '$1 < $2' "$tmp/pairs" | wc -l)))
  check_eval "$prog on $region: no program longer with waits ($(tr '\t\n' '/ ' < "$tmp/pairs"))" \
    "[ -s '$tmp/pairs' ] && [ $longer -eq 0 ]"
done <<< "$cases"
check_eval "some programs shorter with waits ($shorter)" "[ $shorter -gt 0 ]"

# -- editdist on every 1-D region of default.ini ------------------------------
regions="1x1 1x2 1x3 1x4 2x1 3x1 4x1"
full_tier || regions=""
for r in $regions; do
  $TCPA run regress/programs/editdist.pla --param N=4 --param M=5 --pes $r --engine model > "$tmp/e.txt" 2>&1
  st=$?
  check "editdist N=4 M=5 on $r of default.ini fits and passes in the model ($(grep -m1 'error' "$tmp/e.txt"))" $st
done
regions="1x1 1x4"
full_tier || regions=1x4
for r in $regions; do
  $TCPA run regress/programs/editdist.pla --param N=4 --param M=5 --pes $r --engine cosim > "$tmp/e.txt" 2>&1
  check "editdist N=4 M=5 on $r: cosim (model and RTL in lockstep) passes" $?
done
if full_tier; then
  $TCPA run regress/programs/editdist.pla --param N=4 --param M=5 --pes 1x4 --engine model --no-waits > "$tmp/e.txt" 2>&1
  st=$?
  check_eval "editdist on 1x4 with --no-waits: exit 3 naming pe.imem" \
    "[ $st -eq 3 ] && grep -q 'instruction words, pe.imem is 32' '$tmp/e.txt'"
fi

exit $fail
