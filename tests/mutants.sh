#!/usr/bin/env bash
# covers: docs/mutants.md, docs/rtl.md "Fault injection",
#   docs/trace.md "State events"
# tier: full (the mutants harness: a build of its own, docs/testing.md "The budget")
# mutants.sh: RTL mutants 23..37 and 39..48, one per mechanism that
# mutants 1..22 (tests/faults.sh) leave untouched: bank write enable and
# address, the instruction memory, multiplier and divider results, the FU
# flags, the affine accumulators, the constraint (GC term) evaluation, FIFO
# depth and overflow, fd writes, the neighbour wiring and `done` of
# tcpa_top, the loader's CRC and fingerprint checks, the wait counter of
# a multi-cycle nop (`nop N`), the mechanisms of several regions (44..47
# on regress/jobs/quadrants.ini in `tcpa run --engine cosim`: the
# per-region done, the GC-to-PE routing, the start pulse of one GC, a bank
# write at a region border; 48, the loader's BUSY refusal of an
# overlapping rectangle, on a job written here); and one per state
# event of the lockstep that no other mutant is first caught by: the write
# address and enable at the bank (`bankwr`), the steppers' step counter
# (`step`), the end-of-run read of the banks (`mem`) (docs/mutants.md,
# docs/rtl.md "Fault injection", rtl/tcpa_mutation.svh). Each runs where its mechanism acts
# and must be caught; the check names what caught it:
#   cosim-check  the mutants harness runs the stream (at most twice the
#           clean run's cycles plus 100: a mutant may keep the array from
#           finishing) and `tcpa cosim-check`, the lockstep checker of
#           --engine cosim, compares its trace with the clean model trace:
#           exit 1 at a cycle no earlier than the first in which the
#           mutated logic can act (derived from the clean model trace;
#           exactly that cycle where it is derived exactly; with the event
#           kind that must catch it where it is named);
#   outputs where no trace event shows the mechanism: `tcpa run --engine
#           cosim` with the mutants harness (TCPA_RTL: a script adding
#           +mutant=N) exits 1, the outputs (diff.txt) differ;
#   streams `tcpa gen stream --check --no-shrink` with the mutant as --rtl
#           on random valid streams (docs/fuzz.md): some seed diverges
#           (mutant 31: the first 6 seeds from a base whose streams start
#           neighbours 8 or more cycles apart; base 1 in the fast tier, a
#           new one, printed, in the full tier: MUT31_BASE=S repeats it);
#   reject  the mutants build without a mutant refuses a stream with a
#           wrong CRC / fingerprint (exit 2, stream_reject.sh) and the
#           mutant accepts it and runs it; for 48, the model and the
#           mutants build without a mutant refuse a job (BUSY) that the
#           mutant runs.
# Programs: bitextract N=8 on 1x2 (1-D), matmul N=M=K=3 on 2x2 and N=M=4
# K=3 on 4x4 (2-D) of configs/default.ini, a four-instruction flag-branch
# stream (the compiler emits none); the divider needs pe.div > 0:
# gcd on configs/big1d.ini, whose mutants harness is a build of its own
# (full tier only). Prints TAP lines.
set -u
. "$(dirname "$0")/tap.sh"

# Prints "CYCLE PLACE KIND" of the divergence in report $1 (cosim's stdout
# or a cosim-check report), or "none".
divergence() {
  awk '/lockstep: DIVERGENCE at cycle/ && !c { c = $5; sub(/,$/, "", c)
         p = ($0 ~ /the whole machine/) ? "-" : $7; gsub(/[(),]/, " ", p); split(p, q, " ")
         place = (p == "-") ? "-" : q[1] "," q[2]
         if ($0 ~ /the region of GC/) place = "gc" $NF }
       /^  event:/ && c != "" && !k { k = $2; sub(/:$/, "", k) }
       END { if (c == "") print "none"; else print c, place, k }' "$1"
}

# Prints the cycle of the first line of clean trace $1 satisfying awk
# condition $2, or "none".
first_cycle() {
  grep -v '^#' "$1" | awk "$2 { print \$1; f = 1; exit } END { if (!f) print \"none\" }"
}

# Writes the script $tmp/mutN.sh running harness $2 with +mutant=$1.
mutant_script() {
  printf '#!/bin/sh\nexec "%s" "$@" +mutant=%s\n' "$2" "$1" >"$tmp/mut$1.sh"
  chmod +x "$tmp/mut$1.sh"
}

# Runs mutant $1 ($2: what it breaks) on the stream of clean run $3 with
# harness $4 (--trace, at most twice the clean run's cycles plus 100: a
# mutant may keep the array from finishing) and compares its trace with
# the clean model trace in `tcpa cosim-check`, the lockstep checker of
# --engine cosim: exit 1, a divergence no earlier than cycle $5, the first
# cycle in which the mutated logic can act (derived from the clean model
# trace); with $6 "exact" the divergence must be in cycle $5 itself (the
# first affected cycle, derived exactly); with $7 it must be an event of
# that kind; $8 (a comma-separated list) compares only those event kinds
# (cosim-check --events). Records one check.
trace_mutant() {
  local m=$1 name=$2 run=$3 harn=$4 min=$5 exact=${6:-} kind=${7:-} events=${8:-} d=$tmp/m$1${8:+e} t0=$SECONDS
  local max=$(( $(awk '$2 == "done" { print $1 }' "$tmp/$run/model.trace") * 2 + 100 ))
  "$harn" "$tmp/$run/config.bin" +mutant="$m" --trace "$d.trace" --max-cycles $max >/dev/null 2>"$d.err"
  "$TCPA" cosim-check "$tmp/$run/model.trace" "$d.trace" ${events:+--events "$events"} >"$d.out" 2>&1
  local st=$? got; got=$(divergence "$d.out")
  local what="${kind:+ a $kind event}${events:+ (comparing $events)}"
  echo "# mutant $m ($name) on $run: caught by cosim-check${events:+ --events $events} at cycle/PE/event $got (can act from cycle $min; $((SECONDS - t0)) s)"
  if [ "$exact" = exact ]; then
    [ $st -eq 1 ] && [ "${got%% *}" = "$min" ] && { [ -z "$kind" ] || [ "${got##* }" = "$kind" ]; }
    check "mutant $m ($name) on $run: cosim-check exit 1 ($st), diverges at $got, in cycle $min, the first affected one$what" $?
    return
  fi
  [ $st -eq 1 ] && [ "$got" != none ] && [ "$min" != none ] && [ "${got%% *}" -ge "$min" ] &&
    { [ -z "$kind" ] || [ "${got##* }" = "$kind" ]; }
  check "mutant $m ($name) on $run: cosim-check exit 1 ($st), diverges at $got, not before cycle $min$what" $?
}

# Runs mutant $1 ($2), which no trace event shows, in `tcpa run --engine
# cosim` on clean run $3 (its arguments in $tmp/$3.args) with the mutants
# harness (TCPA_RTL: a script adding +mutant=N): the traces agree, the
# outputs differ from the reference (exit 1, diff.txt). Records one check.
outputs_mutant() {
  local m=$1 name=$2 run=$3 d=$tmp/m$1 t0=$SECONDS
  mutant_script "$m" "$MUT"
  rm -rf "$d"
  # shellcheck disable=SC2046
  TCPA_RTL=$tmp/mut$m.sh timeout 300 "$TCPA" run $(cat "$tmp/$run.args") --engine cosim \
    --out-dir "$d" >"$d.out" 2>&1
  local st=$? diff got; got=$(divergence "$d.out"); diff=$(head -1 "$d/diff.txt" 2>/dev/null)
  echo "# mutant $m ($name) on $run: caught by cosim through the outputs ($diff); trace divergence: $got ($((SECONDS - t0)) s)"
  [ $st -eq 1 ] && [ -s "$d/diff.txt" ] && grep -q '"status": "fail"' "$d/summary.json"
  check "mutant $m ($name) on $run: cosim exit 1 ($st), outputs differ ($diff)" $?
}

# Runs mutant $1 ($2) on the random streams of seeds $3 (a range A-B, or
# seeds separated by spaces) of architecture $4 with harness $5; some seed
# must diverge. Records one check.
streams_mutant() {
  local m=$1 name=$2 seeds=$3 arch=$4 d=$tmp/s$1 t0=$SECONDS st=0 r
  mutant_script "$m" "$5"
  : >"$d.out"
  for r in $seeds; do
    case $r in *-*) ;; *) r=$r-$r ;; esac
    "$TCPA" gen stream --arch "$arch" --seeds "$r" --check --no-shrink --max-cycles 300 \
      --rtl "$tmp/mut$m.sh" --out-dir "$d" >>"$d.out" 2>&1 || st=1
  done
  local first
  first=$(grep -m1 '^seed [0-9]*: DIVERGE' "$d.out")
  echo "# mutant $m ($name): caught by random streams $seeds, first: ${first:-none} ($((SECONDS - t0)) s)"
  [ $st -eq 1 ] && [ -n "$first" ]
  check "mutant $m ($name): random streams $seeds diverge (exit $st): ${first:-none}" $?
}

# Writes stream $1 with 32-bit little-endian header word $3 xor $4 to $2.
header_poke() {
  local W; W=$(od -An -t u4 -j $((4 * $3)) -N 4 "$1" | tr -d ' ')
  local v=$(( (W ^ $4) & 0xffffffff ))
  { head -c $((4 * $3)) "$1"
    printf "\\x$(printf %02x $((v & 255)))\\x$(printf %02x $((v >> 8 & 255)))\\x$(printf %02x $((v >> 16 & 255)))\\x$(printf %02x $((v >> 24 & 255)))"
    tail -c +$(($3 * 4 + 5)) "$1"; } >"$2"
}

# Runs mutant $1 ($2) on stream $3, whose header word $4 is xored with $5
# (a fault the loader must refuse); the mutants build without a mutant
# refuses it, the mutant accepts and runs it. Records one check.
reject_mutant() {
  local m=$1 name=$2 bad=$tmp/bad$1.bin
  header_poke "$3" "$bad" "$4" "$5"
  "$MUT" "$bad" --trace "$tmp/r0.trace" >/dev/null 2>"$tmp/r0.err"
  local st0=$?
  "$MUT" "$bad" +mutant="$m" --trace "$tmp/r$m.trace" >/dev/null 2>"$tmp/r$m.err"
  local st=$? ev; ev=$(grep -vc '^#' "$tmp/r$m.trace" 2>/dev/null)
  echo "# mutant $m ($name): caught by the stream rejection: clean loader $(sed -n 's/.*\(stream rejected.*\)/\1/p' "$tmp/r0.err" | head -1), mutant exit $st, ${ev:-0} events"
  [ $st0 -eq 2 ] && grep -q 'stream rejected by the loader' "$tmp/r0.err" && [ $st -ne 2 ] &&
    ! grep -q 'stream rejected' "$tmp/r$m.err" && [ "${ev:-0}" -gt 0 ]
  check "mutant $m ($name): the clean loader refuses header word $4 xor $5 (exit $st0), the mutant runs it (exit $st, ${ev:-0} events)" $?
}

MUT=$(harness "" mutants)
if [ $? -ne 0 ] || [ ! -x "$MUT" ]; then
  unbuilt "RTL mutants 23..37"
  exit 1
fi

# the clean runs: 1-D bitextract, 2-D matmul on 2x2 and 4x4
echo "regress/programs/bitextract.pla --param N=8 --pes 1x2 --seed 3" >"$tmp/bx.args"
echo "regress/programs/matmul.pla --param N=3 --param M=3 --param K=3 --pes 2x2 --seed 1" >"$tmp/mm22.args"
echo "regress/programs/matmul.pla --param N=4 --param M=4 --param K=3 --pes 4x4 --seed 1" >"$tmp/mm44.args"
for r in bx mm22 mm44; do
  # shellcheck disable=SC2046
  "$TCPA" run $(cat "$tmp/$r.args") --engine model --out-dir "$tmp/$r" >"$tmp/$r.log" 2>&1 &&
    "$TCPA" disasm "$tmp/$r/config.bin" >"$tmp/$r/clean.dis" 2>/dev/null
  ok=$?; check "$r: clean model run ($(cat "$tmp/$r.args"))" $ok
done
for r in bx mm22 mm44; do
  "$MUT" "$tmp/$r/config.bin" +mutant=0 --trace "$tmp/$r.m0" >/dev/null 2>&1 &&
    "$TCPA" cosim-check "$tmp/$r/model.trace" "$tmp/$r.m0" >/dev/null 2>&1
  check "$r: the mutants build with +mutant=0 agrees with the model (cosim-check)" $?
done
B=$tmp/bx/model.trace M2=$tmp/mm22/model.trace M4=$tmp/mm44/model.trace

# F: a flag branch (the compiler emits none, and the random streams of
# seeds 1-10 did not catch the mutant): alu0 writes 5, whose
# flag is 1, and branches on it in the next cycle
mkdir -p "$tmp/flag"
cat >"$tmp/flag/f.tasm" <<'EOF_TASM'
fingerprint 0x4ae1ec2ede81d159
gc 0 pe 0,0
    ii 1
    bounds 1
program fu alu0 pe 0,0
    mov rd0, #5
    nop ; br f0 ? L3 : L2
    mov rd1, #1 ; halt
    mov rd1, #2 ; halt
start gc 0 pe 0,0
EOF_TASM
"$TCPA" asm "$tmp/flag/f.tasm" -o "$tmp/flag/config.bin" >/dev/null 2>&1 &&
  "$TCPA" sim "$tmp/flag/config.bin" --trace "$tmp/flag/model.trace" >/dev/null 2>&1 &&
  grep -q '^2 issue 0,0 0 3$' "$tmp/flag/model.trace"
check "flag stream: assembled, the model takes the branch to pc 3 in cycle 2" $?

# the first cycle each mechanism can act, from the clean model traces
# (docs/trace.md: CYCLE KIND PLACE ...)
bank_wr2=$(first_cycle "$M2" '$2 == "bank" && $6 == "wr"')
bank_rd2=$(first_cycle "$M2" '$2 == "bank" && $6 == "rd"')
mul_wr2=$(first_cycle "$M2" '$2 == "wr" && $4 == 2')
sig2=$(first_cycle "$M2" '$2 == "sig"')
fdrd2=$(first_cycle "$M2" '$2 == "fdrd"')
push_r1=$(first_cycle "$M2" '$2 == "push" && $3 ~ /^1,/')
push_c1=$(first_cycle "$M4" '$2 == "push" && $3 ~ /,[1-3]$/')
# done needs every PE quiet: not before the last halt
done2=$(grep -v '^#' "$M2" | awk '$2 == "halt" { c = $1 } END { print (c == "") ? "none" : c }')
# the affine accumulators: no dimension wraps before step min(bounds), in
# cycle ii * min(bounds) (start delays and AG phases are >= 0)
wrap2=$(awk '/^gc / { g = 1; next } /^[a-z]/ { g = 0 } g && $1 == "ii" { ii = $2 }
  g && $1 == "bounds" { m = $2; for (i = 3; i <= NF; i++) if ($i < m) m = $i }
  END { print (ii && m) ? ii * m : "none" }' "$tmp/mm22/clean.dis")
# the last instruction of a program: the first issue, on a PE of its
# block's rectangle, of the last pc of a program block (FU numbers: alus,
# then multipliers: configs/default.ini has 2 and 1)
imem_b=$(awk -v nalu=2 -v nmul=1 '
  # Returns 1 when PE p (R,C) lies in rectangle q (R[..R2],C[..C2]).
  function inrect(p, q,   a, b, r, c) {
    split(p, a, ","); split(q, b, ",")
    if (split(b[1], r, "[.][.]") == 1) r[2] = r[1]
    if (split(b[2], c, "[.][.]") == 1) c[2] = c[1]
    return a[1] >= r[1] && a[1] <= r[2] && a[2] >= c[1] && a[2] <= c[2]
  }
  FNR == 1 { file++ }
  file == 1 && /^program fu / { nb++; f = $3; n = f; sub(/^[a-z]+/, "", n)
    fu[nb] = (f ~ /^alu/) ? n : (f ~ /^mul/) ? nalu + n : nalu + nmul + n; rect[nb] = $5; next }
  file == 1 && /\/\/ *[0-9]+$/ && nb { last[nb] = $NF }
  file == 2 && $2 == "issue" { for (k = 1; k <= nb; k++)
    if ($4 == fu[k] && $5 == last[k] && inrect($3, rect[k])) { print $1; found = 1; exit } }
  END { if (!found) print "none" }' "$tmp/bx/clean.dis" "$B")

outputs_mutant 23 "bank write enable stuck at 0 for write events" mm22
trace_mutant 24 "IODATA bank write address off by one" mm22 "$MUT" "$bank_rd2"
trace_mutant 25 "imem: the last instruction reads as nop" bx "$MUT" "$imem_b" exact
trace_mutant 26 "multiplier computes a * a" mm22 "$MUT" "$mul_wr2"
# the flag's first change: the first `flag` event of the clean trace
# (docs/trace.md "State events"; before that event the comparison saw the
# flag only through the branch, one cycle after the first issue at pc 1)
flag_f=$(first_cycle "$tmp/flag/model.trace" '$2 == "flag"')
trace_mutant 28 "flag is the sign bit of the result" flag "$MUT" "$flag_f" exact
trace_mutant 29 "affine accumulator not cleared on wrap" mm22 "$MUT" "$wrap2"
trace_mutant 30 "constraint >= 0 evaluated as > 0" mm22 "$MUT" "$sig2"
# mutant 31 on random streams (docs/fuzz.md "Long start delays"): the
# first 6 seeds from a base whose streams start two neighbours 8 or more
# cycles apart (a slope of the GC's start delays), where a feeder fills
# the late PE's FIFO; base 1 in the fast tier (deterministic), a new one in
# the full tier
if full_tier; then base31=${MUT31_BASE:-$(( $(date +%s) % 1000000 * 1000 + RANDOM % 1000 ))}; else base31=${MUT31_BASE:-1}; fi
seeds31=
for s in $(seq "$base31" $((base31 + 2000))); do
  "$TCPA" gen stream --seed "$s" --tasm 2>/dev/null | awk '/^gc /{ g = 1 } g && /^    delay /{
    if ($3 >= 8 || $3 <= -8 || $4 >= 8 || $4 <= -8) f = 1; exit } END { exit !f }' && seeds31="$seeds31 $s"
  [ "$(echo $seeds31 | wc -w)" -ge 6 ] && break
done
echo "# mutant 31: seeds with neighbours 8 or more cycles apart from $base31 (MUT31_BASE):$seeds31"
streams_mutant 31 "FIFO overflow one word early" "$seeds31" configs/default.ini "$MUT"
trace_mutant 32 "fd write leaves the valid bit" mm22 "$MUT" "$fdrd2"
trace_mutant 33 "north input wired to the upper PE's north-going link" mm22 "$MUT" "$push_r1"
trace_mutant 34 "west input port k wired to port k^1" mm44 "$MUT" "$push_c1"
trace_mutant 35 "done ignores the AGs" mm22 "$MUT" "$done2"
reject_mutant 36 "loader skips the CRC check" "$tmp/bx/config.bin" 5 1
reject_mutant 37 "loader skips the fingerprint's high word" "$tmp/bx/config.bin" 3 0x80000000

# the state events no mutant above is first caught by (docs/trace.md
# "State events"): bankwr, step, mem, each at its first affected cycle
# on the 2-D matmul of 2x2
trace_mutant 39 "a write AG's word lands one address higher at the bank" mm22 "$MUT" "$bank_wr2" exact bankwr
# the steppers run on after the last step, one step per ii: the first PE
# to reach its last step S (its last `step` event) shows S + 1 ii cycles
# later
ii2=$(awk '/^gc / { g = 1; next } /^[a-z]/ { g = 0 } g && $1 == "ii" { print $2; exit }' "$tmp/mm22/clean.dis")
step2=$(grep -v '^#' "$M2" | awk -v ii="$ii2" '$2 == "step" { last[$3] = $1 }
  END { m = ""; for (p in last) if (m == "" || last[p] + ii < m) m = last[p] + ii; print (m == "") ? "none" : m }')
trace_mutant 41 "the step counter runs on after the last step" mm22 "$MUT" "$step2" exact step
done_c2=$(first_cycle "$M2" '$2 == "done"')
trace_mutant 42 "the end-of-run read takes the next word of each bank" mm22 "$MUT" "$done_c2" exact mem

# N: regress/streams/nop_wait.tasm (docs/isa.md "Multi-cycle nop"): a
# wait counter one short takes the branch of a `nop N` issued at t in
# t + N - 2, so the FU issues in t + N - 1, where it still waits: the
# first such cycle over the nop N words the clean trace issues
mkdir -p "$tmp/nopw"
"$TCPA" asm regress/streams/nop_wait.tasm -o "$tmp/nopw/config.bin" >/dev/null 2>&1 &&
  "$TCPA" sim "$tmp/nopw/config.bin" --trace "$tmp/nopw/model.trace" >/dev/null 2>&1 &&
  "$TCPA" disasm "$tmp/nopw/config.bin" >"$tmp/nopw/clean.dis" 2>/dev/null
check "nop_wait: assembled, clean model run" $?
nop_n=$(awk -v nalu=2 -v nmul=1 '
  FNR == 1 { file++ }
  file == 1 && /^program fu / { f = $3; n = f; sub(/^[a-z]+/, "", n)
    fu = (f ~ /^alu/) ? n : (f ~ /^mul/) ? nalu + n : nalu + nmul + n; next }
  file == 1 && $1 == "nop" && $2 ~ /^[0-9]+$/ { len[fu "," $NF] = $2 }
  file == 2 && $2 == "issue" && (($4 "," $5) in len) { c = $1 + len[$4 "," $5] - 1
    if (m == "" || c < m) m = c }
  END { print (m == "") ? "none" : m }' "$tmp/nopw/clean.dis" "$tmp/nopw/model.trace")
trace_mutant 43 "the wait counter of a nop N one short" nopw "$MUT" "$nop_n" exact issue

# Runs mutant $1 ($2) on job $3 in `tcpa run JOB --engine cosim` with the
# mutants harness (TCPA_RTL: a script adding +mutant=N): exit 1, a
# divergence no earlier than the first cycle of the job's model trace
# satisfying awk condition $4 (the first the mutated logic can act in;
# with $6 "exact", in that cycle), of an event kind matching the regular
# expression $5, the report naming a region of the job. Records one check.
job_mutant() {
  local m=$1 name=$2 job=$3 d=$tmp/m$1 t0=$SECONDS
  mutant_script "$m" "$MUT"
  rm -rf "$d"
  TCPA_RTL=$tmp/mut$m.sh timeout 900 "$TCPA" run "$job" --engine cosim --out-dir "$d" >"$d.out" 2>&1
  local st=$? got min j=${job##*/}; j=${j%.ini}
  got=$(divergence "$d.out"); min=$(first_cycle "$d/model.trace" "$4")
  echo "# mutant $m ($name) on $j: caught by cosim at cycle/place/event $got (can act from cycle $min; $((SECONDS - t0)) s);$(grep -m1 'region:' "$d.out" | tr -s ' ')"
  local where="not before"
  [ "${6:-}" = exact ] && where="in cycle"
  [ $st -eq 1 ] && [ "$got" != none ] && [ "$min" != none ] && [ "${got%% *}" -ge "$min" ] &&
    { [ "${6:-}" != exact ] || [ "${got%% *}" = "$min" ]; } && [[ ${got##* } =~ ^($5)$ ]] &&
    grep -q "region: *[0-3], run '" "$d.out"
  check "mutant $m ($name) on $j: cosim exit 1 ($st), diverges at $got, $where $min, a $5 event, its region named" $?
}

# mutant 44: one region's done taken for another's (GC g's region done
# when GC g ^ 1's PEs are quiet), on the four quadrants of
# regress/jobs/quadrants.ini (mm on GC 0 at 2x2@0,0 from cycle 0, bits on
# GC 1 at 1x2@0,2 from the first `rstart`, fir and trimv below; one region
# cannot show it) in `tcpa run --engine cosim` with the mutants harness:
# the first region to finish, bits' (GC 1), is not marked done while mm's
# (GC 0) runs, so its `rdone 1` repeats in the next cycle: an `rdone` no
# earlier than the model's first
job_mutant 44 "done of one region taken for another's" regress/jobs/quadrants.ini '$2 == "rdone"' rdone

# Mutants 45..47 on the same four quadrants: a mutant that keeps a region
# from finishing would make `tcpa run --engine cosim` run the RTL 100000
# cycles (minutes on the -O0 harness), so the mutants harness runs the
# job's streams (`tcpa run JOB --engine model`: D/NAME/config.bin, the
# start cycles of D/summary.json) to 200 cycles past the first it can act
# in, and `tcpa cosim-check` compares with the model's trace of the job.
"$TCPA" run regress/jobs/quadrants.ini --engine model --out-dir "$tmp/q" >"$tmp/q.log" 2>&1
check "quadrants: the model runs the job (its streams and start cycles kept)" $?
qstreams=$(awk -F'"' '$2 == "name" { n = $4 } $2 == "start_cycle" { c = $3; gsub(/[^0-9]/, "", c)
  printf "%s%s/q/%s/config.bin%s", sep, T, n, (c > 0 ? "@" c : ""); sep = " " }' T="$tmp" "$tmp/q/summary.json")
echo "# quadrants streams: $qstreams"
# Runs mutant $1 ($2) on the streams of the quadrants: cosim-check exit 1,
# the divergence in cycle $3 (the first affected, derived from the
# model's trace), an event of kind $4. Records one check.
quad_mutant() {
  local m=$1 name=$2 min=$3 kind=$4 d=$tmp/q$1 t0=$SECONDS
  # shellcheck disable=SC2086
  "$MUT" $qstreams +mutant="$m" --trace "$d.trace" --max-cycles $((min + 200)) >/dev/null 2>"$d.err"
  "$TCPA" cosim-check "$tmp/q/model.trace" "$d.trace" >"$d.out" 2>&1
  local st=$? got; got=$(divergence "$d.out")
  echo "# mutant $m ($name) on quadrants: caught by cosim-check at cycle/place/event $got (can act from cycle $min; $((SECONDS - t0)) s)"
  [ $st -eq 1 ] && [ "${got%% *}" = "$min" ] && [ "${got##* }" = "$kind" ]
  check "mutant $m ($name) on quadrants: cosim-check exit 1 ($st), diverges at $got, in cycle $min, a $kind event" $?
}
QT=$tmp/q/model.trace
rst1=$(first_cycle "$QT" '$2 == "rstart"')
# 45: a PE takes the GC select of its west neighbour: bits' first column,
# PE (0,2), follows mm's GC 0 from bits' first cycle: its start delay is
# GC 0's, its `start` in that cycle is missing
quad_mutant 45 "a PE's GC select from the neighbouring region" "$rst1" start
# 46: the start pulse of GC g also restarts GC g ^ 1's controller: bits'
# start pulse (GC 1), one cycle before its first cycle (a GC runs one
# cycle ahead of its PEs), restarts GC 0's while mm runs: its `gc 0`
# line of that cycle is missing (the report names the region of GC 0)
quad_mutant 46 "one START starting two GCs" $((rst1 - 1)) gc
# 47: a bank write crossing regions: the AGs of bits' PE (0,2) take the
# tokens of mm's PE (0,1), the PE before it on the north side: bits'
# first write, at (0,2), finds no token of mm's there, its `bank` event
# is missing
quad_mutant 47 "a bank write crossing regions" "$(first_cycle "$QT" '$2 == "bank" && $6 == "wr"')" bank

# mutant 48: the loader accepts a packet whose rectangle overlaps a
# running region: a job whose second run, bitextract on 1x4@0,0 (GC 1,
# free), overlaps the first's, matmul on 2x2@0,0 (GC 0), while that runs:
# the model refuses it (exit 2, BUSY naming GC 0's region), the RTL of the
# mutants build without a mutant too (`tcpa run --engine rtl`: loader
# error 14, BUSY), the mutant accepts it and runs both (`rstart 1`)
cat >"$tmp/busy.ini" <<'EOF_JOB'
[run mm]
program = regress/programs/matmul.pla
param = N=4 M=4 K=3
pes = 2x2@0,0
map = i,j
[run bits]
program = regress/programs/bitextract.pla
param = N=13
pes = 1x4@0,0
EOF_JOB
mutant_script 0 "$MUT"
mutant_script 48 "$MUT"
"$TCPA" run "$tmp/busy.ini" --engine model --out-dir "$tmp/b48m" >"$tmp/b48m.out" 2>&1
st_m=$?
TCPA_RTL=$tmp/mut0.sh "$TCPA" run "$tmp/busy.ini" --engine rtl --out-dir "$tmp/b48c" >"$tmp/b48c.out" 2>&1
st_c=$?
TCPA_RTL=$tmp/mut48.sh "$TCPA" run "$tmp/busy.ini" --engine rtl --out-dir "$tmp/b48" >"$tmp/b48.out" 2>&1
st=$?
echo "# mutant 48 (the loader accepts an overlapping rectangle): caught by the refusal: model exit $st_m ($(grep -o 'touches the running region of GC [0-9]' "$tmp/b48m.out")), clean RTL exit $st_c ($(grep -o 'rejected by the loader: error [0-9]*' "$tmp/b48c.out")), mutant exit $st, $(grep -c ' rstart ' "$tmp/b48/rtl.trace" 2>/dev/null) rstart"
[ $st_m -eq 2 ] && grep -q 'touches the running region of GC 0' "$tmp/b48m.out" &&
  [ $st_c -eq 2 ] && grep -q 'rejected by the loader: error 14' "$tmp/b48c.out" &&
  [ $st -ne 2 ] && ! grep -q 'rejected' "$tmp/b48.out" && grep -q '^[0-9]* rstart 1$' "$tmp/b48/rtl.trace"
check "mutant 48 (the loader accepts an overlapping rectangle): model and clean RTL refuse the job (exit $st_m, $st_c: BUSY, error 14), the mutant runs it (exit $st, rstart 1)" $?
if full_tier; then
  # a read AG's access also writes its (input) bank: bankwr at the first
  # read; with bankwr left out of the comparison (as by a harness that does
  # not watch the bank's write port), the final contents of the input
  # banks (mem, in the done cycle: matmul reads each word once)
  trace_mutant 40 "a read AG's access also writes its input bank" mm22 "$MUT" "$bank_rd2" exact bankwr
  trace_mutant 40 "a read AG's access also writes its input bank" mm22 "$MUT" "$done_c2" exact mem \
    start,sig,step,gc,issue,insn,halt,pop,fdrd,wr,rf,flag,hop,push,fifo,bank,ag,fault,mem,done
fi

# the divider: configs/big1d.ini (pe.div 1), its own mutants harness (a
# Verilator build of several minutes: the nightly tier)
if nightly_tier; then
  if ! MUTB=$(harness configs/big1d.ini mutants); then
    unbuilt "mutant 27 on big1d.ini"
  else
    echo "regress/programs/gcd.pla --param N=4 --param S=6 --pes 1x2 --seed 1 --arch configs/big1d.ini" >"$tmp/gcd.args"
    # shellcheck disable=SC2046
    "$TCPA" run $(cat "$tmp/gcd.args") --engine model --out-dir "$tmp/gcd" >"$tmp/gcd.log" 2>&1
    check "gcd on big1d 1x2: clean model run" $?
    ndiv=$(awk '/^\[/ { s = $0 } s == "[pe]" && ($1 == "alu" || $1 == "mul") { n += $3 } END { print n }' configs/big1d.ini)
    div_wr=$(first_cycle "$tmp/gcd/model.trace" "\$2 == \"wr\" && \$4 >= $ndiv")
    trace_mutant 27 "divider: mod returns the quotient" gcd "$MUTB" "$div_wr"
  fi
fi
exit $fail
