#!/usr/bin/env bash
# covers: docs/mutants.md "Field mutants"
# field_mutants.sh: the field mutants of the RTL, made from the table
# scripts/field-mutants.tsv by scripts/field-mutants.sh (docs/mutants.md
# "Field mutants"). Every row of the table applies to today's rtl/ (its
# anchor in one line, its expression in it), and the table has mutants of
# every decoding unit (loader, GC, AG, wrapper, PE, FU) and every kind
# (neighbour field, other axis, other operand, sign); a mutant applied as
# text to a scratch copy changes the lines its rows name and nothing else
# (the AG's column coefficient computed from the row); a row that no
# longer applies (the RTL changed under it) fails with its line and why;
# the hooks tree (every mutant behind +fmut=N) passes the RTL's
# `verilator --lint-only -Wall` (tcpa lint), so that every mutant is RTL
# that builds. The campaign (full tier: one harness build of the hooks
# tree, minutes; configs/default.ini's alone) runs a mutant of two units,
# the nightly tier of eight, with tests/configs/shape3x2.ini's too
# (FIELD_MUTANTS="all": every one) against the fast tier's random streams and benchmarks in lockstep
# and requires each to be caught.
set -u
. "$(dirname "$0")/tap.sh"
FM=scripts/field-mutants.sh

out=$("$FM" check 2>&1); st=$?
check "every row of scripts/field-mutants.tsv applies to rtl/ (exit $st${out:+: $out})" $st

"$FM" list >"$tmp/list"
nm=$(wc -l <"$tmp/list")
units=$(cut -f2 "$tmp/list" | sort -u | paste -sd' ')
kinds=$(cut -f4 "$tmp/list" | sort -u | paste -sd' ')
[ "$nm" -ge 40 ] && [ "$units" = "AG FU GC PE loader wrapper" ] && [ "$kinds" = "axis neighbour operand sign" ] &&
  [ "$(cut -f1 "$tmp/list" | sort | uniq -d | wc -l)" -eq 0 ]
check "the table: $nm mutants, units $units, kinds $kinds" $?

# the issue's copy-paste bug, as text in a scratch copy: only its line changes
"$FM" apply 124 "$tmp/m124" >"$tmp/apply.log" 2>&1; st=$?
d=$(diff -r rtl "$tmp/m124/rtl")
[ $st -eq 0 ] && [ "$(printf '%s\n' "$d" | grep -c '^[<>]')" -eq 2 ] &&
  printf '%s\n' "$d" | grep -q '^> .*F_COLCOEF: base_d = base_q + bus_i.data \* ({16.d0, row_i} - {16.d0, row0_q});' &&
  [ -f "$tmp/m124/Makefile" ] && [ ! -e "$tmp/m124/build" ]
check "apply 124: a scratch copy whose AG column coefficient is computed from the row, one line changed (exit $st)" $?

# a row that does not apply: named with its line and why, exit 2
{ grep -v '^1[0-9][0-9]' scripts/field-mutants.tsv
  printf '201\tAG\tag.stride\tneighbour\trtl/tcpa_ag.sv\tno such line\tbus_i.d\tbus_i.c\n'
  printf '202\tAG\tag.stride\tneighbour\trtl/tcpa_ag.sv\tstride_d[d*32 +: 32] = bus_i.data;\tbus_i.dx\tbus_i.c\n'
  printf '203\tAG\tag.mode\tneighbour\trtl/tcpa_ag.sv\tbus_i.data\tbus_i.d\tbus_i.c\n'; } >"$tmp/bad.tsv"
FIELD_MUTANTS_TABLE=$tmp/bad.tsv "$FM" check >"$tmp/bad.log" 2>&1; st=$?
[ $st -eq 2 ] && grep -q 'bad.tsv:[0-9]*: mutant 201 (AG ag.stride) does not apply to rtl/tcpa_ag.sv: its anchor is in 0 lines' "$tmp/bad.log" &&
  grep -q 'mutant 202 .*: its expression is not in the anchor line' "$tmp/bad.log" &&
  grep -Eq 'mutant 203 .*: its anchor is in ([2-9]|[1-9][0-9]+) lines' "$tmp/bad.log"
check "rows that do not apply: exit 2 ($st), each named with its line and why" $?

# the hooks tree: every mutant behind +fmut=N, lint clean
"$FM" hooks "$tmp/hooks" >"$tmp/hooks.log" 2>&1; st=$?
nh=$(grep -ho "fmut == 32'd[0-9]*" "$tmp"/hooks/rtl/*.sv | sort -u | wc -l)
[ $st -eq 0 ] && [ "$nh" -eq "$nm" ]
check "hooks: every mutant is a hook of the scratch tree ($nh of $nm)" $?
(cd "$tmp/hooks" && nice build/bin/tcpa lint --arch configs/default.ini --out-dir build/lint) >"$tmp/lint.log" 2>&1; st=$?
[ $st -eq 0 ] && grep -q '^clean: 0 warnings, 0 errors' "$tmp/lint.log"
check "hooks: the RTL with every mutant passes verilator --lint-only -Wall (exit $st)" $?
[ $st -eq 0 ] || grep -i 'warning\|error' "$tmp/lint.log" | head -5 | sed 's/^/# /'

# the campaign (full tier): a mutant of the loader and one of the GC
# (FIELD_MUTANTS="N ..." others; "all" every one, the nightly's 40
# minutes; the nightly default adds an AG, an operation, the wrapper, FU
# decode and operand read mutants) caught by the fast tier's checks
if full_tier; then
  sample=${FIELD_MUTANTS:-101 111}
  scope=--default-only  # the full tier: one hooks harness build
  nightly_tier && sample=${FIELD_MUTANTS:-101 111 124 134 137 141 144 146} && scope=""
  [ "$sample" = all ] && sample="" && scope=""
  "$FM" run --work "$tmp/run" ${sample:+--only "$sample"} $scope >"$tmp/run.log" 2>&1; st=$?
  grep -v 'still running' "$tmp/run.log" | sed 's/^/# /'
  check "the campaign: field mutants ${sample:-all} each caught by the random streams or the benchmarks (exit $st)" $st
fi
exit $fail
