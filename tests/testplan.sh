#!/usr/bin/env bash
# covers: docs/testplan.md
# testplan.sh: the testplan docs/testplan.yml and `tcpa testplan`
# (docs/testplan.md), TAP. The plan of the tree holds (every test, suite
# program, bin pattern and RTL module it names exists; every bin of
# configs/*.ini belongs to a feature) and names every feature of the TCPA;
# copies of it broken one way each fail, naming the line and what is
# missing; a plan that is not YAML or has an unknown key is invalid input
# (exit 2, file:line:column); measured on a small regression in the model
# (two runs), each feature's bins hit and defined are those of the
# regression's fcov.json, counted here again with awk.
. "$(dirname "$0")/tap.sh"
set -u
[ -x "$TCPA" ] || { echo "not ok 1 - $TCPA is not built"; exit 1; }
P=docs/testplan.yml

"$TCPA" testplan >"$tmp/ok.out" 2>&1; st=$?
check_eval "the testplan holds: exit 0, 0 problems" '[ $st -eq 0 ] && grep -q ": 0 problems$" "$tmp/ok.out"'
for f in fu.arith fu.unary fu.mul fu.div fu.cmp fu.minmax fu.shift fu.logic fu.select fu.nop branch registers \
         fifo feedback wrapper gc regions ag banks loader counters host_port; do
  grep -q "^  - name: $f$" "$P" || { echo "# feature $f missing"; miss=1; }
done
check_eval "the testplan names every feature of the TCPA" '[ -z "${miss:-}" ]'

# broken copies: each a problem, exit 1, with the plan's line
broken() { # broken NAME SED-EXPR PATTERN: the copy edited by SED-EXPR fails with PATTERN on stdout
  sed "$2" "$P" >"$tmp/$1.yml"
  "$TCPA" testplan --plan "$tmp/$1.yml" >"$tmp/$1.out" 2>&1; local s=$?
  check_eval "testplan: $1 fails (exit 1) naming it" "[ $s -eq 1 ] && grep -q -- \"$3\" \"$tmp/$1.out\""
}
line=$(grep -n "tests: \[test_isa, test_model, test_valcov, tests/gen_stream.sh, tests/gen_program.sh\]" "$P" | head -1 | cut -d: -f1)
broken "a missing script" "${line}s|tests/gen_program.sh|tests/no_such_test.sh|" \
  ".yml:$line: feature fu.arith: test tests/no_such_test.sh does not exist"
broken "a missing unit test" "${line}s|test_isa,|test_no_such,|" "feature fu.arith: test test_no_such does not exist"
broken "a bin pattern that matches nothing" "s|bins: \[fifo\.\*\]|bins: [fifo.*, fifo.overflow]|" \
  "feature fifo: bin fifo.overflow matches no functional coverage bin"
broken "a bin group without its feature" "s|bins: \[fifo\.\*\]|bins: [fifo.level*]|" \
  "bin fifo.empty belongs to no feature"
broken "a run that is no program of the suite" "s|runs: \[gcd, jacobi\]|runs: [gcd, nosuch]|" \
  "feature fu.div: run nosuch names no program"
broken "a missing RTL module" "s|rtl: \[tcpa_fifo\]|rtl: [tcpa_fifo_x]|" "RTL module tcpa_fifo_x has no rtl/tcpa_fifo_x.sv"

# invalid plans: exit 2 with file:line:column
printf 'testplan: 1\nfeatures:\n  - name: a\n    tests: [x\n' >"$tmp/bad1.yml"
"$TCPA" testplan --plan "$tmp/bad1.yml" >/dev/null 2>"$tmp/bad1.err"; st=$?
check_eval "testplan: not YAML is exit 2 with file:line:column" '[ $st -eq 2 ] && grep -q "bad1.yml:[0-9]*:[0-9]*:" "$tmp/bad1.err"'
printf 'testplan: 1\nfeatures:\n  - name: a\n    test: [tests/rtl.sh]\n' >"$tmp/bad2.yml"
"$TCPA" testplan --plan "$tmp/bad2.yml" >/dev/null 2>"$tmp/bad2.err"; st=$?
check_eval "testplan: an unknown key is exit 2 at its line" '[ $st -eq 2 ] && grep -q "bad2.yml:4:5: unknown key.*test$" "$tmp/bad2.err"'
printf 'testplan: 1\nfeatures:\n  - name: a\n  - name: a\n' >"$tmp/bad3.yml"
"$TCPA" testplan --plan "$tmp/bad3.yml" >/dev/null 2>"$tmp/bad3.err"; st=$?
check_eval "testplan: a feature named twice is exit 2" '[ $st -eq 2 ] && grep -q "bad3.yml:4:.*named twice: a" "$tmp/bad3.err"'

# measured on a regression of two model runs
printf 'suite tp\nset engine=model arch=default pes=1x2 expect=pass\nrun bitextract N=13\nrun fir N=9 T=3\n' >"$tmp/tp.suite"
"$TCPA" regress "$tmp/tp.suite" --out-dir "$tmp/reg" -j 1 >"$tmp/reg.out" 2>&1
"$TCPA" testplan --regress "$tmp/reg" >"$tmp/m.out" 2>&1; st=$?
check_eval "testplan --regress: exit 0 with a row per feature" '[ $st -eq 0 ] && [ $(grep -c "^[a-z_.]* *[0-9]* *[0-9]*/[0-9]*" "$tmp/m.out") -eq 23 ]'
# fifo's bins (fifo.*) and wrapper's (route.*, field.wrapper.*) counted again from fcov.json
count() { # count ERE: "hit/all" of the bins of the regression matching ERE
  tr ',{' '\n\n' <"$tmp/reg/fcov.json" | grep -E "^ *\"($1)" | awk -F: '{a++; if ($2 + 0 > 0) h++} END {printf "%d/%d", h, a}'
}
f=$(count 'fifo\.'); w=$(count 'route\.|field\.wrapper\.')
check_eval "testplan --regress: fifo's bins $f as in fcov.json" 'grep -Eq "^fifo +4 +2/2 +$f " "$tmp/m.out"'
check_eval "testplan --regress: wrapper's bins $w as in fcov.json" 'grep -Eq "^wrapper +5 +2/2 +$w " "$tmp/m.out"'
check_eval "testplan --regress: the host port has no test, not closed" 'grep -Eq "^host_port .* no test; no run$" "$tmp/m.out"'
check_eval "testplan --regress: no divider on default.ini: fu.div not on this configuration" \
  'grep -Eq "^fu.div .*0/0 +not on this configuration$" "$tmp/m.out"'
check_eval "testplan --regress: the count of features closed" 'grep -Eq "^testplan: [0-9]+ of 22 features closed.*; 1 not on this configuration$" "$tmp/m.out"'
exit $fail
