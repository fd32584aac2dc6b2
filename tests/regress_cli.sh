#!/usr/bin/env bash
# covers: docs/regress.md "Suite files", "The daily options", "Running",
#   "Verdicts and buckets", "Outputs", "Functional coverage"
# regress_cli.sh: tests of `tcpa regress` (docs/regress.md), TAP.
#
# (A) suite files: expansion over lists, ranges and regions (--list), the
#     deterministic seeds of seeds=random:K, errors as FILE:LINE:COL.
# (B) verdicts, timeouts, crashes and bucketing, through a fake `tcpa`
#     (TCPA_REGRESS_EXEC) whose behaviour the program's name selects:
#     pass, divergences (summary.json "divergence_record"s, with the
#     one-line "divergence" beside them) at different PEs and registers
#     that must share one bucket, one whose line is reworded (same
#     bucket: only the record counts), one without a record
#     ("unrecorded"), a hop divergence in another, differing outputs, invalid,
#     nofit, a run that sleeps past --timeout, one killed by SIGSEGV; the
#     outputs junit.xml (well-formed, counts), summary.json, report.html
#     (inline SVG); exit status; --rerun-failed (only the failures, with
#     waveform settings); sharding (disjoint, complete, deterministic) and
#     --merge of the shards; seeds 2^53+1, 2^63-1 and 2^64-1 kept exact
#     through --merge and --rerun-failed, strict JSON numbers.
#     Options (getopt_long): unknown/missing values, --filter/--exclude
#     (which runs, several globs, with --shard and --rerun-failed), --seeds
#     LIST and random:K (printed, reproduced), --waves (--fst per engine),
#     the tool version and git revision in junit.xml and summary.json,
#     report.html's ten slowest runs and its relative links to existing
#     files (also from a merged report into the shards).
# (D) scripts/regress-parallel.sh (GNU parallel, this host as its sshlogin) and
#     scripts/regress-slurm.sh (the batch files written, then run task by task
#     as Slurm would), each merged result equal to the unsharded one.
# (C) real runs: regress/suites/smoke (the `make test` regression), and,
#     when the RTL mutants harness is built and current, cosim divergences of
#     two RTL mutants bucketed by their real signatures and rerun with
#     waveforms (rtl.fst, divergence.gtkw).
. "$(dirname "$0")/tap.sh"
set -u
BUILD=${BUILD:-build}
[ -x "$TCPA" ] || { echo "not ok 1 - $TCPA is not built"; exit 1; }

# -- (A) suite files ------------------------------------------------------------
cat >"$tmp/a.suite" <<'EOF'
# a comment
suite alpha
set engine=model arch=default
run bitextract N=13,20 pes=1x1,1x2 seeds=1..3   # 2 x 2 x 3 = 12
run fir N=9 T=3 pes=1d arch=big1d              # 4x4: 1x1..1x4, 2x1..4x1 = 7
run matmul N=2 M=3 K=4 engine=model,cosim seeds=random:2 expect=nofit  # 4
EOF
"$TCPA" regress "$tmp/a.suite" --list >"$tmp/a.list" 2>"$tmp/a.err"; st=$?
check "suite: --list exits 0" $st
check_eval "suite: 12 + 7 + 4 runs" '[ "$(wc -l <"$tmp/a.list")" -eq 23 ]'
check_eval "suite: lists expand in the documented order (params before seeds)" \
  '[ "$(sed -n 1,4p "$tmp/a.list" | cut -d" " -f1 | tr "\n" " ")" = "bitextract_N13_1x1_model_default_s1 bitextract_N13_1x1_model_default_s2 bitextract_N13_1x1_model_default_s3 bitextract_N20_1x1_model_default_s1 " ]'
check_eval "suite: pes=1d on a 4x4 array gives 1x1..1x4 and 2x1..4x1" \
  '[ "$(grep -o "^fir_N9-T3_[0-9]x[0-9]" "$tmp/a.list" | sed "s/fir_N9-T3_//" | tr "\n" " ")" = "1x1 1x2 1x3 1x4 2x1 3x1 4x1 " ]'
check_eval "suite: every run prints its seed and its tcpa run command line" \
  '[ "$(grep -c " seed=[0-9][0-9]* .* tcpa run .* --seed [0-9]" "$tmp/a.list")" -eq 23 ]'
check_eval "suite: expect=nofit recorded" '[ "$(grep -c "expect=nofit" "$tmp/a.list")" -eq 4 ]'
s1=$(grep "^matmul" "$tmp/a.list" | sed 's/.* seed=\([0-9]*\).*/\1/' | tr '\n' ' ')
"$TCPA" regress "$tmp/a.suite" --list | grep "^matmul" | sed 's/.* seed=\([0-9]*\).*/\1/' | tr '\n' ' ' >"$tmp/s2"
check_eval "suite: seeds=random:K are the same on every listing ($s1)" '[ "$s1" = "$(cat "$tmp/s2")" ]'
check_eval "suite: seeds=random:K differ between runs" \
  '[ "$(echo $s1 | tr " " "\n" | sort -u | wc -l)" -eq 4 ]'
s3=$("$TCPA" regress "$tmp/a.suite" --list --seed-base 5 | grep "^matmul" | sed 's/.* seed=\([0-9]*\).*/\1/' | tr '\n' ' ')
check_eval "suite: --seed-base changes the random seeds" '[ -n "$s3" ] && [ "$s3" != "$s1" ]'

# scale=real run lines and --scale (docs/regress.md): the default takes
# both scales, --scale picks one, a bad value is an error at its column.
printf '%s\n' 'run bitextract N=13' 'run bitextract N=4000 pes=1x4 scale=real' \
  'run fir N=1024 T=64 pes=1x4 scale=real' >"$tmp/sc.suite"
"$TCPA" regress "$tmp/sc.suite" --list >"$tmp/sc.all" 2>&1; st=$?
check "scale: --list of both scales exits 0" $st
check_eval "scale: no --scale lists all 3 runs" '[ "$(wc -l <"$tmp/sc.all")" -eq 3 ]'
check_eval "scale: --scale small keeps only the small run" \
  '[ "$("$TCPA" regress "$tmp/sc.suite" --list --scale small | cut -d" " -f1)" = bitextract_N13_1x1_model_default_s1 ]'
check_eval "scale: --scale real keeps the 2 real runs" \
  '[ "$("$TCPA" regress "$tmp/sc.suite" --list --scale real | grep -c "N4000\|N1024")" -eq 2 ]'
"$TCPA" regress "$tmp/sc.suite" --list --scale huge >/dev/null 2>"$tmp/sc.err"; st=$?
check_eval "scale: --scale huge exits 2 naming the value (exit $st)" '[ $st -eq 2 ] && grep -q "huge" "$tmp/sc.err"'
printf 'run bitextract N=13 scale=tiny\n' >"$tmp/sc2.suite"
"$TCPA" regress "$tmp/sc2.suite" --list >/dev/null 2>"$tmp/sc2.err"; st=$?
check_eval "scale: scale=tiny in a suite exits 2 at its column (exit $st)" \
  '[ $st -eq 2 ] && grep -q "sc2.suite:1:[0-9]*: error: scale: expected small or real" "$tmp/sc2.err"'
check_eval "scale: the full suite ends with 6 real-size runs, expected to pass" \
  '[ "$("$TCPA" regress regress/suites/full --list --scale real | grep -c "expect=pass")" -eq 6 ]'
check_eval "suite: the default output directory is build/regress/<suite file>" \
  'grep -q -- "--out-dir build/regress/a/bitextract_N13_1x1_model_default_s1\$" "$tmp/a.list"'
"$TCPA" regress "$tmp/a.suite" --list --arch configs/big1d.ini --engine cosim --pes 1x3 >"$tmp/o.list"
check_eval "suite: --arch/--engine/--pes override every run" \
  '[ "$(grep -c -- "--arch configs/big1d.ini --engine cosim --pes 1x3" "$tmp/o.list")" -eq "$(wc -l <"$tmp/o.list")" ] && [ "$(wc -l <"$tmp/o.list")" -eq 9 ]'

# Checks that suite text $2 is refused (exit 2) with the message $3 at $4.
suite_error() {
  printf '%s\n' "$2" >"$tmp/bad.suite"
  "$TCPA" regress "$tmp/bad.suite" --list >/dev/null 2>"$tmp/bad.err"; local st=$? want="$3" at="$4"
  check_eval "suite error: $1 (exit 2, $4)" \
    '[ $st -eq 2 ] && grep -q "^$tmp/bad.suite:$at: error: .*$want" "$tmp/bad.err"'
}
suite_error "unknown directive" "runn fir N=1" "unknown directive 'runn'" "1:1"
suite_error "missing program" "set engine=model
run nosuchprog N=1" "program 'regress/programs/nosuchprog.pla'" "2:5"
suite_error "bad engine" "run fir N=9 T=3 engine=verilog" "engine: expected ref, model, rtl or cosim" "1:24"
suite_error "bad region" "run fir N=9 T=3 pes=1x2,3" "pes: expected RxC" "1:21"
suite_error "bad range" "run fir N=9..3 T=3" "expected a range A..B" "1:9"
suite_error "not KEY=VALUE" "run fir N=9 T" "expected KEY=VALUE, got 'T'" "1:13"
suite_error "key twice" "run fir N=9 T=3 seeds=1 seed=2" "'seeds' given twice" "1:25"
suite_error "bad expect" "run fir N=9 T=3 expect=maybe" "expect: expected any, pass or nofit" "1:24"
suite_error "missing architecture" "run fir N=9 T=3 arch=nosuch" "architecture 'configs/nosuch.ini'" "1:22"
suite_error "unknown key (a misspelt engine=)" "run bitextract N=13 engin=model" \
  "unknown key 'engin': neither a key (arch, engine, .*) nor a parameter of bitextract (N)" "1:21"
suite_error "unknown key on a set line, at its own line" "set engine=model engin=model
run bitextract N=13" "unknown key 'engin'" "1:18"
suite_error "a key's bad value on a set line, at its own line" "set engine=verilog
run bitextract N=13" "engine: expected ref, model, rtl or cosim" "1:12"
suite_error "parameter missing" "run fir N=9" "fir needs its parameter T" "1:5"
suite_error "parameter not an integer" "run fir N=9 T=x" "T: expected an integer" "1:15"
suite_error "parameters outside the domain" "run fir N=0 T=3" "fir N=0 T=3: outside the program's parameter domain" "1:9"
printf 'program broken(N) {\n' >"$tmp/broken.pla"
suite_error "a program that does not parse" "run broken.pla N=1" "program '$tmp/broken.pla' does not parse" "1:5"
# A misspelt key stops the regression before any run starts.
printf 'run bitextract N=13\nrun bitextract N=20 engin=model\n' >"$tmp/mis.suite"
"$TCPA" regress "$tmp/mis.suite" --out-dir "$tmp/mis" >"$tmp/mis.out" 2>&1; st=$?
check_eval "suite error: nothing runs, nothing is written (exit 2)" \
  '[ $st -eq 2 ] && [ ! -e "$tmp/mis" ] && grep -q "mis.suite:2:21: error: unknown key" "$tmp/mis.out"'

# From any directory: bare names are the tcpa tree's, paths are relative to
# the suite file's directory (not to the current one).
abs_tcpa=$(realpath "$TCPA")
mkdir -p "$tmp/elsewhere/suites/progs" "$tmp/cwd"
cp regress/programs/bitextract.pla "$tmp/elsewhere/suites/progs/bx.pla"
cp configs/big1d.ini "$tmp/elsewhere/mine.ini"
printf '%s\n' 'suite where' 'set engine=model expect=pass' 'run bitextract N=13 pes=1x2' \
  'run progs/bx.pla N=13 arch=../mine.ini' >"$tmp/elsewhere/suites/where.suite"
(cd "$tmp/cwd" && "$abs_tcpa" regress ../elsewhere/suites/where.suite -j 2 --no-time-instantiate \
  >"$tmp/where.out" 2>&1); st=$?
check_eval "from another directory: a suite with bare names and relative paths passes (2 runs)" \
  '[ $st -eq 0 ] && grep -q "^2 runs: 2 pass" "$tmp/where.out" && [ -f "$tmp/cwd/build/regress/where/summary.json" ]'
check_eval "from another directory: the relative paths are the suite file's" \
  'grep -q "run ../elsewhere/suites/progs/bx.pla --arch ../elsewhere/suites/../mine.ini" "$tmp/cwd/build/regress/where/summary.json"'
printf '# nothing\n' >"$tmp/empty.suite"
"$TCPA" regress "$tmp/empty.suite" --list >/dev/null 2>"$tmp/e.err"; st=$?
check_eval "suite error: no runs (exit 2)" '[ $st -eq 2 ] && grep -q "no runs" "$tmp/e.err"'
"$TCPA" regress --shard 3/2 "$tmp/a.suite" --list >/dev/null 2>&1; st=$?
check_eval "--shard 3/2 refused (exit 2)" '[ $st -eq 2 ]'

# -- sharding ------------------------------------------------------------------
for k in 1 2 3; do "$TCPA" regress "$tmp/a.suite" --list --shard $k/3 | cut -d' ' -f1 >"$tmp/sh$k"; done
cut -d' ' -f1 "$tmp/a.list" >"$tmp/all.ids"
check_eval "shard: 3 shards are disjoint and together the whole suite" \
  '[ "$(cat "$tmp"/sh1 "$tmp"/sh2 "$tmp"/sh3 | sort | uniq -d | wc -l)" -eq 0 ] && cmp -s <(cat "$tmp"/sh1 "$tmp"/sh2 "$tmp"/sh3 | sort) <(sort "$tmp/all.ids")'
check_eval "shard: sizes differ by at most one (8 8 7)" \
  '[ "$(wc -l <"$tmp/sh1") $(wc -l <"$tmp/sh2") $(wc -l <"$tmp/sh3")" = "8 8 7" ]'
check_eval "shard: K/N takes runs K, K+N, ... in suite order" \
  'cmp -s "$tmp/sh2" <(sed -n "2~3p" "$tmp/all.ids")'

# -- (B) a fake tcpa ------------------------------------------------------------
mkdir -p "$tmp/progs"
# (valid programs of one parameter N: suites are checked against their
# programs' parameters before anything runs; the fake ignores the text)
for p in pass1 pass2 divwr divwr2 divhop outs bad nofit slow crash divbankn divbankn2 divbankw reworded unrecorded; do
  printf 'program %s(N) {\n  in int32 x[N];\n  out int32 y[N];\n  par (0 <= i < N) {\n    y[i] = x[i];\n  }\n}\n' \
    "$p" >"$tmp/progs/$p.pla"
done
cat >"$tmp/fake-tcpa" <<'EOF'
#!/usr/bin/env bash
# a fake `tcpa` for tests/regress_cli.sh: the program's name picks the outcome
cmd=$1; shift
case $cmd in
  run) ;;
  *) exit 2 ;;
esac
prog=$1; shift
out= seed= engine= window= pes= fst=
while [ $# -gt 0 ]; do
  case $1 in
    --out-dir) out=$2; shift ;; --seed) seed=$2; shift ;; --engine) engine=$2; shift ;;
    --window) window=$2; shift ;; --pes) pes=$2; shift ;; --fst) fst=$2; shift ;;
  esac; shift
done
echo "$engine $window" >"$out/fake-args"
[ -n "$fst" ] && { echo "$fst" >"$out/fake-fst"; echo FST >"$fst"; }
name=$(basename "$prog" .pla)
summary() { # status [divergence-or-null] [mismatches] [divergence_record-or-null]
  cat >"$out/summary.json" <<J
{
  "program": "$name", "engine": "$engine", "status": "$1", "pes": [1, 2], "seed": $seed,
  "cycles": $((40 + seed)), "ii": 2, "processor_classes": 2, "config_bytes": 1024, "pes_used": ${pes#1x},
  "predicted_cycles": $((40 + seed)), "done_cycles": 50, "predicted_done_cycles": 50,
  "instantiate_seconds": $([ "$engine" = ref ] && echo null || echo "0.0${RANDOM:0:2}"), "emit_seconds": 0.001,
  "divergence": ${2:-null}, "divergence_record": ${4:-null}, "mismatches": ${3:-0}, "faults": 0
}
J
}
case $name in
  pass*) summary pass; exit 0 ;;
  div*) echo "first divergence" >"$out/divergence.txt" ;;
esac
# the divergence_record of tcpa run (docs/user-guide.md): cycle pe kind unit unit_class diff
record() {
  echo "{\"cycle\": $1, \"pe\": [$2], \"kind\": \"$3\", \"unit\": \"$4\", \"unit_class\": \"$5\", \"diff\": \"$6\"}"
}
case $name in
  divwr*) summary fail "\"cycle $((10 + seed)), PE (0,$seed), wr FU 1 -> rd$((seed + 2)): different values in the two traces; expected '1 wr 0,1 1 rd3 0x1', got '1 wr 0,1 1 rd3 0x2'\"" 0 \
            "$(record $((10 + seed)) 0,$seed wr "FU 1 -> rd$((seed + 2))" "FU -> rd" value)"
          echo "tcpa: error: cosim: the model and the RTL diverge" >&2; exit 1 ;;
  reworded) # divwr's record under a line of other words: the same bucket
          summary fail "\"PE (0,0), hop side e port 0: missing in the RTL; extra in the RTL\"" 0 \
            "$(record 11 0,1 wr "FU 1 -> rd3" "FU -> rd" value)"; exit 1 ;;
  unrecorded) summary fail "\"cycle $((10 + seed)), PE (0,$seed), wr FU 1 -> rd3: different values\""; exit 1 ;;
  divhop) summary fail "\"cycle 7, PE (0,0), hop side e port 0: missing in the RTL; expected '7 hop 0,0 e 0 0x00000001', got '(nothing)'\"" 0 \
            "$(record 7 0,0 hop "side e port 0" port missing)"; exit 1 ;;
  divbank*) side=${name#divbank}; side=${side:0:1}  # divbankn, divbankw: one root cause at two sides
            : >"$out/compare.gtkw"; mkdir -p "$out/repro"; echo "#!/bin/sh" >"$out/repro/repro.sh"
            summary fail "\"cycle 2, PE (0,0), bank side $side bank 0: different values in the two traces; expected '2 bank 0,0 $side 0 0x1', got '2 bank 0,0 $side 0 0x0'\"" 0 \
              "$(record 2 0,0 bank "side $side bank 0" bank value)"; exit 1 ;;
  outs) summary fail null 3; echo "tcpa: error: model: 3 of 13 output elements differ from the reference" >&2; exit 1 ;;
  bad) echo "tcpa: error: --param N: out of range" >&2; exit 2 ;;
  nofit) # as tcpa run writes it: the record and its message in summary.json;
         # stderr's wording differs, so the message shown must be summary.json's;
         # the first of the two at its lower bound (8 > 4), the other above (2)
         b=2; mkdir "$(dirname "$0")/nofit-first" 2>/dev/null && b=8
         cat >"$out/summary.json" <<J
{"program": "$name", "engine": "$engine", "status": "nofit", "seed": $seed,
 "nofit": [{"resource": "registers_rd", "key": "pe.rd", "needed": 7, "available": 4, "bound": $b, "where": ""}],
 "nofit_message": "registers rd: needs 7, pe.rd = 4"}
J
         echo "tcpa: error: nofit: stderr wording" >&2; exit 3 ;;
  slow) sleep 30; exit 0 ;;
  crash) kill -SEGV $$ ;;
esac
exit 9
EOF
chmod +x "$tmp/fake-tcpa"
P=$tmp/progs
cat >"$tmp/b.suite" <<EOF
suite beta
set engine=model arch=default
run $P/pass1.pla N=1 pes=1x1,1x2,1x4 seeds=1,2
run $P/pass2.pla N=1 engine=ref
run $P/divwr.pla N=1 pes=1x2 engine=cosim seeds=1,2
run $P/divwr2.pla N=1 pes=1x2 engine=cosim seeds=3
run $P/divhop.pla N=1 engine=cosim
run $P/outs.pla N=1
run $P/bad.pla N=1
run $P/nofit.pla N=1
run $P/nofit.pla N=2 expect=pass
run $P/pass1.pla N=9 expect=nofit
run $P/slow.pla N=1 timeout=1
run $P/crash.pla N=1
EOF
TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress "$tmp/b.suite" -j 3 --timeout 20 --out-dir "$tmp/bo" \
  >"$tmp/b.out" 2>"$tmp/b.err"; st=$?
O=$tmp/bo
check_eval "fake: exit 1 when runs fail" '[ $st -eq 1 ]'
check_eval "fake: one line per run with its verdict and seed (18)" \
  '[ "$(grep -c "^\[[0-9]*/18\] [a-z]* .* seed [0-9]" "$tmp/b.out")" -eq 18 ]'
check_eval "fake: stderr not a terminal: no progress line" '! grep -q $'"'"'\r'"'"' "$tmp/b.out" "$tmp/b.err"'
check_eval "fake: counts" \
  'grep -q "^18 runs: 8 pass, 5 fail, 1 invalid, 2 nofit, 1 timeout, 1 crash" "$tmp/b.out"'
check_eval "fake: the slow run is killed after its 1 s timeout" \
  'grep -q "^\[[0-9]*/18\] timeout  *[1-3]\.[0-9]s .*slow" "$tmp/b.out"'
check_eval "fake: SIGSEGV is a crash with the signal" 'grep -q "crash .*-- crash: signal 11" "$tmp/b.out"'
check_eval "fake: the nofit runs split: one at its lower bound, one above" \
  'grep -q "^nofit: 1 at a lower bound (no mapping fits: the architecture.s), 1 above their bounds" "$tmp/b.out" &&
   grep -q "nofit: 1 at a lower bound" "$O/report.html"'
check_eval "fake: nofit prints the resource" 'grep -q "nofit .*-- registers rd: needs 7, pe.rd = 4" "$tmp/b.out"'
check "fake: junit.xml is well-formed" \
  "$(python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$O/junit.xml" >/dev/null 2>&1; echo $?)"
python3 - "$O/junit.xml" >"$tmp/junit.txt" <<'EOF'
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
s = d.getElementsByTagName("testsuite")[0]
print(s.getAttribute("name"), s.getAttribute("tests"), s.getAttribute("failures"), s.getAttribute("errors"),
      s.getAttribute("skipped"), len(d.getElementsByTagName("testcase")),
      len([p for p in d.getElementsByTagName("property") if p.getAttribute("name") == "seed"]))
EOF
# failures: 5 fail + nofit expected to pass + pass expected not to fit; errors: invalid, timeout, crash
check_eval "fake: junit counts (suite beta, 18 tests, 7 failures, 3 errors, 1 skipped, 18 seeds)" \
  '[ "$(cat "$tmp/junit.txt")" = "beta 18 7 3 1 18 18" ]'
python3 - "$O/summary.json" >"$tmp/buckets.txt" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for b in d["buckets"]:
    print(b["count"], b["key"], ",".join(sorted(b["runs"])))
print("total", d["total"], d["not_ok"], d["ok"])
EOF
check_eval "fake: divergences at different PEs, cycles and registers share one bucket (3)" \
  'grep -q "^3 divergence: wr FU -> rd @ write-back (value) divwr2_N1_1x2_cosim_default_s3,divwr_N1_1x2_cosim_default_s1,divwr_N1_1x2_cosim_default_s2$" "$tmp/buckets.txt"'
check_eval "fake: a hop divergence is its own bucket" \
  'grep -q "^1 divergence: hop port @ interconnect (missing) divhop" "$tmp/buckets.txt"'
check_eval "fake: differing outputs bucketed by check and engine" \
  'grep -q "^1 outputs @ model outs_" "$tmp/buckets.txt"'
check_eval "fake: 8 buckets (wr, hop, outputs, invalid, nofit, fits, timeout, crash)" \
  '[ "$(grep -vc ^total "$tmp/buckets.txt")" -eq 8 ] && grep -q "^total 18 10 False" "$tmp/buckets.txt"'
check_eval "fake: the largest bucket comes first" '[ "$(head -c 2 "$tmp/buckets.txt")" = "3 " ]'
python3 - "$O" >"$tmp/timed.txt" <<'EOF'
import json, os, sys
runs = json.load(open(os.path.join(sys.argv[1], "summary.json")))["runs"]
timed = [r for r in runs if r["instantiate_seconds"] is not None]
# each the number in the run's own summary.json (tcpa run's), not a text
same = all(json.load(open(os.path.join(sys.argv[1], r["id"], "summary.json")))["instantiate_seconds"] ==
           r["instantiate_seconds"] for r in timed)
print(len(timed), same)
EOF
check_eval "fake: instantiation times of the 7 passing engine runs only, each its summary.json's instantiate_seconds" \
  '[ "$(cat "$tmp/timed.txt")" = "7 True" ]'
check_eval "fake: report.html is self-contained with two SVG plots and the buckets" \
  '[ "$(grep -c "<svg" "$O/report.html")" -eq 2 ] && ! grep -q "src=\|href=\"http" "$O/report.html" && grep -q "wr FU -&gt; rd @ write-back" "$O/report.html" && grep -q ">FAIL<" "$O/report.html"'
check_eval "fake: every run has its own directory with its stderr" \
  '[ -s "$O/outs_N1_1x1_model_default_s1/stderr.txt" ] && [ -f "$O/divhop_N1_1x1_cosim_default_s1/summary.json" ]'

# -- buckets come from summary.json's divergence_record, never from its
# one-line divergence: a reworded line changes no bucket
printf '%s\n' 'suite delta' 'set engine=cosim arch=default pes=1x2' "run $P/divwr.pla N=1 seeds=1" \
  "run $P/reworded.pla N=1" "run $P/unrecorded.pla N=1" >"$tmp/d.suite"
TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress "$tmp/d.suite" --no-time-instantiate --out-dir "$tmp/do" \
  >"$tmp/d.out" 2>&1
python3 - "$tmp/do/summary.json" >"$tmp/db.txt" <<'EOF2'
import json, sys
for b in json.load(open(sys.argv[1]))["buckets"]:
    print(b["count"], b["key"], "|", ",".join(sorted(b["runs"])), "|", b["signature"]["unit"], b["signature"]["unit_class"])
EOF2
check_eval "fake: a divergence line in other words, the same record: the same bucket as divwr (2)" \
  'grep -q "^2 divergence: wr FU -> rd @ write-back (value) | divwr_N1_1x2_cosim_default_s1,reworded_N1_1x2_cosim_default_s1 | FU 1 -> rd3 FU -> rd$" "$tmp/db.txt"'
check_eval "fake: a divergence line without a record is not parsed: unrecorded" \
  'grep -q "^1 divergence: unrecorded @ unknown | unrecorded_N1_1x2_cosim_default_s1 | " "$tmp/db.txt" && [ "$(wc -l <"$tmp/db.txt")" -eq 2 ]'

# -- a long run is not silent: a heartbeat when no run has finished for a while
printf '%s\n' 'suite hb' "run $P/slow.pla N=1 timeout=3" >"$tmp/hb.suite"
TCPA_HEARTBEAT=1 TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress "$tmp/hb.suite" --no-time-instantiate \
  --out-dir "$tmp/hbo" >"$tmp/hb.out" 2>&1
check_eval "progress: a run going on names the runs done, elapsed time, the longest run and its live log" \
  'grep -q "^\[0/1\] still running, 1s: 1 run; the longest slow_N1_1x1_model_default_s1 for 1s (live log: .*hbo/slow_N1_1x1_model_default_s1/stderr.txt)$" "$tmp/hb.out" &&
   [ "$(grep -c "still running" "$tmp/hb.out")" -ge 2 ]'

# -- (B2) report.html as a dvsim user reads it: a run where everything fails -----
printf '%s\n' 'suite gamma' 'set engine=cosim arch=default pes=1x2' "run $P/divbankn.pla N=1 seeds=1,2" \
  "run $P/divbankw.pla N=1" "run $P/divbankn2.pla N=1" "run $P/outs.pla N=1 engine=model" >"$tmp/g.suite"
TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress "$tmp/g.suite" -j 2 --out-dir "$tmp/go" >"$tmp/g.out" 2>&1; st=$?
G=$tmp/go/report.html
python3 - "$tmp/go/summary.json" >"$tmp/gb.txt" <<'EOF'
import json, sys
for b in json.load(open(sys.argv[1]))["buckets"]:
    print(b["count"], b["key"], "|", ", ".join("%s (%d)" % (u["unit"], u["runs"]) for u in b["units"]))
EOF
check_eval "report: one root cause at sides n and w is one bucket (bank divergences, 4 runs), the units listed" \
  '[ $st -eq 1 ] && grep -q "^4 divergence: bank bank @ memory (value) | side n bank 0 (3), side w bank 0 (1)$" "$tmp/gb.txt" &&
   [ "$(wc -l <"$tmp/gb.txt")" -eq 2 ] && grep -q "^  *4  divergence: bank bank @ memory (value)" "$tmp/g.out"'
rev=$("$TCPA" --version | sed -n 's/.*(git \(.*\))$/\1/p')
check_eval "report: the header names the tool version and the git revision ($rev)" \
  'grep -q "<th>tool</th><td>tcpa regress 0\.[0-9.]*</td>" "$G" && grep -q "<th>git revision</th><td>$rev</td>" "$G"'
check_eval "report: all runs fail: no empty plot, no claim of --no-time-instantiate" \
  '! grep -q "<svg" "$G" && [ "$(grep -c "No plot:" "$G")" -eq 2 ] && ! grep -q "no-time-instantiate" "$G"'
check_eval "report: the --rerun-failed command of this directory" \
  'grep -q "<pre class=\"rerun\">tcpa regress --rerun-failed $tmp/go</pre>" "$G"'
# Returns 0 when every in-page link of report $1 has its row (an id).
anchors_resolve() {
  local id
  for id in $(grep -o "<a href=\"#run-[^\"]*\">" "$1" | sed "s/.*#\(run-[^\"]*\)\".*/\1/"); do
    grep -q "<tr id=\"$id\"" "$1" || return 1
  done
}
check_eval "report: every bucket member links to its run's row (5 links, 5 rows with ids)" \
  '[ "$(grep -o "<a href=\"#run-[^\"]*\">" "$G" | sort -u | wc -l)" -eq 5 ] && anchors_resolve "$G"'
check_eval "report: a reproduce command per run (5), with its seed" \
  '[ "$(grep -c "<code class=\"cmd\">tcpa run .* --seed [0-9]" "$G")" -eq 5 ]'
check_eval "report: links to compare.gtkw and repro/ where they exist" \
  'grep -q "divbankw_N1_1x2_cosim_default_s1/compare.gtkw\">compare.gtkw</a>" "$G" &&
   grep -q "divbankn_N1_1x2_cosim_default_s2/repro/\">repro/</a>" "$G" && ! grep -q "outs_N1_1x2_model_default_s1/repro" "$G"'
# Returns 0 when report $1 has a legend row for every mark named after it.
legend_has() {
  local f=$1 m; shift
  for m in "$@"; do grep -q "<td>$m</td><td>" "$f" || return 1; done
}
check_eval "report: a legend for every mark: (!), each verdict, each file link" \
  'grep -q "<tr><td>(!)</td><td>the run is <b>not as expected</b>" "$G" &&
   legend_has "$G" pass fail invalid nofit timeout crash pending compare.gtkw repro/ stdout stderr divergence'
check_eval "report: the coverage section says what was collected" \
  'grep -q "Functional coverage: none" "$G" && grep -q "Line and toggle coverage of the RTL: not collected" "$G"'

# report.html rendered by a browser (headless Chromium, scripts/setup.sh):
# the DOM it builds has every section, and a screenshot is made.
if command -v chromium >/dev/null; then
  chrome() { timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --user-data-dir="$tmp/chrome" "$@" 2>/dev/null; }
  chrome --dump-dom "file://$O/report.html" >"$tmp/dom.html"
  check_eval "chromium: report.html renders: header, verdict, buckets, coverage, 2 plots, 18 run rows, legend" \
    'grep -q "<th>git revision</th>" "$tmp/dom.html" && grep -q "class=\"verdict\">FAIL<" "$tmp/dom.html" &&
     grep -q "<h2>Failure buckets</h2>" "$tmp/dom.html" && grep -q "<h2>Coverage</h2>" "$tmp/dom.html" &&
     [ "$(grep -o "<svg" "$tmp/dom.html" | wc -l)" -eq 2 ] && [ "$(grep -o "<tr id=\"run-" "$tmp/dom.html" | wc -l)" -eq 18 ] &&
     grep -q "<h2>Legend</h2>" "$tmp/dom.html"'
  chrome --screenshot="$tmp/report.png" --window-size=1280,2400 "file://$G" >/dev/null
  check_eval "chromium: a screenshot of the all-fail report (PNG, 1280 wide)" \
    '[ "$(head -c 8 "$tmp/report.png" | od -An -tx1 | tr -d " \n")" = 89504e470d0a1a0a ] &&
     [ "$(python3 -c "import struct,sys; d=open(sys.argv[1],\"rb\").read(24); print(struct.unpack(\">I\", d[16:20])[0])" "$tmp/report.png")" -eq 1280 ]'
else
  n=$((n + 1)); echo "not ok $n - chromium is not installed (scripts/setup.sh installs it)"; fail=1
fi

# --rerun-failed
TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress --rerun-failed "$O" --timeout 20 >"$tmp/r.out" 2>&1; st=$?
check_eval "rerun-failed: exit 1, only the 10 runs not as expected rerun" \
  '[ $st -eq 1 ] && grep -q "^tcpa regress: 10 runs" "$tmp/r.out" && [ -f "$O/rerun/summary.json" ] && [ ! -e "$O/rerun/pass2_N1_1x1_ref_default_s1" ]'
check_eval "rerun-failed: cosim reruns with a 200-cycle waveform window, model reruns on the rtl engine" \
  '[ "$(cat "$O/rerun/divwr_N1_1x2_cosim_default_s2/fake-args")" = "cosim 200" ] && [ "$(cat "$O/rerun/outs_N1_1x1_model_default_s1/fake-args")" = "rtl " ]'
check_eval "rerun-failed: the same seeds" 'grep -q "seed 2 .*divwr_N1_1x2_cosim_default_s2" "$tmp/r.out"'

# shards and --merge
for k in 1 2; do
  TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress "$tmp/b.suite" --shard $k/2 --timeout 20 \
    --out-dir "$tmp/shard$k" >/dev/null 2>&1
done
"$TCPA" regress --merge "$tmp/shard1" "$tmp/shard2" --out-dir "$tmp/merged" >"$tmp/m.out" 2>&1; st=$?
check_eval "merge: exit 1 (the merged runs fail), 18 runs" '[ $st -eq 1 ] && grep -q "^18 runs: 8 pass, 5 fail" "$tmp/m.out"'
python3 - "$tmp/merged/summary.json" "$O/summary.json" >"$tmp/cmp.txt" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda d: sorted((r["id"], r["verdict"], r["seed"]) for r in d["runs"])
sig = lambda d: sorted((x["count"], x["key"]) for x in d["buckets"])
print(key(a) == key(b), sig(a) == sig(b))
EOF
check_eval "merge: the shards merged give the runs, verdicts, seeds and buckets of the whole suite" \
  '[ "$(cat "$tmp/cmp.txt")" = "True True" ]'
check "merge: junit.xml well-formed" \
  "$(python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$tmp/merged/junit.xml" >/dev/null 2>&1; echo $?)"
"$TCPA" regress --merge "$tmp/shard1" "$tmp/shard1" --out-dir "$tmp/m2" >/dev/null 2>"$tmp/m2.err"; st=$?
check_eval "merge: the same run twice is refused (exit 2)" '[ $st -eq 2 ] && grep -q "is in" "$tmp/m2.err"'
"$TCPA" regress --merge "$tmp" --out-dir "$tmp/m3" >/dev/null 2>"$tmp/m3.err"; st=$?
check_eval "merge: a directory without summary.json is refused (exit 2)" '[ $st -eq 2 ]'

# a passing suite exits 0
cat >"$tmp/c.suite" <<EOF
run $P/pass1.pla N=1 pes=1x1,1x2
run $P/nofit.pla N=1
EOF
TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress "$tmp/c.suite" --out-dir "$tmp/co" >"$tmp/c.out" 2>&1; st=$?
check_eval "fake: pass and nofit-as-expected exit 0" '[ $st -eq 0 ] && grep -q "^PASS" "$tmp/c.out"'

# -- exact 64-bit seeds: 2^53+1, 2^63-1 and 2^64-1 through summary.json, --merge
# and --rerun-failed (a double would give 9007199254740992, 2^63 and 2^64)
BIG="9007199254740993 9223372036854775807 18446744073709551615"
cat >"$tmp/big.suite" <<EOF
suite big
run $P/outs.pla N=1 seeds=${BIG// /,}
run $P/pass1.pla N=1 seeds=${BIG// /,}
EOF
for k in 1 2; do
  TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress "$tmp/big.suite" --shard $k/2 --no-time-instantiate \
    --out-dir "$tmp/big$k" >/dev/null 2>&1
done
"$TCPA" regress --merge "$tmp/big1" "$tmp/big2" --out-dir "$tmp/bigm" >"$tmp/bigm.out" 2>&1; st=$?
# Prints the sorted "id seed" pairs of summary.json $1 (Python's json keeps big integers exact).
json_seeds() {
  python3 -c 'import json, sys; [print(r["id"], r["seed"]) for r in sorted(json.load(open(sys.argv[1]))["runs"], key=lambda r: r["id"])]' "$1"
}
want=$(for s in $BIG; do echo "outs_N1_1x1_model_default_s$s $s"; echo "pass1_N1_1x1_model_default_s$s $s"; done | sort)
check_eval "64-bit seeds: --merge keeps 2^53+1, 2^63-1, 2^64-1 exact in summary.json" \
  '[ $st -eq 1 ] && [ "$(json_seeds "$tmp/bigm/summary.json")" = "$want" ]'
check_eval "64-bit seeds: --merge keeps them exact in junit.xml" \
  '[ "$(grep -o "name=\"seed\" value=\"[0-9]*\"" "$tmp/bigm/junit.xml" | grep -o "[0-9]*" | sort -u | tr "\n" " ")" = "18446744073709551615 9007199254740993 9223372036854775807 " ]'
TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress --rerun-failed "$tmp/bigm" --no-time-instantiate \
  >"$tmp/bigr.out" 2>&1; st=$?
# the fake writes the --seed it was given into its summary.json, as `tcpa run` does
got=$(for s in $BIG; do
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["seed"])' "$tmp/bigm/rerun/outs_N1_1x1_model_default_s$s/summary.json"
done | tr '\n' ' ')
check_eval "64-bit seeds: --rerun-failed of the merge reruns exactly seeds 2^53+1, 2^63-1, 2^64-1" \
  '[ $st -eq 1 ] && grep -q "^tcpa regress: 3 runs" "$tmp/bigr.out" && [ "$got" = "$BIG " ]'
check_eval "64-bit seeds: the rerun's summary.json has them exact" \
  '[ "$(json_seeds "$tmp/bigm/rerun/summary.json")" = "$(echo "$want" | grep ^outs)" ]'
mkdir -p "$tmp/bigbad"
printf '{"tool": "tcpa regress", "runs": [{"id": "x", "suite": "s", "program": "p", "name": "p", "params": "", "pes": "1x1", "arch": "a", "engine": "ref", "seed": 1.8446744073709552e19}]}' \
  >"$tmp/bigbad/summary.json"
"$TCPA" regress --merge "$tmp/bigbad" --out-dir "$tmp/bigbadm" >/dev/null 2>"$tmp/bigbad.err"; st=$?
check_eval "64-bit seeds: a seed that is not an exact integer is refused (exit 2), not rounded" \
  '[ $st -eq 2 ] && grep -q "\"seed\" is not an integer from 0 to 2^64-1" "$tmp/bigbad.err"'
printf '{"tool": "tcpa regress", "runs": [], "total": 01}' >"$tmp/bigbad/summary.json"
"$TCPA" regress --merge "$tmp/bigbad" --out-dir "$tmp/bigbadm" >/dev/null 2>"$tmp/bigbad.err"; st=$?
check_eval "strict JSON: a leading zero in summary.json is refused with its byte offset (exit 2)" \
  '[ $st -eq 2 ] && grep -q "summary.json: leading zero in a number at byte 46" "$tmp/bigbad.err"'

# -- options: getopt_long, --filter/--exclude, --seeds, --waves, versions, report links
"$TCPA" regress "$tmp/a.suite" --list --bogus >/dev/null 2>"$tmp/o.err"; st=$?
check_eval "options: an unknown option exits 2 and is named" \
  '[ $st -eq 2 ] && grep -q "unknown option '"'"'--bogus'"'"'" "$tmp/o.err"'
"$TCPA" regress "$tmp/a.suite" --list --timeout >/dev/null 2>"$tmp/o.err"; st=$?
check_eval "options: a missing value exits 2 (--timeout needs a value)" \
  '[ $st -eq 2 ] && grep -q -- "--timeout needs a value" "$tmp/o.err"'
"$TCPA" regress "$tmp/a.suite" --list -j 0 >/dev/null 2>"$tmp/o.err"; st=$?
check_eval "options: -j 0 refused with its range (exit 2)" \
  '[ $st -eq 2 ] && grep -q -- "-j: expected an integer from 1 to 4096, got '"'"'0'"'"'" "$tmp/o.err"'
"$TCPA" regress "$tmp/a.suite" --merge "$tmp/bo" >/dev/null 2>"$tmp/o.err"; st=$?
check_eval "options: a suite and --merge together refused (exit 2)" '[ $st -eq 2 ] && grep -q "only one of them" "$tmp/o.err"'
"$TCPA" regress -j2 --jobs=2 --timeout=30 --list -- "$tmp/a.suite" >"$tmp/o.list" 2>&1; st=$?
check_eval "options: -j2, --jobs=2, --timeout=30 and a suite after -- accepted" \
  '[ $st -eq 0 ] && cmp -s "$tmp/o.list" "$tmp/a.list"'
list_ids() { "$TCPA" regress "$tmp/a.suite" --list "$@" 2>/dev/null | cut -d" " -f1; }
check_eval "--filter: only the runs whose id matches (12 bitextract runs)" \
  '[ "$(list_ids --filter "bitextract_*" | wc -l)" -eq 12 ] && ! list_ids --filter "bitextract_*" | grep -qv "^bitextract_"'
check_eval "--filter twice: runs matching either (7 fir + 4 matmul)" \
  '[ "$(list_ids --filter "fir_*" --filter "matmul_*" | wc -l)" -eq 11 ] && [ "$(list_ids --filter "fir_*" --filter "matmul_*" | grep -c ^matmul_)" -eq 4 ]'
check_eval "--exclude (several): drops the matching runs (23 - 8 seeds 2..3 of bitextract - 2 cosim = 13)" \
  '[ "$(list_ids --exclude "bitextract_*_s[23]" --exclude "*_cosim_*" | wc -l)" -eq 13 ] && ! list_ids --exclude "bitextract_*_s[23]" --exclude "*_cosim_*" | grep -q "_s2$\|_cosim_"'
check_eval "--filter with --exclude: bitextract 1x2 runs but seed 1 (4)" \
  '[ "$(list_ids --filter "bitextract_*_1x2_*" --exclude "*_s1" | tr "\n" " ")" = "bitextract_N13_1x2_model_default_s2 bitextract_N13_1x2_model_default_s3 bitextract_N20_1x2_model_default_s2 bitextract_N20_1x2_model_default_s3 " ]'
check_eval "--filter then --shard 1/2: every other run of the selection" \
  '[ "$(list_ids --filter "fir_*" --shard 1/2 | tr "\n" " ")" = "$(list_ids --filter "fir_*" | sed -n "1~2p" | tr "\n" " ")" ]'
"$TCPA" regress "$tmp/a.suite" --list --filter "nosuch*" >/dev/null 2>"$tmp/o.err"; st=$?
check_eval "--filter matching nothing: exit 2, says so" '[ $st -eq 2 ] && grep -q "none of the 23 runs is left" "$tmp/o.err"'
TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress --rerun-failed "$O" --filter "divwr*" --out-dir "$tmp/rf" \
  >"$tmp/rf.out" 2>&1; st=$?
check_eval "--rerun-failed --filter: reruns only the 3 failed divwr runs" \
  '[ $st -eq 1 ] && grep -q "^tcpa regress: 3 runs" "$tmp/rf.out" && [ "$(ls -d "$tmp"/rf/divwr* | wc -l)" -eq 3 ]'
check_eval "--seeds LIST: replaces every run line's seeds (23 / 3 x 3 = 39 runs, seeds 5 7 8)" \
  '[ "$(list_ids --seeds 5,7..8 | wc -l)" -eq 39 ] && [ "$(list_ids --seeds 5,7..8 | sed "s/.*_s//" | sort -u | tr "\n" " ")" = "5 7 8 " ]'
check_eval "--seeds takes 2^64-1" \
  '"$TCPA" regress "$tmp/a.suite" --list --seeds 18446744073709551615 --filter "fir_*_1x1_*" | grep -q " seed=18446744073709551615 .*--seed 18446744073709551615 "'
"$TCPA" regress "$tmp/a.suite" --list --seeds random:3 >"$tmp/sr1.list" 2>"$tmp/sr1.err"; st=$?
drawn=$(sed -n "s/.*drew \([0-9,]*\) (repeat with --seeds \1)$/\1/p" "$tmp/sr1.err")
"$TCPA" regress "$tmp/a.suite" --list --seeds "$drawn" >"$tmp/sr2.list" 2>/dev/null
"$TCPA" regress "$tmp/a.suite" --list --seeds random:3 2>&1 >/dev/null | sed -n "s/.*drew \([0-9,]*\) .*/\1/p" >"$tmp/sr3"
check_eval "--seeds random:3: prints the 3 seeds drawn ($drawn)" \
  '[ $st -eq 0 ] && [ "$(echo "$drawn" | tr , "\n" | grep -c "^[0-9][0-9]*$")" -eq 3 ] && [ "$(wc -l <"$tmp/sr1.list")" -eq 39 ]'
check_eval "--seeds random:3: the printed seeds reproduce the same runs and seeds" \
  '[ -n "$drawn" ] && cmp -s "$tmp/sr1.list" "$tmp/sr2.list"'
check_eval "--seeds random:3: another draw gives other seeds" '[ -s "$tmp/sr3" ] && [ "$(cat "$tmp/sr3")" != "$drawn" ]'
TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress "$tmp/a.suite" --seeds random:1 --filter "fir_*_1x1_*" \
  --no-time-instantiate --out-dir "$tmp/sr" >"$tmp/sr.out" 2>&1
check_eval "--seeds random:K: a regression prints the draw on stdout" 'grep -q "^tcpa regress: --seeds random:1 drew [0-9]* (repeat with --seeds [0-9]*)$" "$tmp/sr.out"'
for bad in "1,,2" "-1" "+1" "18446744073709551616" "0x10" "3..1" "random:0" "random:x" ""; do
  "$TCPA" regress "$tmp/a.suite" --list --seeds "$bad" >/dev/null 2>"$tmp/o.err"; st=$?
  check_eval "--seeds '$bad' refused (exit 2)" '[ $st -eq 2 ] && grep -q -- "--seeds" "$tmp/o.err"'
done
"$TCPA" regress --merge "$O" --seeds 1 >/dev/null 2>"$tmp/o.err"; st=$?
check_eval "--seeds with --merge refused (exit 2)" '[ $st -eq 2 ]'
# --waves: model and rtl runs get --fst DIR/ID/ENGINE.fst, cosim a 200-cycle window, ref nothing
cat >"$tmp/w.suite" <<EOF
suite waves
run $P/pass1.pla N=1 engine=model,rtl,ref
run $P/divwr.pla N=1 pes=1x2 engine=cosim seeds=1
EOF
TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress "$tmp/w.suite" --waves --no-time-instantiate --out-dir "$tmp/w" \
  >"$tmp/w.out" 2>&1; st=$?
W=$tmp/w
check_eval "--waves: model runs pass --fst DIR/ID/model.fst, rtl runs --fst DIR/ID/rtl.fst" \
  '[ "$(cat "$W/pass1_N1_1x1_model_default_s1/fake-fst" 2>/dev/null)" = "$W/pass1_N1_1x1_model_default_s1/model.fst" ] && [ "$(cat "$W/pass1_N1_1x1_rtl_default_s1/fake-fst" 2>/dev/null)" = "$W/pass1_N1_1x1_rtl_default_s1/rtl.fst" ]' 
check_eval "--waves: ref gets no --fst, cosim a 200-cycle --window" \
  '[ ! -e "$W/pass1_N1_1x1_ref_default_s1/fake-fst" ] && [ "$(cat "$W/divwr_N1_1x2_cosim_default_s1/fake-args")" = "cosim 200" ]'
check_eval "--waves: summary.json records waves and the command with --fst" \
  'python3 -c "import json, sys; r = {x[\"id\"]: x for x in json.load(open(sys.argv[1]))[\"runs\"]}; m = r[\"pass1_N1_1x1_model_default_s1\"]; sys.exit(not (m[\"waves\"] is True and \"--fst\" in m[\"command\"]))" "$W/summary.json"'
TCPA_REGRESS_EXEC=$tmp/fake-tcpa "$TCPA" regress "$tmp/w.suite" --no-time-instantiate --out-dir "$tmp/w0" >/dev/null 2>&1
check_eval "without --waves: no --fst" '[ ! -e "$tmp/w0/pass1_N1_1x1_model_default_s1/fake-fst" ]'
# the tool version and git revision in junit.xml and summary.json
ver=$(sed -n 's/^#define TCPA_VERSION "\(.*\)"$/\1/p' common/version.h)
rev=$(cat "$BUILD/gen/git_rev.txt" 2>/dev/null)
python3 - "$O/summary.json" "$O/junit.xml" >"$tmp/ver.txt" <<'EOF'
import json, sys, xml.dom.minidom
d = json.load(open(sys.argv[1]))
x = xml.dom.minidom.parse(sys.argv[2])
p = {q.getAttribute("name"): q.getAttribute("value") for s in x.getElementsByTagName("testsuite")
     for q in s.getElementsByTagName("property") if q.parentNode.parentNode == s}
print(d["tool_version"], d["git_revision"], p.get("tool_version"), p.get("git_revision"))
EOF
check_eval "version: summary.json and junit.xml carry the tool version $ver and git revision ${rev:-?}" \
  '[ -n "$ver" ] && [ -n "$rev" ] && [ "$(cat "$tmp/ver.txt")" = "$ver $rev $ver $rev" ]'
# report.html: the ten slowest runs, and links to each run's files where they exist
python3 - "$O/report.html" >"$tmp/slow.txt" <<'EOF'
import re, sys
h = open(sys.argv[1]).read()
t = h[h.index("<h2>Slowest runs</h2>"):]
t = t[:t.index("</table>")]
rows = re.findall(r"<tr class=\"\w+\"><td>(\d+)</td><td>([^<]*)</td><td>\w+</td><td>([0-9.]+)</td>", t)
print(len(rows), rows[0][1], all(float(rows[i][2]) >= float(rows[i + 1][2]) for i in range(len(rows) - 1)))
EOF
check_eval "report: the ten slowest runs, slowest (the 1 s timeout) first, in decreasing time" \
  '[ "$(cat "$tmp/slow.txt")" = "10 slow_N1_1x1_model_default_s1 True" ]'
# Prints "N bad kinds" for report $1: its relative links, those not pointing to an existing file
# in the report's directory tree, and the kinds of file linked.
report_links() {
  python3 - "$1" <<'EOF'
import os, re, sys, urllib.parse
d = os.path.dirname(sys.argv[1])
links = [l for l in re.findall(r'href="([^"]*)"', open(sys.argv[1]).read()) if not l.startswith("#run-")]
ok = lambda p: os.path.isfile(p) or (p.endswith("/") and os.path.isdir(p))
bad = [l for l in links if l.startswith("/") or ":" in l or not ok(os.path.join(d, urllib.parse.unquote(l)))]
print(len(links), len(bad), " ".join(sorted({os.path.basename(l) for l in links if not l.endswith("out.txt") and not l.endswith("err.txt") and not l.startswith("fcov.")})))
EOF
}
read -r nl nbad kinds <<<"$(report_links "$O/report.html")"
check_eval "report: links to logs and divergence reports, all relative and to existing files ($nl links)" \
  '[ "$nl" -gt 36 ] && [ "$nbad" -eq 0 ] && [ "$kinds" = "divergence.txt" ] && grep -q "href=\"outs_N1_1x1_model_default_s1/stderr.txt\"" "$O/report.html"'
read -r nl nbad kinds <<<"$(report_links "$W/report.html")"
check_eval "report: links to the waveforms of a --waves regression ($nl links)" \
  '[ "$nbad" -eq 0 ] && [ "$kinds" = "divergence.txt model.fst rtl.fst" ]'
read -r nl nbad kinds <<<"$(report_links "$tmp/merged/report.html")"
check_eval "report: a merged report links into the shards' directories ($nl links)" \
  '[ "$nl" -gt 36 ] && [ "$nbad" -eq 0 ] && grep -q "href=\"../shard1/" "$tmp/merged/report.html"'
check_eval "report: no link to a file that does not exist (no divergence.txt for a pass)" \
  '! grep -q "pass1_N1_1x1_model_default_s1/divergence.txt" "$O/report.html"'

# -- (D) beyond one machine: GNU parallel (this host as its only sshlogin) and
# the Slurm batch files (run here as Slurm would, task by task)
# Prints "True True" when summary.json $1 has the runs, verdicts, seeds and
# buckets of summary.json $2.
same_results() {
  python3 - "$1" "$2" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
key = lambda d: sorted((r["id"], r["verdict"], r["seed"]) for r in d["runs"])
sig = lambda d: sorted((x["count"], x["key"]) for x in d["buckets"])
print(key(a) == key(b), sig(a) == sig(b))
EOF
}
if command -v parallel >/dev/null; then
  TCPA_REGRESS_EXEC=$tmp/fake-tcpa TCPA=$TCPA bash scripts/regress-parallel.sh -n 3 -S : -o "$tmp/par" \
    "$tmp/b.suite" -- --timeout 20 >"$tmp/par.out" 2>&1; st=$?
  check_eval "regress-parallel.sh: 3 shards through GNU parallel, merged; exit 1 (runs fail)" \
    '[ $st -eq 1 ] && [ -s "$tmp/par/shard-3-of-3/summary.json" ] && [ -s "$tmp/par/merged/report.html" ]'
  check_eval "regress-parallel.sh: the merged report equals the unsharded one" \
    '[ "$(same_results "$tmp/par/merged/summary.json" "$O/summary.json")" = "True True" ]'
else
  echo "ok $((n + 1)) - regress-parallel.sh # SKIP GNU parallel is not installed (scripts/setup.sh)"; n=$((n + 1))
fi
TCPA=$TCPA bash scripts/regress-slurm.sh -n 3 -c 2 -t 00:30:00 -p debug -o "$tmp/sl" "$tmp/b.suite" -- --timeout 20 \
  >"$tmp/sl.out" 2>&1; st=$?
A=$tmp/sl/regress.sbatch M=$tmp/sl/merge.sbatch
check_eval "regress-slurm.sh: writes the array and merge batch files" '[ $st -eq 0 ] && [ -x "$A" ] && [ -x "$M" ]'
check_eval "regress-slurm.sh: #SBATCH array 1-3, 2 CPUs, 30 min, partition, log per task" \
  'grep -qx "#SBATCH --array=1-3" "$A" && grep -qx "#SBATCH --cpus-per-task=2" "$A" && grep -qx "#SBATCH --time=00:30:00" "$A" && grep -qx "#SBATCH --partition=debug" "$A" && grep -q "^#SBATCH --output=/.*/slurm-%A_%a.log$" "$A"'
check_eval "regress-slurm.sh: the task runs shard \$SLURM_ARRAY_TASK_ID/3 with the options" \
  'grep -q "regress .*b.suite --shard \"\$k/3\" -j \"\${SLURM_CPUS_PER_TASK:-2}\"" "$A" && grep -q -- "--timeout 20" "$A"'
check_eval "regress-slurm.sh: both files are valid bash" 'bash -n "$A" && bash -n "$M"'
check_eval "regress-slurm.sh: prints the dependent submission" 'grep -q "sbatch --dependency=afterany" "$tmp/sl.out"'
( unset SLURM_ARRAY_TASK_ID; bash "$A" >/dev/null 2>&1 ); st=$?
check_eval "regress-slurm.sh: outside an array task the job refuses to run" '[ $st -ne 0 ] && [ ! -d "$tmp/sl/shard-1-of-3" ]'
st=0
for k in 1 2 3; do SLURM_ARRAY_TASK_ID=$k SLURM_CPUS_PER_TASK=2 TCPA_REGRESS_EXEC=$tmp/fake-tcpa bash "$A" >/dev/null 2>&1 || st=1; done
bash "$M" >"$tmp/slm.out" 2>&1; mst=$?
check_eval "regress-slurm.sh: tasks 1..3 run as Slurm would (exit 0 despite failing runs), the merge exits 1" \
  '[ $st -eq 0 ] && [ $mst -eq 1 ]'
check_eval "regress-slurm.sh: the merged report equals the unsharded one" \
  '[ "$(same_results "$tmp/sl/merged/summary.json" "$O/summary.json")" = "True True" ]'

# -- (C) real runs --------------------------------------------------------------
# the smoke suite (model runs and a few cosim runs; make test builds the two
# RTL harnesses it needs)
start=$(date +%s)
"$TCPA" regress regress/suites/smoke --out-dir "$tmp/smoke" >"$tmp/smoke.out" 2>&1; st=$?
secs=$(( $(date +%s) - start ))
grep -v "^\[.*\] pass " "$tmp/smoke.out" | sed 's/^/# /'
check "smoke: tcpa regress regress/suites/smoke passes (${secs} s)" $st
check_eval "smoke: junit.xml well-formed, no failures" \
  'python3 -c "import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); s = d.getElementsByTagName(\"testsuite\")[0]; sys.exit(s.getAttribute(\"failures\") != \"0\" or s.getAttribute(\"errors\") != \"0\")" "$tmp/smoke/junit.xml"'
check_eval "smoke: cycles plotted for the passing engine runs" \
  '[ "$(grep -c "<circle" "$tmp/smoke/report.html")" -gt 20 ]'
python3 - "$tmp/smoke/summary.json" >"$tmp/smoke-inst.txt" <<'EOF'
import json, sys
eng = [r for r in json.load(open(sys.argv[1]))["runs"] if r["verdict"] == "pass" and r["engine"] != "ref"]
print(len(eng), sum(isinstance(r["instantiate_seconds"], float) and 0 < r["instantiate_seconds"] < 60 for r in eng))
EOF
check_eval "smoke: every passing engine run has its instantiation time, from tcpa run's summary.json ($(cat "$tmp/smoke-inst.txt"))" \
  'read -r si_eng si_timed <"$tmp/smoke-inst.txt"; [ "$si_eng" -gt 20 ] && [ "$si_eng" = "$si_timed" ]'
# the merged functional coverage (docs/regress.md "Functional coverage"):
# on stdout per group with its holes, in fcov.json (one count per bin, the
# runs that had a trace) and fcov.txt (every hole)
fc=$(sed -n 's/^functional coverage: \([0-9]*\) of \([0-9]*\) bins hit .* over \([0-9]*\) runs$/\1 \2 \3/p' "$tmp/smoke.out")
nfc=$(ls "$tmp"/smoke/*/fcov.json 2>/dev/null | wc -l)
echo "# functional coverage (hit, bins, runs): $fc; $nfc runs wrote fcov.json"
read -r fch fca fcr <<<"$fc"
check_eval "smoke: functional coverage merged over every run with a trace, some bins hit, some holes" \
  '[ -n "$fcr" ] && [ "$fcr" -eq "$nfc" ] && [ "$nfc" -ge 20 ] && [ "$fch" -ge 40 ] && [ "$fch" -lt "$fca" ]'
check_eval "smoke: every group of bins reported, with its holes" \
  'for g in op branch operand fifo fd route ag bank sig; do grep -q "^  $g  *[0-9]*/[0-9]* " "$tmp/smoke.out" || exit 1; done; grep -q "; holes: " "$tmp/smoke.out"'
python3 - "$tmp/smoke/fcov.json" >"$tmp/fcov.chk" <<'EOF'
import json, sys
b = json.load(open(sys.argv[1]))["bins"]
# every program adds, halts and moves tokens through FIFOs, wrappers and
# banks under control signals; counts are integers >= 0
ok = b["op.alu.add"] > 100 and b["branch.halt"] > 0 and b["fifo.level1"] > 0 and \
     b["route.od-e"] + b["route.w-id"] > 0 and b["ag.n.rd"] + b["ag.w.rd"] > 0 and b["sig.c0.rise"] > 0 and \
     all(isinstance(v, int) and v >= 0 for v in b.values())
print("ok" if ok else "bad", len(b), sum(1 for v in b.values() if v == 0))
EOF
read -r fck fcn fcz <"$tmp/fcov.chk"
check_eval "smoke: fcov.json counts are plausible ($fck: $fcn bins, $fcz holes)" '[ "$fck" = ok ]'
check_eval "smoke: fcov.txt lists every hole ($fcz)" \
  '[ "$(grep -o "holes: .*" "$tmp/smoke/fcov.txt" | tr " " "\n" | grep -c "\.")" -eq "$fcz" ]'

# real divergences: the RTL mutants harness (tests/faults.sh) as TCPA_RTL
# (full tier: the mutants harness is a build of its own)
if ! full_tier; then
  :
elif MUT=$(harness "" mutants); then
  for m in 5 2; do
    printf 'suite mutant%s\nrun bitextract N=13 pes=1x2 arch=default engine=cosim seeds=1,2\n' $m >"$tmp/mut.suite"
    printf '#!/bin/sh\nexec %s "$@" +mutant=%s\n' "$MUT" $m >"$tmp/mut$m.sh"; chmod +x "$tmp/mut$m.sh"
    TCPA_RTL=$tmp/mut$m.sh "$TCPA" regress "$tmp/mut.suite" --out-dir "$tmp/mut$m" >"$tmp/mut$m.out" 2>&1
    echo "# mutant $m: $(grep -o -- "-- divergence.*" "$tmp/mut$m.out" | head -n 1)"
  done
  "$TCPA" regress --merge "$tmp/mut5" "$tmp/mut2" --out-dir "$tmp/mutm" >"$tmp/mutm.out" 2>&1
  python3 - "$tmp/mutm/summary.json" >"$tmp/mutb.txt" <<'EOF'
import json, sys
for b in json.load(open(sys.argv[1]))["buckets"]:
    print(b["count"], b["signature"]["check"], b["signature"]["kind"], b["signature"]["stage"])
EOF
  sed 's/^/# bucket /' "$tmp/mutb.txt"
  check_eval "mutants: 4 cosim runs fail, in two buckets of two (one per mutant), both real divergences" \
    '[ "$(wc -l <"$tmp/mutb.txt")" -eq 2 ] && [ "$(grep -c "^2 divergence " "$tmp/mutb.txt")" -eq 2 ]'
  check_eval "mutants: ALU latency mutant (5) bucketed as a write-back divergence" \
    'grep -q "^2 divergence wr write-back" "$tmp/mutb.txt"'
  TCPA_RTL=$tmp/mut5.sh "$TCPA" regress --rerun-failed "$tmp/mut5" >"$tmp/rr.out" 2>&1
  d=$tmp/mut5/rerun/bitextract_N13_1x2_cosim_default_s1
  check_eval "mutants: --rerun-failed leaves the waveform and its save file" \
    '[ -s "$d/rtl.fst" ] && [ -s "$d/divergence.gtkw" ] && [ -s "$d/divergence.txt" ]'
else
  unbuilt "mutants: real divergences bucketed"
fi
exit $fail
