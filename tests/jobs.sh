#!/usr/bin/env bash
# covers: docs/user-guide.md "Jobs", docs/timing.md "11. Several regions", docs/regress.md "Jobs"
# jobs.sh: `tcpa run JOB.ini`, several programs at once on the C model,
# each on its own region and GC (regress/job.c). TAP.
#   - the jobs of regress/jobs/ (the four quadrants of default.ini's 4x4
#     with four benchmarks; bitextract on 1x4 in row 0 beside matmul on
#     3x4 in rows 1..3; a run started mid-run of another and a region
#     reloaded after done): exit 0, verdict pass, and in summary.json
#     every region's cycles equal to its cycles alone, no output differing,
#     its outputs in DIR/NAME/, the trace's rstart and rdone lines;
#   - --engine ref: every reference, exit 0;
#   - a job whose second run overlaps the first's region while it runs:
#     exit 2, the model's BUSY refusal naming the running region;
#   - malformed jobs (unknown key, no program, a bad pes, a start in the
#     first stream's loading window): exit 2 with FILE:LINE or the rule;
#   - --engine cosim on the four quadrants (the default configuration's
#     rtl harness): exit 0, model and RTL traces equal in every cycle,
#     every region's cycles equal to its cycles alone, outputs equal to
#     the references, both traces and each run's stream kept; a trace
#     changed in PE 3,3 behind a wrapper harness ($TCPA_RTL): exit 1, the
#     divergence report names region 3 (trimv, GC 3);
#   - --engine systemc: exit 2 (not yet).
# Environment: TCPA (default build/bin/tcpa).
set -u
. tests/tap.sh

for job in quadrants rows midrun; do
  rm -rf "$tmp/o"
  "$TCPA" run "regress/jobs/$job.ini" --engine model --out-dir "$tmp/o" >"$tmp/out" 2>"$tmp/err"
  st=$?
  check_eval "$job: exit 0, verdict pass ($(tail -1 "$tmp/err"))" "[ $st -eq 0 ] && grep -q '^verdict   pass' '$tmp/out'"
  s=$(tr -d ' \n' < "$tmp/o/summary.json")
  nreg=$(grep -c '^\[run ' "regress/jobs/$job.ini")
  eq=$(echo "$s" | grep -o '"cycles":[0-9]*,"cycles_alone":[0-9]*' | awk -F'[:,]' '$2 == $4 && $2 > 0' | wc -l)
  check_eval "$job: summary.json: $eq of $nreg regions with their cycles alone" "[ $eq -eq $nreg ]"
  check_eval "$job: summary.json: no output differing, verdict pass" \
    "! echo '$s' | grep -q '\"outputs_differing\":[1-9]' && echo '$s' | grep -q '\"verdict\":\"pass\",\"cycles\"'"
  nout=$(find "$tmp/o" -mindepth 2 -name '*.txt' | wc -l)
  check_eval "$job: $nout output files under the runs' names" "[ $nout -ge $nreg ]"
  check_eval "$job: the trace has $((nreg - 1)) rstart and $nreg rdone lines" \
    "[ \$(grep -c ' rstart ' '$tmp/o/model.trace') -eq $((nreg - 1)) ] && [ \$(grep -c ' rdone ' '$tmp/o/model.trace') -eq $nreg ]"
done

"$TCPA" run regress/jobs/quadrants.ini --engine ref >"$tmp/out" 2>"$tmp/err"
check "--engine ref: exit 0" $?

# job NAME TEXT: writes $tmp/NAME.ini
job() { printf '%s\n' "$2" > "$tmp/$1.ini"; }
job busy "[run a]
program = regress/programs/matmul.pla
param = N=4 M=4 K=200
pes = 2x2@0,0
map = i,j
[run b]
program = regress/programs/bitextract.pla
param = N=13
pes = 1x4@0,0"
"$TCPA" run "$tmp/busy.ini" --engine model >"$tmp/out" 2>"$tmp/err"
st=$?
check_eval "overlapping a running region: exit 2, BUSY naming it ($(head -c 200 "$tmp/err"))" \
  "[ $st -eq 2 ] && grep -q 'running region of GC 0' '$tmp/err'"

job badkey "[run a]
program = regress/programs/bitextract.pla
colour = blue"
job noprog "[run a]
pes = 1x2"
job badpes "[run a]
program = regress/programs/bitextract.pla
param = N=13
pes = 2x2@1"
job early "[run a]
program = regress/programs/bitextract.pla
param = N=13
pes = 1x2@0,0
[run b]
program = regress/programs/bitextract.pla
param = N=13
pes = 1x2@0,2
start = 5"
for b in badkey:3 noprog:1 badpes:1 early:'start it at cycle'; do
  name=${b%%:*} want=${b#*:}
  case $want in [0-9]*) want="$name.ini:$want:" ;; esac
  "$TCPA" run "$tmp/$name.ini" --engine model >"$tmp/out" 2>"$tmp/err"
  st=$?
  check_eval "$name: exit 2 with '$want' ($(head -c 160 "$tmp/err"))" "[ $st -eq 2 ] && grep -q '$want' '$tmp/err'"
done

# cosim: the four quadrants on the model and on the RTL (the default
# configuration's harness), traces compared in every cycle
rm -rf "$tmp/c"
"$TCPA" run regress/jobs/quadrants.ini --engine cosim --out-dir "$tmp/c" >"$tmp/out" 2>"$tmp/err"
st=$?
sed 's/^/# /' "$tmp/out"
check_eval "cosim quadrants: exit 0, verdict pass, model and RTL agree in every cycle ($(tail -1 "$tmp/err"))" \
  "[ $st -eq 0 ] && grep -q '^verdict   pass' '$tmp/out' && grep -q '^cosim     model and RTL agree' '$tmp/out'"
s=$(tr -d ' \n' < "$tmp/c/summary.json")
eq=$(echo "$s" | grep -o '"cycles":[0-9]*,"cycles_alone":[0-9]*' | awk -F'[:,]' '$2 == $4 && $2 > 0' | wc -l)
check_eval "cosim quadrants: summary.json: engine cosim, the 4 regions' cycles equal to alone ($eq), no output differing" \
  "[ $eq -eq 4 ] && echo '$s' | grep -q '\"engine\":\"cosim\"' && ! echo '$s' | grep -q '\"outputs_differing\":[1-9]'"
check_eval "cosim quadrants: both traces, each run's stream and outputs kept" \
  "[ -s '$tmp/c/model.trace' ] && [ -s '$tmp/c/rtl.trace' ] && [ \$(ls '$tmp'/c/*/config.bin | wc -l) -eq 4 ] && [ \$(ls '$tmp'/c/trimv/*.txt | wc -l) -ge 1 ]"
check_eval "cosim quadrants: the RTL's trace has 3 rstart and 4 rdone lines" \
  "[ \$(grep -c ' rstart ' '$tmp/c/rtl.trace') -eq 3 ] && [ \$(grep -c ' rdone ' '$tmp/c/rtl.trace') -eq 4 ]"

# a divergence names its region: the RTL's harness behind a wrapper
# ($TCPA_RTL) that changes the value of the first write-back of PE 3,3
# (trimv's quadrant, GC 3) in the trace of the run of several streams
real=$("$TCPA" harness)
{
  echo '#!/bin/sh'
  echo "\"$real\" \"\$@\"; rc=\$?"
  echo 'prev='
  echo 'for a in "$@"; do'
  echo '  if [ "$prev" = --trace ] && grep -q " rstart " "$a"; then'
  echo '    awk '\''!d && $2 == "wr" && $3 == "3,3" { $NF = "0x0badbad0"; d = 1 } { print }'\'' "$a" >"$a.tmp" && mv "$a.tmp" "$a"'
  echo '  fi'
  echo '  prev=$a'
  echo 'done'
  echo 'exit $rc'
} >"$tmp/rtl-wrap.sh"
chmod +x "$tmp/rtl-wrap.sh"
TCPA_RTL="$tmp/rtl-wrap.sh" "$TCPA" run regress/jobs/quadrants.ini --engine cosim >"$tmp/out" 2>"$tmp/err"
st=$?
grep -E 'DIVERGENCE|region:' "$tmp/err" | sed 's/^/# /'
check_eval "cosim: a divergence in PE 3,3: exit 1, the report names region 3, run 'trimv', GC 3" \
  "[ $st -eq 1 ] && grep -q 'DIVERGENCE at cycle [0-9]*, PE (3,3)' '$tmp/err' &&
   grep -q \"region: *3, run 'trimv' (regress/programs/trimv.pla), GC 3, 2x2@2,2\" '$tmp/err'"

# a job of one run: its outputs gathered at the run's done (the model of
# one stream keeps no region view; the job failed with "got nothing")
awk 'BEGIN { head = 1 } /^\[run / { head = 0; on = ($0 == "[run mm]") } head || on' regress/jobs/quadrants.ini \
  >"$tmp/one.ini"
for e in model cosim; do
  "$TCPA" run "$tmp/one.ini" --engine $e >"$tmp/one.out" 2>&1; st=$?
  check_eval "a job of one run (matmul 2x2), $e: exit 0 ($st), its cycles those alone" \
    "[ $st -eq 0 ] && grep -q \"mm: .* start 0: 2423 cycles (alone 2423), outputs equal to the reference, pass\" $tmp/one.out"
done

# suites list jobs: regress/suites/jobs, every job on model and cosim
"$TCPA" regress regress/suites/jobs -j 2 --out-dir "$tmp/rj" >"$tmp/rj.out" 2>&1; st=$?
check_eval "tcpa regress regress/suites/jobs: exit 0 ($st), 6 runs pass (3 jobs x model, cosim)" \
  "[ $st -eq 0 ] && grep -q '^6 runs: 6 pass, 0 fail' $tmp/rj.out && [ \$(grep -c 'pass .*_job_\\(model\\|cosim\\)_' $tmp/rj.out) -eq 6 ]"
printf 'suite bad\njob quadrants pes=1x2\njob nosuchjob\n' >"$tmp/bad.suite"
"$TCPA" regress "$tmp/bad.suite" --out-dir "$tmp/rb" >/dev/null 2>"$tmp/rb.err"; st=$?
check_eval "a job line with pes=, and a missing job: exit 2 ($st), FILE:LINE:COL each" \
  "[ $st -eq 2 ] && grep -q 'bad.suite:2:5: error: job .*names its own programs' $tmp/rb.err &&
   grep -q 'bad.suite:3:5: error: job .*nosuchjob' $tmp/rb.err"

"$TCPA" run regress/jobs/rows.ini --engine systemc >"$tmp/out" 2>"$tmp/err"
check "--engine systemc: exit 2 (not yet)" $([ $? -eq 2 ] && echo 0 || echo 1)
exit $fail
