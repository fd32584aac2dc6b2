#!/usr/bin/env bash
# covers: docs/profile.md
# profile_cli.sh: `tcpa profile TRACE` (regress/profile.c). On fir N=32
# T=4 on 1x4 of default.ini in cosim: the model's and the RTL's traces give
# the same profile (tables and files); per FU, operation and nop issues
# add up to the trace's `issue` events (awk) and ops + nops + waits + idle
# to the run's cycles, which are summary.json's done; per bank the reads
# and writes equal the trace's `bank` events (awk); the heat map is an
# SVG drawn by gnuplot; a job's trace gives each region's cycles; `tcpa
# run --profile` prints the same tables and writes DIR/profile/ (without
# --out-dir it exits 2); a bad trace line exits 2 with FILE:LINE:COL.
# Prints TAP lines.
set -u
. tests/tap.sh

"$TCPA" run regress/programs/fir.pla --param N=32 --param T=4 --pes 1x4 --engine cosim --out-dir "$tmp/r" \
  >"$tmp/run.out" 2>&1
check "fir N=32 T=4 on 1x4 in cosim passes" $?
"$TCPA" profile "$tmp/r/model.trace" -o "$tmp/pm" >"$tmp/pm.out" 2>&1; rc1=$?
"$TCPA" profile "$tmp/r/rtl.trace" -o "$tmp/pr" >"$tmp/pr.out" 2>&1; rc2=$?
check_eval "the model's and the RTL's traces give the same profile (exit $rc1, $rc2)" \
  "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && cmp -s $tmp/pm/profile.tsv $tmp/pr/profile.tsv &&
   cmp -s $tmp/pm/banks.tsv $tmp/pr/banks.tsv && diff -q <(grep -v '^profile: /' $tmp/pm.out) <(grep -v '^profile: /' $tmp/pr.out) >/dev/null"
# issues per FU, counted in the trace
awk '$2 == "issue" { split($3, pe, ","); n[pe[1] "\t" pe[2] "\t" $4]++ } END { for (k in n) print k "\t" n[k] }' \
  "$tmp/r/model.trace" | sort >"$tmp/issues.want"
awk -F'\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 "\t" $4 + $5 }' "$tmp/pm/profile.tsv" | sort >"$tmp/issues.got"
check_eval "per FU, ops + nops = the trace's issue events ($(wc -l <$tmp/issues.got) FUs)" \
  "[ -s $tmp/issues.got ] && cmp -s $tmp/issues.want $tmp/issues.got"
done=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['done_cycles'])" "$tmp/r/summary.json" 2>/dev/null)
check_eval "ops + nops + waits + idle = the run's $done cycles (summary.json's done) for every FU" \
  "[ -n '$done' ] && grep -q '^profile: $done cycles, 1 x 4 PEs' $tmp/pm.out &&
   awk -F'\t' -v d=$done 'NR > 1 && \$4 + \$5 + \$6 + \$7 != d { bad = 1 } END { exit bad }' $tmp/pm/profile.tsv"
awk '$2 == "bank" { split($3, pe, ","); k = pe[1] "\t" pe[2] "\t" $4 "\t" $5; if ($6 == "rd") r[k]++; else w[k]++; seen[k] = 1 }
     END { for (k in seen) print k "\t" r[k] + 0 "\t" w[k] + 0 }' "$tmp/r/model.trace" | sort >"$tmp/banks.want"
awk -F'\t' 'NR > 1' "$tmp/pm/banks.tsv" | sort >"$tmp/banks.got"
check_eval "per bank, reads and writes = the trace's bank events ($(wc -l <$tmp/banks.got) banks)" \
  "[ -s $tmp/banks.got ] && cmp -s $tmp/banks.want $tmp/banks.got"
check_eval "utilization.svg: a heat map drawn by gnuplot" \
  "head -c 300 $tmp/pm/utilization.svg | grep -q '<svg' && grep -q 'PE utilization' $tmp/pm/utilization.svg"
"$TCPA" run regress/jobs/rows.ini --engine model --out-dir "$tmp/j" >"$tmp/j.out" 2>&1
"$TCPA" profile "$tmp/j/model.trace" >"$tmp/jp.out" 2>&1; rc=$?
check_eval "a job's trace: each region's cycles (exit $rc, $(grep -c '^  region of GC' $tmp/jp.out) regions)" \
  "[ $rc -eq 0 ] && [ \$(grep -c '^  region of GC [0-3]: [0-9]* cycles' $tmp/jp.out) -ge 2 ]"
# tcpa run --profile: the same tables as tcpa profile of its model.trace, files in DIR/profile/
"$TCPA" run regress/programs/fir.pla --param N=32 --param T=4 --pes 1x4 --engine model --out-dir "$tmp/rp" \
  --profile >"$tmp/rp.out" 2>&1; rc=$?
"$TCPA" profile "$tmp/rp/model.trace" >"$tmp/rp.want" 2>&1
check_eval "tcpa run --profile (exit $rc): the tables of tcpa profile, DIR/profile/ written" \
  "[ $rc -eq 0 ] && grep -q '^verdict   pass' $tmp/rp.out && grep -A1000 '^profile: ' $tmp/rp.out | grep -v '^profile   ' |
   cmp -s - $tmp/rp.want && cmp -s $tmp/rp/profile/profile.tsv $tmp/pm/profile.tsv && [ -s $tmp/rp/profile/utilization.svg ]"
"$TCPA" run regress/programs/fir.pla --param N=32 --param T=4 --pes 1x4 --engine model --profile >/dev/null 2>"$tmp/np.err"
rc=$?
check_eval "tcpa run --profile without --out-dir: exit 2 ($rc), says why" "[ $rc -eq 2 ] && grep -q 'needs --out-dir' $tmp/np.err"
head -5 "$tmp/r/model.trace" >"$tmp/bad.trace"
echo "12 issue 0,0 zero 3" >>"$tmp/bad.trace"
"$TCPA" profile "$tmp/bad.trace" >/dev/null 2>"$tmp/bad.err"; rc=$?
check_eval "a bad trace line: exit 2 ($rc) naming bad.trace:6:COL" "[ $rc -eq 2 ] && grep -q 'bad.trace:6:[0-9]*: ' $tmp/bad.err"
exit $fail
