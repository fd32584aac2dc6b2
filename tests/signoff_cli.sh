#!/usr/bin/env bash
# covers: docs/regress.md "Sign-off", "What the coverage counts"
# signoff_cli.sh: `tcpa signoff` (docs/regress.md "Sign-off"), TAP, on an
# architecture configuration the project has never seen (a 1x2 array of
# large PEs without a divider, written here) with a tiny suite: bitextract
# (fits) and jacobi (needs a divider: does not fit, pe.div 1 needed, 0
# available), on every region of the array (1x1, 1x2) in cosim. One
# sign-off: it lints, synthesizes (Yosys, minutes) and builds the coverage
# harness (Verilator, minutes), so it runs once; the report is then checked
# piece by piece (the fitting runs out of all, printed and in the report,
# equal to the runs listed). Option errors are checked first (fast). The sign-off's
# directory is build/test-signoff, kept between runs so that make reuses the
# harness and the synthesis while the RTL does not change.
# tier: full (Yosys synthesis and the coverage harness: minutes)
. "$(dirname "$0")/tap.sh"
set -u
BUILD=${BUILD:-build}
[ -x "$TCPA" ] || { echo "not ok 1 - $TCPA is not built"; exit 1; }

"$TCPA" signoff --out-dir "$tmp/x" >/dev/null 2>"$tmp/e1"; st=$?
check_eval "signoff: --arch is required (exit 2)" '[ $st -eq 2 ] && grep -q "arch A.ini is required" "$tmp/e1"'
printf '[array]\nrows = 0\n' >"$tmp/bad.ini"
"$TCPA" signoff --arch "$tmp/bad.ini" --out-dir "$tmp/x" >/dev/null 2>"$tmp/e2"; st=$?
check_eval "signoff: an invalid configuration is exit 2 with file:line" '[ $st -eq 2 ] && grep -q "bad.ini:2" "$tmp/e2"'
"$TCPA" signoff --arch configs/default.ini --suite "$tmp/none" --out-dir "$tmp/x" >/dev/null 2>"$tmp/e3"; st=$?
check_eval "signoff: a missing suite is exit 2" '[ $st -eq 2 ] && grep -q "suite" "$tmp/e3"'
"$TCPA" signoff --arch configs/default.ini --min-fit 101 --out-dir "$tmp/x" >/dev/null 2>"$tmp/e4"; st=$?
check_eval "signoff: --min-fit 101 is exit 2 naming the option" '[ $st -eq 2 ] && grep -q "min-fit" "$tmp/e4"'
printf 'testplan: 1\nfeatures: [\n' >"$tmp/badplan.yml"
"$TCPA" signoff --arch configs/default.ini --testplan "$tmp/badplan.yml" --out-dir "$tmp/x" >/dev/null 2>"$tmp/e5"; st=$?
check_eval "signoff: a testplan that does not read is exit 2 with its place, before any step" \
  '[ $st -eq 2 ] && grep -q "testplan: .*badplan.yml:[0-9]*:[0-9]*:" "$tmp/e5" && [ ! -e "$tmp/x/lint.log" ]'

D=$tmp/signoff
mkdir -p "$D"
cat >"$D/pair.ini" <<'EOF'
; pair.ini: written by tests/signoff_cli.sh: a 1x2 array of small PEs
; without a divider, unknown to configs/ (small, so that synthesis and the
; coverage build stay short)
[array]
rows = 1
cols = 2
[pe]
alu = 2
mul = 1
div = 0
rd = 4
fd = 2
fd_depth = 4
id = 2
od = 2
fifo_depth = 4
imem = 24
branch_targets = 2
[interconnect]
ports = 2
[gc]
signals = 4
dims = 2
history = 16
[iobuf]
banks = 2
depth = 64
EOF
cat >"$D/tiny.suite" <<'EOF'
suite tiny
set engine=model timeout=600
run bitextract N=13 expect=pass
run jacobi T=2 N=4 expect=nofit
EOF
start=$(date +%s)
"$TCPA" signoff --arch "$D/pair.ini" --suite "$D/tiny.suite" --out-dir "$D/out" >"$tmp/out" 2>"$tmp/err"; st=$?
echo "# tcpa signoff took $(( $(date +%s) - start )) s"
sed 's/^/# /' "$tmp/err"
R=$D/out
check "signoff: PASS (exit 0)" $st
check_eval "signoff: report.md starts with the verdict" '[ "$(head -n 1 "$R/report.md")" = "# PASS" ]'
check_eval "signoff: the testplan measured: a row per feature of docs/testplan.yml, the features closed counted" \
  '[ $(grep -c "^| [a-z_.]* | .* | [0-9]*/[0-9]* | [0-9]*/[0-9]* | [-0-9.]* | [-0-9.]* | [a-z0-9].* |$" "$R/report.md") -eq $(grep -c "^  - name: " docs/testplan.yml) ] &&
   grep -q "^Testplan: [0-9]* of [0-9]* features closed.*host_port\.$" "$R/report.md"'
check_eval "signoff: the verdict says how much ran: 2 of 4 runs fit, the floor 50 % (stdout, report.md, report.html)" \
  'grep -qx "PASS: 2 of 4 runs fit (50.0 %; floor --min-fit 50 %)" "$tmp/out" &&
   grep -qx "\*\*2 of 4 runs fit (50.0 %; floor --min-fit 50 %)\*\*" "$R/report.md" &&
   grep -q "<p class=\"fit\"><b>2 of 4 runs fit (50.0 %; floor --min-fit 50 %)</b></p>" "$R/report.html"'
check_eval "signoff: the step table gives the coverage build's log in the harness cache, and whether it was built now" \
  'grep -q "^| coverage build | pass | .*tcpa-rtl-cov (verilator --coverage-line --coverage-toggle; \(built in [0-9]* s\|cached\)) | .*build/harness/cov-[0-9a-f]*/build.log | [0-9]* |$" "$R/report.md"'
check_eval "signoff: each step names its live log; synthesis Yosys's own, the coverage build the harness's" \
  'grep -q "^tcpa signoff: lint \.\.\. (live log: .*/lint.log)$" "$tmp/err" &&
   grep -q "^tcpa signoff: synthesis \.\.\. (live log: .*/rtl/synth/yosys.log.tmp)$" "$tmp/err" &&
   grep -q "^tcpa signoff: coverage build \.\.\. (live log: .*build/harness/cov-[0-9a-f]*\(/build.log\|/tcpa-rtl-cov (cached)\))$" "$tmp/err"'
ver=$("$TCPA" --version)
check_eval "signoff: report.md and report.html name the tool ($ver)" \
  'grep -qxF "Tool: $ver." "$R/report.md" && grep -qF "<p>Tool: $ver.</p>" "$R/report.html"'
check_eval "signoff: report.html shows the verdict first" \
  'grep -o "<h1[^>]*>[A-Z]*</h1>" "$R/report.html" | head -n 1 | grep -q ">PASS<"'
check_eval "signoff: every step passed (parameters, lint, synthesis, coverage build, regression, coverage)" \
  '[ "$(grep -c "^| [a-z ]* | pass |" "$R/report.md")" -eq 6 ]'
check_eval "signoff: every step's wall time in the step table, the whole sign-off's below it" \
  '[ "$(grep -c "^| [a-z ]* | pass | .* | [0-9][0-9]* |$" "$R/report.md")" -eq 6 ] && grep -q "Wall time of the sign-off: [0-9][0-9]* s" "$R/report.md"'
check_eval "signoff: lint clean" 'grep -q "^| lint | pass | verilator --lint-only -Wall: exit 0, 0 warnings, 0 errors" "$R/report.md"'
total=$(sed -n 's/^| TOTAL (flattened) | \([0-9]*\) .*/\1/p' "$R/report.md")
check_eval "signoff: Yosys cells per module and a total ($total)" \
  '[ "${total:-0}" -gt 100 ] && grep -q "^| tcpa_pe | [1-9][0-9]* |" "$R/report.md"'
check "signoff: junit.xml beside the reports, well-formed" \
  "$(python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$R/junit.xml" >/dev/null 2>&1; echo $?)"
check_eval "signoff: every region of the 1x2 array, in cosim (4 runs)" \
  '[ "$(grep -c "<testcase" "$R/junit.xml")" -eq 4 ] && [ "$(grep -c "<testcase [^>]*name=\"[a-z]*_[^\"]*_1x[12]_cosim_pair_s1\"" "$R/junit.xml")" -eq 4 ]'
check_eval "signoff: jacobi does not fit: pe.div, needs 1, has 0, over by 1" \
  '[ "$(grep -c "^| jacobi | T=2 N=4 | 1x[12] | pe.div | 1 | 0 | 1 |" "$R/report.md")" -eq 2 ]'
# the fitting runs out of all, printed and in the report, equal to the runs
# listed: the junit test cases less the rows of "Programs that do not fit"
runs=$(grep -c "<testcase" "$R/junit.xml")
nofit=$(grep -c "^| [a-z]* | [^|]* | [0-9]*x[0-9]* | [^|]* | [0-9?]* | [0-9?]* | [0-9?-]* |" "$R/report.md")
check_eval "signoff: prints 'fitting runs: 2 of 4' ($runs runs listed, $nofit do not fit)" \
  'grep -qx "fitting runs: 2 of 4" "$tmp/out" && [ $((runs - nofit)) -eq 2 ] && [ "$runs" -eq 4 ]'
check_eval "signoff: report.md and report.html say 'fitting runs: 2 of 4', the regression step too" \
  'grep -q "^fitting runs: 2 of 4 (2 do not fit" "$R/report.md" && grep -q "<p>fitting runs: 2 of 4 (" "$R/report.html" &&
   grep -q "^| regression | pass | .*; fitting runs: 2 of 4 |" "$R/report.md"'
check_eval "signoff: fit per program and region: bitextract fits on 1x1 and 1x2, jacobi needs pe.div" \
  'grep -qx "| program | parameters | 1x1 | 1x2 |" "$R/report.md" && grep -qx "| bitextract | N=13 | fits | fits |" "$R/report.md" &&
   grep -qx "| jacobi | T=2 N=4 | pe.div 1/0 | pe.div 1/0 |" "$R/report.md"'
line=$(sed -n 's/^| total | \([0-9]*\) | \([0-9]*\) | \([0-9.]*\) | \([0-9]*\) | \([0-9]*\) | \([0-9.]*\) |$/\1 \2 \4 \5/p' "$R/report.md")
echo "# coverage (line hit, points, toggle hit, points): $line"
read -r lh la th ta <<<"$line"
check_eval "signoff: line and toggle coverage collected, some points hit, some not" \
  '[ -n "$ta" ] && [ $lh -gt 0 ] && [ $lh -lt $la ] && [ $th -gt 0 ] && [ $th -lt $ta ]'
check_eval "signoff: the merged coverage.dat comes from the 2 runs that reached the RTL" \
  '[ -s "$R/coverage.dat" ] && [ "$(ls "$R/cov" | grep -c "^cov-")" -eq 2 ]'
check_eval "signoff: verilator_coverage's tracefile and annotated sources, genhtml's pages, linked from the report" \
  'grep -q "^SF:.*tcpa_pe.sv$" "$R/coverage.info" && grep -q "^%000000	" "$R/annotated/tcpa_pe.sv" &&
   [ -s "$R/coverage-html/index.html" ] && grep -q "href=\"coverage-html/index.html\"" "$R/report.html" &&
   grep -q "^| coverage | pass | .*source lines [0-9.]*% ([1-9][0-9]*/[1-9][0-9]*, coverage.info)" "$R/report.md"'
fsum=$(sed -n 's/^\([0-9]*\) of \([0-9]*\) bins hit .* over \([0-9]*\) runs; regress\/fcov.json.*/\1 \2 \3/p' "$R/report.md")
echo "# functional coverage (hit, bins, runs): $fsum"
read -r fh fa fr <<<"$fsum"
check_eval "signoff: the regression's functional coverage in the report, over the 2 runs that ran, with its holes" \
  '[ "$fr" = 2 ] && [ "$fh" -gt 10 ] && [ "$fh" -lt "$fa" ] && grep -q "^## Functional coverage" "$R/report.md" &&
   grep -q "^| op | [1-9][0-9]* | [0-9]* | [0-9.]* | [1-9][0-9]* | op\.alu\.[a-z]*, " "$R/report.md" &&
   grep -q "<th>holes</th>" "$R/report.html"'

# a FAIL: the same configuration (builds reused) with a run expected to pass
# that does not fit
cat >"$D/fail.suite" <<'EOF'
run jacobi T=2 N=4 expect=pass
run bitextract N=13
EOF
"$TCPA" signoff --arch "$D/pair.ini" --suite "$D/fail.suite" --out-dir "$D/out" >"$tmp/out2" 2>"$tmp/err2"; st=$?
check_eval "signoff: a run not as expected is FAIL (exit 1), bucketed in the report" \
  '[ $st -eq 1 ] && [ "$(head -n 1 "$R/report.md")" = "# FAIL" ] && grep -q "^| regression | FAIL |" "$R/report.md" && grep -q "^| jacobi_.* | nofit | 1 | nofit |" "$R/report.md"'

# INCOMPLETE: the same sign-off (builds reused) under a floor of 60 %
"$TCPA" signoff --arch "$D/pair.ini" --suite "$D/tiny.suite" --out-dir "$D/out" --min-fit 60 >"$tmp/out3" 2>"$tmp/err3"; st=$?
check_eval "signoff: 2 of 4 runs fit under --min-fit 60 is INCOMPLETE (exit 3), stated with the ratio and the floor" \
  '[ $st -eq 3 ] && [ "$(head -n 1 "$R/report.md")" = "# INCOMPLETE" ] &&
   grep -q "^INCOMPLETE: only 2 of 4 runs fit (50.0 %), under the floor --min-fit 60 %: " "$tmp/out3" &&
   grep -o "<h1[^>]*>[A-Z]*</h1>" "$R/report.html" | head -n 1 | grep -q ">INCOMPLETE<"'
exit $fail
