#!/usr/bin/env bash
# covers: docs/regress.md "Functional coverage", "What the coverage counts"
# coverage.sh: functional coverage of runs and the RTL's line and toggle
# coverage (docs/regress.md "Functional coverage" and "Sign-off"), TAP.
#
# Fast tier:
#   - one run's functional coverage (DIR/fcov.json) is the same counted
#     from the model's trace and from the RTL's (bitextract, 1x2,
#     default.ini): the counts describe the run, not the engine;
#   - a ref run writes none and removes a stale one;
#   - `tcpa regress --merge` adds the counts of the merged regressions.
# Full tier (the coverage harness of a small configuration, the one
# tests/signoff_cli.sh signs off, so the two share it in the harness cache):
#   - a cosim run on it with TCPA_COVERAGE_DIR leaves one counter file;
#     `tcpa-rtl-cov --coverage FILE` writes FILE; the plain harness refuses
#     --coverage (exit 3);
#   - verilator_coverage --write merges two runs' files (the merged count
#     of a point is the sum), --write-info writes an lcov tracefile with
#     every RTL source, --annotate the annotated sources, and genhtml
#     renders the tracefile as HTML.
. "$(dirname "$0")/tap.sh"
set -u
BUILD=${BUILD:-build}
[ -x "$TCPA" ] || { echo "not ok 1 - $TCPA is not built"; exit 1; }

# -- fast: one run, two engines ------------------------------------------------
run() { # run ENGINE DIR [ARGS...]: bitextract N=13 on 1x2
  local e=$1 d=$2
  shift 2
  "$TCPA" run regress/programs/bitextract.pla --param N=13 --pes 1x2 --engine "$e" --out-dir "$d" "$@" \
    >"$d.out" 2>&1
}
run model "$tmp/m"; st=$?
check_eval "model run writes fcov.json (exit $st)" '[ $st -eq 0 ] && [ -s "$tmp/m/fcov.json" ]'
run rtl "$tmp/r"; st=$?
check_eval "rtl run writes fcov.json from rtl.trace (exit $st)" \
  '[ $st -eq 0 ] && [ -s "$tmp/r/fcov.json" ] && [ -s "$tmp/r/rtl.trace" ] && [ ! -e "$tmp/r/model.trace" ]'
check_eval "the model's and the RTL's traces give the same functional coverage" \
  'cmp -s "$tmp/m/fcov.json" "$tmp/r/fcov.json"'
python3 - "$tmp/m/fcov.json" >"$tmp/m.chk" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
b = j["bins"]
# bitextract: shifts and masks on the ALUs, no multiplier, halts, tokens
# through FIFOs; default.ini has no divider, so no op.div bin
ok = j["fcov"] == 1 and j["runs"] == 1 and b["op.alu.shr"] > 0 and b["op.alu.and"] > 0 and \
     b["op.mul.mul"] == 0 and not any(k.startswith("op.div.") for k in b) and b["branch.halt"] > 0 and \
     b["fifo.level1"] > 0 and b["fifo.empty"] > 0 and "sig.c7.rise" in b and "sig.c8.rise" not in b and \
     sum(v for k, v in b.items() if k.startswith("value.") and ".shift." in k) > 0  # operand values counted
print("ok" if ok else "bad", len(b))
EOF
read -r mk mn <"$tmp/m.chk"
check_eval "bitextract's counts are what the program does ($mn bins)" '[ "$mk" = ok ]'
cp "$tmp/m/fcov.json" "$tmp/keep.json"
run ref "$tmp/m"; st=$?
check_eval "a ref run writes no fcov.json and removes the stale one (exit $st)" \
  '[ $st -eq 0 ] && [ ! -e "$tmp/m/fcov.json" ]'

printf 'suite one\nrun bitextract N=13 pes=1x2 arch=default engine=model\n' >"$tmp/one.suite"
printf 'suite two\nrun bitextract N=13 pes=1x1 arch=default engine=model\nrun bitextract N=13 pes=1x1 arch=default engine=ref\n' \
  >"$tmp/two.suite"
"$TCPA" regress "$tmp/one.suite" --out-dir "$tmp/g1" >"$tmp/g1.out" 2>&1 &&
  "$TCPA" regress "$tmp/two.suite" --out-dir "$tmp/g2" >"$tmp/g2.out" 2>&1 &&
  "$TCPA" regress --merge "$tmp/g1" "$tmp/g2" --out-dir "$tmp/gm" >"$tmp/gm.out" 2>&1
st=$?
python3 - "$tmp/g1/fcov.json" "$tmp/g2/fcov.json" "$tmp/gm/fcov.json" >"$tmp/gm.chk" <<'EOF'
import json, sys
a, b, m = (json.load(open(p)) for p in sys.argv[1:4])
ok = m["runs"] == a["runs"] + b["runs"] == 2 and \
     all(m["bins"][k] == a["bins"][k] + b["bins"][k] for k in a["bins"]) and set(m["bins"]) == set(a["bins"])
print("ok" if ok else "bad")
EOF
check_eval "regress --merge adds the functional coverage of the merged regressions (exit $st)" \
  '[ $st -eq 0 ] && [ "$(cat "$tmp/gm.chk")" = ok ] && grep -q "^functional coverage: .* over 2 runs$" "$tmp/gm.out" &&
   grep -q "^(1 run without functional coverage" "$tmp/g2.out"'
# the field coverage of the streams (docs/regress.md "Field coverage"): its
# groups merged with the rest, and the fields the runs left at one class
python3 - "$tmp/gm/fcov.json" >"$tmp/gf.chk" <<'EOF'
import json, sys
b = json.load(open(sys.argv[1]))["bins"]
# bitextract on 1x1 and 1x2: one PE row (no row coefficient acts), every
# program on alu FUs, a GC index 0 started
ok = b["field.start.index.zero"] == 2 and b["field.start.index.nonzero"] == 0 and \
     b["field.program.cols.one"] + b["field.program.cols.more"] > 0 and b["insn.alu.op.shr"] > 0 and \
     b["field.ag.row_coef.zero"] + b["field.ag.row_coef.pos"] + b["field.ag.row_coef.neg"] == 0
print("ok" if ok else "bad", sum(1 for k in b if k.startswith(("field.", "insn."))))
EOF
read -r gfk gfn <"$tmp/gf.chk"
check_eval "regress merges the field coverage ($gfn field bins) and lists the fields left at one class" \
  '[ "$gfk" = ok ] && grep -q "^fields at one value class: [1-9][0-9]* of " "$tmp/gm.out" &&
   grep -q "^  field.start.index=zero$" "$tmp/gm/fcov.txt"'

# -- full: the RTL's line and toggle coverage -------------------------------------
if full_tier; then
  D=$tmp/cov
  mkdir -p "$D/dir"
  # the configuration tests/signoff_cli.sh signs off (the same harness)
  sed -n '/^cat >"\$D\/pair.ini" <<.EOF.$/,/^EOF$/p' tests/signoff_cli.sh | sed '1d;$d' >"$D/pair.ini"
  start=$(date +%s)
  COV=$(harness "$D/pair.ini" cov 2>"$D/h.err"); st=$?
  check "the coverage harness of pair.ini ($(( $(date +%s) - start )) s)" $st
  TCPA_RTL=$COV TCPA_COVERAGE_DIR=$D/dir "$TCPA" run regress/programs/bitextract.pla --param N=13 --pes 1x2 \
    --arch "$D/pair.ini" --engine cosim --out-dir "$D/run" >"$D/run.out" 2>&1; st=$?
  check_eval "a cosim run on it with TCPA_COVERAGE_DIR leaves one counter file (exit $st)" \
    '[ $st -eq 0 ] && [ "$(ls "$D/dir" | grep -c "^cov-[0-9]*\.dat$")" -eq 1 ]'
  "$COV" "$D/run/config.bin" --coverage "$D/direct.dat" >/dev/null 2>&1; st=$?
  check_eval "tcpa-rtl-cov --coverage FILE writes FILE through Verilator's API (exit $st)" \
    '[ $st -eq 0 ] && head -n 1 "$D/direct.dat" | grep -q "^# SystemC::Coverage" && grep -q "v_toggle/" "$D/direct.dat"'
  # the plain harness of default.ini (the fast tier's) and its stream
  PLAIN=$(harness)
  [ -n "$PLAIN" ] && "$PLAIN" "$tmp/r/config.bin" --coverage "$D/none.dat" >/dev/null 2>"$D/plain.err"; st=$?
  check_eval "the plain harness refuses --coverage (exit 3) and writes nothing" \
    '[ $st -eq 3 ] && grep -q "built without coverage" "$D/plain.err" && [ ! -e "$D/none.dat" ]'
  verilator_coverage --write "$D/merged.dat" "$D"/dir/cov-*.dat "$D/direct.dat" >"$D/vc.log" 2>&1; st=$?
  # a point's merged count is the sum of its counts in the two runs
  python3 - "$D"/dir/cov-*.dat "$D/direct.dat" "$D/merged.dat" >"$D/sum.chk" <<'EOF'
import sys
def read(p):
    d = {}
    for l in open(p, encoding="latin-1"):
        if l.startswith("C '"):
            k, _, n = l.rstrip("\n").rpartition("' ")
            d[k] = int(n)
    return d
a, b, m = (read(p) for p in sys.argv[1:4])
hit = [k for k in a if a[k] > 0]
print("ok" if len(m) == len(a) > 100 and hit and all(m[k] == a[k] + b[k] for k in a) else "bad", len(m))
EOF
  read -r sk sn <"$D/sum.chk"
  check_eval "verilator_coverage --write merges two runs, each point the sum ($sn points, exit $st)" \
    '[ $st -eq 0 ] && [ "$sk" = ok ]'
  verilator_coverage --write-info "$D/merged.info" "$D/merged.dat" >>"$D/vc.log" 2>&1 &&
    grep -q "^SF:.*tcpa_pe.sv$" "$D/merged.info" && grep -q "^DA:[0-9]*,[1-9]" "$D/merged.info" &&
    grep -q "^DA:[0-9]*,0$" "$D/merged.info"
  check "verilator_coverage --write-info: an lcov tracefile of the RTL sources, lines hit and not" $?
  verilator_coverage --annotate "$D/ann" --annotate-min 1 "$D/merged.dat" >>"$D/vc.log" 2>&1 &&
    [ -s "$D/ann/tcpa_pe.sv" ] && grep -q "^%000000	" "$D/ann/tcpa_pe.sv" && grep -q "^ 0*[1-9][0-9]*	" "$D/ann/tcpa_pe.sv"
  check "verilator_coverage --annotate: tcpa_pe.sv with its counts, never-hit lines marked" $?
  if command -v genhtml >/dev/null; then
    genhtml --quiet --output-directory "$D/html" "$D/merged.info" >"$D/genhtml.log" 2>&1 &&
      [ -s "$D/html/index.html" ] && grep -q "tcpa_pe.sv" -r "$D/html"
    ok=$?; check "genhtml renders the tracefile ($(tail -n 1 "$D/genhtml.log"))" $ok
  else
    skip "genhtml renders the tracefile" "genhtml (lcov) is not installed: scripts/setup.sh installs it"
  fi
fi
exit $fail
