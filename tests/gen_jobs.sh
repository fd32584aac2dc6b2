#!/usr/bin/env bash
# covers: docs/fuzz.md "Random jobs"
# gen_jobs.sh: `tcpa gen program --check --regions N` makes each seed a
# random job of several programs at once (regress/gen_job.c). Checks:
# seeds 3-4 with 3 regions on default.ini pass (every program's outputs
# and its cycles alone checked by the job runner), with regions running
# at the same time in at least one (the line counts the pairs); a kept
# seed's job.ini runs again with `tcpa run` and passes, with its regions
# disjoint and one GC each; the same seeds pass in cosim; a job runner that fails (a wrapper as
# TCPA_GEN_SELF, exit 1 on `run ...job.ini`) makes the seed FAIL, exit 1,
# the line naming repro.sh; --regions without --check, or with --pes,
# exits 2. Prints TAP lines.
set -u
. tests/tap.sh

"$TCPA" gen program --seeds 3-4 --check --regions 3 --out-dir "$tmp/j" --keep >"$tmp/out" 2>&1; rc=$?
check_eval "seeds 3-4, 3 regions: exit 0 ($rc), 2 jobs pass" \
  "[ $rc -eq 0 ] && [ \$(grep -c '^seed [34]: pass (' $tmp/out) -eq 2 ] &&
   grep -q '^2 jobs of 3 regions: 2 pass, 0 do not fit, 0 FAIL' $tmp/out"
n=$(sed -n 's/.*; \([0-9]*\) with regions running at the same time$/\1/p' "$tmp/out")
check_eval "regions ran at the same time in $n of the 2 jobs (at least 1)" "[ '${n:-0}' -ge 1 ]"
check_eval "each line names every region and its start (rK N-D on RxC@0,C, auto+D)" \
  "[ \$(grep -oE 'r[0-3] [1-4]-D on [12]x[1-4]@0,[0-3], auto\\+[0-9]+' $tmp/out | wc -l) -ge 4 ]"
"$TCPA" run "$tmp/j/seed3/job.ini" --engine model --out-dir "$tmp/again" >"$tmp/again.out" 2>&1
check "seed 3's job.ini runs again with tcpa run and passes" $?
# the regions of every job: disjoint column bands at row 0, GCs 0..n-1
awk '/^run +r[0-9]+:/ { split($5, a, "[x@,]"); r = a[1]; c = a[2]; c0 = a[4]
       for (x = c0; x < c0 + c; x++) { if (used[FILENAME, x]++) bad = 1 } }
     END { exit bad }' "$tmp"/j/seed*/job.model.log
check "every job's regions are disjoint" $?

# the same seeds in cosim (the C model and the RTL in lockstep over every
# region; default.ini's harness, built by the fast tier)
"$TCPA" gen program --seeds 3-4 --check --regions 3 --engine cosim --out-dir "$tmp/c" --keep --timeout 1800 \
  >"$tmp/c.out" 2>&1; rc=$?
check_eval "seeds 3-4 in cosim: exit $rc, both pass, model and RTL agree in every region" \
  "[ $rc -eq 0 ] && grep -q '^2 jobs of 3 regions: 2 pass, 0 do not fit, 0 FAIL' $tmp/c.out &&
   grep -q 'model and RTL agree in every event of every cycle, every region' $tmp/c/seed3/job.cosim.log"

# a job runner that fails: the seed FAILs and the line names repro.sh
tcpa_abs=$(readlink -f "$TCPA")
cat >"$tmp/bad.sh" <<EOS
#!/bin/sh
case "\$2" in *job.ini) echo "error: injected job failure"; exit 1 ;; esac
exec "$tcpa_abs" "\$@"
EOS
chmod +x "$tmp/bad.sh"
TCPA_GEN_SELF="$tmp/bad.sh" "$TCPA" gen program --seeds 2 --check --regions 2 --out-dir "$tmp/b" >"$tmp/bad.out" 2>&1; rc=$?
check_eval "a failing job: exit 1 ($rc), the seed FAILs naming the error and repro.sh" \
  "[ $rc -eq 1 ] && grep -q '^seed 2: FAIL (.*exit 1: error: injected job failure, .*/seed2/repro.sh' $tmp/bad.out"
"$TCPA" gen program --seeds 1 --regions 2 >/dev/null 2>"$tmp/e1"; r1=$?
"$TCPA" gen program --seeds 1 --check --regions 2 --pes 1x2 >/dev/null 2>"$tmp/e2"; r2=$?
"$TCPA" gen program --seeds 1 --check --regions 5 >/dev/null 2>"$tmp/e3"; r3=$?
check_eval "--regions without --check, with --pes, or 5: exit 2 ($r1 $r2 $r3) with a message" \
  "[ $r1 -eq 2 ] && [ $r2 -eq 2 ] && [ $r3 -eq 2 ] && grep -q 'needs --check' $tmp/e1 && grep -q '2..4' $tmp/e3"
exit $fail
