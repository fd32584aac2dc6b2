#!/usr/bin/env bash
# covers: docs/user-guide.md "tcpa run", "Cycles", "The RTL engine",
#   "summary.json", docs/rtl.md "Fault injection",
#   docs/trace.md "Model and RTL in one waveform"
# engine_cli.sh: `tcpa run --engine model|rtl|cosim` from the outside
# (docs/user-guide.md). For each run: exit 0, the outputs in --out-dir are
# the engine's (summary.json's outputs.engine: the model's, the RTL's for
# rtl and cosim) and equal those of the plain-C implementation
# (tests/tools/refimpl, on the inputs the run wrote), and summary.json's
# cycles and done cycles equal the schedule's prediction it records.
#   - bitextract on 1x1, 1x2, 1x3, 1x4, 4x1 with N dividing and not dividing
#     the region, on the C model;
#   - the other benchmarks that map on configs/big1d.ini, on the C model;
#   - --out-dir keeps config.bin (the stream reader accepts it), config.lst,
#     model.trace (a trace.md header);
#   - exit 3: a 1-D program on a 2-D region, a program too big for the architecture;
#   - a fake tcpa-rtl (TCPA_RTL) whose banks hold zeros: exit 1 naming the
#     array, index, expected and got; with --out-dir, bits.txt holds the
#     zeros, ref/bits.txt equals refimpl, diff.txt lists the differing
#     elements as in the files; one that dumps no banks: every element
#     written as -2147483648, "got nothing"; a passing rerun into the same
#     directory removes diff.txt; one whose trace differs in one value:
#     cosim exit 1 with the divergence in summary.json, bits.txt the RTL's;
#   - cosim on the real RTL (the harnesses of `tcpa harness`, built when
#     missing) against the reference: bitextract on 1x1, 1x2, 1x3, 1x4, 4x1
#     (default.ini); in the full tier, fir, matmul, trimv on big1d.ini on
#     1x1..1x4 and 4x1, bounds dividing the region and not;
#   - the waveform at a divergence: a fake harness runs the real one and
#     changes one value of its trace: cosim reruns it with --fst-window
#     around the divergence, divergence.txt holds the report, and
#     divergence.gtkw has its marker at the divergence's FST time and names
#     only signals of the FST (fst2vcd), the PE's among them; the FST holds
#     only the window's cycles; cosim reads the harness's trace over the
#     lockstep pipe (--trace-bin; a fake writes text there) and reruns it to its end (FST: only
#     the window), whose banks give bits.txt (= refimpl);
#   - lockstep stops early: a stream poked so that the run diverges within
#     a few cycles of a ~1200-cycle run: cosim stops at the model's first
#     affected cycle, and the harness reports far fewer cycles simulated
#     than the clean run's (summary.json, stdout, divergence.txt);
#   - a wrong RTL caught through its outputs: RTL mutant 9 (`and` computes
#     a | b; the mutants harness with +mutant=9) on rtl and cosim: exit 1,
#     bits.txt holds its values, which differ from refimpl's, diff.txt
#     names them (full tier: the mutants harness is a build of its own;
#     when it does not build, the check fails).
# Prints TAP lines.
set -u
BUILD=${BUILD:-build}
. "$(dirname "$0")/tap.sh"
unset TCPA_RTL
TCPA_ABS=$(cd "$(dirname "$TCPA")" && pwd)/$(basename "$TCPA")
REFX=${REFX:-$BUILD/tests/tools/refimpl}
. "$(dirname "$0")/refcmp.sh"
if [ ! -x "$REFX" ]; then
  echo "not ok 1 - refimpl not built ($REFX): make $REFX"
  exit 1
fi

# Prints one TAP line: check NAME STATUS [DIRECTIVE] (tap.sh's check with
# a directive, which makes a failure not count).
check() {
  n=$((n + 1))
  if [ "$2" -eq 0 ]; then echo "ok $n - $1${3:+ $3}"; else echo "not ok $n - $1${3:+ $3}"; [ -n "${3:-}" ] || fail=1; fi
}

# Prints the value of key $2 in summary.json $1 (numbers, null, strings).
jget() {
  sed -n "s/^  \"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1" | head -1
}

# Runs PROG with ARGS on ENGINE (--out-dir $tmp/e) and refimpl (the plain-C
# implementation) on the inputs the run used ($tmp/want); returns 0 when
# the engine exits 0, its summary says the outputs are the engine's (the
# RTL's for cosim), every output file equals refimpl's, and the cycles are
# the predicted ones. Sets $rc and $msg.
run_cmp() {
  local prog=$1 engine=$2; shift 2
  rm -rf "$tmp/e" "$tmp/want"
  mkdir -p "$tmp/want"
  timeout 120 $TCPA run regress/programs/$prog.pla --engine $engine --out-dir "$tmp/e" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  msg="exit $rc"
  [ $rc -eq 0 ] || { sed 's/^/#   /' "$tmp/err" | head -5; return 1; }
  local who=$(ref_outputs_engine "$tmp/e") want=$engine
  [ "$engine" = cosim ] && want=rtl
  [ "$who" = "$want" ] || { msg="$msg, the outputs are '$who's, not $want's"; return 1; }
  # shellcheck disable=SC2046
  "$REFX" $prog $(ref_param_args "$@") --in-dir "$tmp/e/inputs" --out-dir "$tmp/want" >"$tmp/ref.log" 2>&1 ||
    { msg="$msg, refimpl failed: $(head -1 "$tmp/ref.log")"; return 1; }
  ref_outputs_compare "$REFX" "$tmp/e" "$tmp/want" >"$tmp/cmp" || { msg="$msg, $who's outputs differ from refimpl"; cat "$tmp/cmp"; return 1; }
  local outs=$(ls "$tmp/want" | wc -l)
  [ $outs -gt 0 ] || { msg="$msg, no output"; return 1; }
  msg="$msg, $outs output(s) of $who = refimpl"
  local s=$tmp/e/summary.json
  local c=$(jget "$s" cycles) pc=$(jget "$s" predicted_cycles) d=$(jget "$s" done_cycles) pd=$(jget "$s" predicted_done_cycles)
  msg="$msg, cycles $c (predicted $pc), done $d (predicted $pd)"
  [ "$(jget "$s" status)" = pass ] && [ -n "$c" ] && [ "$c" = "$pc" ] && [ "$d" = "$pd" ] && [ "$c" -gt 0 ]
}

# -- bitextract on the C model: 1-D regions, N dividing or not -------------
for cfg in "8 1x1" "7 1x1" "8 1x2" "7 1x2" "12 1x3" "16 1x3" "17 1x3" "8 1x4" "18 1x4" "8 4x1" "13 4x1" "5 2x1"; do
  set -- $cfg
  run_cmp bitextract model --param N=$1 --pes $2 --seed $1
  check "model: bitextract N=$1 on $2 equals refimpl ($msg)" $?
done
echo -123457 > "$tmp/v.txt"
run_cmp bitextract model --param N=9 --pes 1x3 --in v="$tmp/v.txt"
check "model: bitextract with --in equals refimpl ($msg)" $?

# -- files kept in --out-dir ----------------------------------------------
run_cmp bitextract model --param N=10 --pes 1x2
[ -s "$tmp/e/config.bin" ] && $TCPA disasm "$tmp/e/config.bin" >/dev/null 2>&1
check "--out-dir: config.bin is a stream the reader accepts" $?
grep -q "class" "$tmp/e/config.lst"; check "--out-dir: config.lst is the listing" $?
head -1 "$tmp/e/model.trace" | grep -q "^# tcpa-trace 1 fp=0x"; check "--out-dir: model.trace has the trace header" $?
last=$(grep " bank .* wr " "$tmp/e/model.trace" | tail -1 | cut -d' ' -f1)
[ $((last + 1)) = "$(jget "$tmp/e/summary.json" cycles)" ]
check "summary cycles = last bank write in the trace + 1 ($last + 1)" $?
[ "$(jget "$tmp/e/summary.json" config_bytes)" = "$(stat -c %s "$tmp/e/config.bin")" ] &&
  [ "$(jget "$tmp/e/summary.json" ii)" = 2 ] && [ "$(jget "$tmp/e/summary.json" p)" = 5 ]
check "summary: config_bytes = stream size, ii 2, p 5" $?
awk -v b="$(jget "$tmp/e/summary.json" build_seconds)" -v r="$(jget "$tmp/e/summary.json" run_seconds)" \
    -v w="$(jget "$tmp/e/summary.json" run_wall_seconds)" 'BEGIN { exit !(b > 0 && r > 0 && w > 0 && b < 60 && r < 60) }'
check "summary: build_seconds, run_seconds and run_wall_seconds of the model run, each in (0, 60)" $?
$TCPA run regress/programs/bitextract.pla --param N=10 --pes 1x2 --engine cosim >"$tmp/tl.out" 2>&1
st=$?
read -r b r w < <(sed -n 's/^time      build \([0-9.]*\) s, run \([0-9.]*\) s (CPU seconds, the harness.s included; run \([0-9.]*\) s elapsed)$/\1 \2 \3/p' "$tmp/tl.out")
[ $st -eq 0 ] && awk -v b="${b:-0}" -v r="${r:-0}" -v w="${w:-0}" 'BEGIN { exit !(b > 0 && r > 0 && w > 0) }'
check "stdout: the time line of a cosim run (build ${b:-?} s, run ${r:-?} s CPU, ${w:-?} s elapsed)" $?

# -- other benchmarks on configs/big1d.ini, C model -----------------------
B="--arch configs/big1d.ini"
for job in "dotprod 1x1 --param N=8" "dotprod 1x3 --param N=8" "editdist 1x2 --param N=4 --param M=5" \
           "fir 1x1 --param N=8 --param T=3" "fir 1x2 --param N=9 --param T=3" "gcd 1x2 --param N=4 --param S=6" \
           "matmul 1x2 --param N=2 --param M=3 --param K=4" "maxpool 1x2 --param R=4 --param C=4" \
           "satarith 1x3 --param N=8" "trimv 1x2 --param N=6" "bitextract 4x1 --param N=9"; do
  set -- $job
  prog=$1 pes=$2; shift 2
  run_cmp $prog model $B --pes $pes "$@"
  check "model on big1d: $prog $* on $pes equals refimpl ($msg)" $?
done

# --map chooses the tiled dimension (the second index for 1xC, the first for Rx1)
for job in "1x3 k k" "3x1 i,j i" "1x2 i,j j"; do
  set -- $job
  run_cmp matmul model $B --pes $1 --map $2 --param N=3 --param M=2 --param K=4
  st=$?
  [ "$(jget "$tmp/e/summary.json" tiled_dimension)" = $3 ] || st=1
  check "model on big1d: matmul --map $2 on $1 tiles $3 and equals refimpl ($msg)" $st
done

# -- does not fit: exit 3 ---------------------------------------------------
$TCPA run regress/programs/bitextract.pla --param N=8 --engine model --pes 2x2 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q "on the first row of the 2x2 region (1x2)" "$tmp/out"
check "1-D program on a 2x2 region: runs on its first row, exit 0 (was exit 3; tests/oned_region.sh)" $?
# (matmul N=2 M=3 K=4 needed 41 instruction words here before one op per
# variable; it now runs on 1x1 of default.ini: tests/fit_default.sh)
# (conv fits default.ini with its propagated inputs read again,
# docs/symbolic.md; without that it needs 6 fds)
$TCPA run --disable reread regress/programs/conv.pla --param CO=2 --param R=3 --param C=3 --param CI=1 --param KR=2 \
  --param KC=2 --engine model >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "does not fit: registers fd: needs 6, pe.fd = 4" "$tmp/err"
check "conv on default without re-read inputs: exit 3 naming pe.fd, needed and available" $?
$TCPA run regress/programs/gcd.pla --param N=4 --param S=6 --engine model >/dev/null 2>"$tmp/err"
[ $? -eq 3 ] && grep -q "does not fit: .*pe.div = 0" "$tmp/err"; check "gcd on default (no divider): exit 3 naming pe.div" $?
$TCPA run regress/programs/bitextract.pla --param N=8 --engine model --pes 1x9 >/dev/null 2>"$tmp/err"
[ $? -eq 3 ]; check "1x9 region on a 4x4 array: exit 3" $?

# -- fake harnesses (TCPA_RTL): mismatch and divergence are caught --------
# zeros.sh: the model's trace (to --trace, or as text to --trace-bin: the
# rtl engine's digest stream, read as text when it starts with `#`), banks
# of zeros.
cat > "$tmp/zeros.sh" <<EOF
#!/usr/bin/env bash
stream=\$1; shift
while [ \$# -gt 0 ]; do case \$1 in --trace|--trace-bin) tr=\$2;; --dump-banks) dir=\$2;; esac; shift 2; done
$TCPA_ABS sim "\$stream" --trace "\$tr" --dump-banks "\$dir.model" >/dev/null || exit 3
mkdir -p "\$dir"
for s in n w; do for b in 0 1 2 3; do for r in 0 1 2 3; do
  for c in 0 1 2 3; do yes 0x00000000 | head -1024 > "\$dir/\${s}_\${r}_\${c}_\${b}.txt"; done; done; done; done
EOF
# skew.sh: the model's banks, one trace value changed (to --trace, or at
# the end to --trace-bin: the lockstep pipe of cosim, read as text when it starts with `#`).
cat > "$tmp/skew.sh" <<EOF
#!/usr/bin/env bash
stream=\$1; shift
tr= live=
while [ \$# -gt 0 ]; do case \$1 in --trace) tr=\$2;; --trace-bin) live=\$2;; --dump-banks) dir=\$2;; esac; shift 2; done
[ -n "\$tr" ] || tr=\$dir.trace
$TCPA_ABS sim "\$stream" --trace "\$tr.m" --dump-banks "\$dir.model" >/dev/null || exit 3
awk '!done && / wr 0,0 [0-9] rd[0-9] 0x/ { sub(/0x[0-9a-f]*\$/, "0x0badf00d"); done = 1 } { print }' "\$tr.m" > "\$tr"
[ -z "\$live" ] || cat "\$tr" > "\$live"
mkdir -p "\$dir"
for f in "\$dir.model"/bank_*.txt; do
  [ -e "\$f" ] || continue
  set -- \$(basename "\$f" .txt | tr _ ' ')
  awk '{ v[\$1] = \$2 } END { for (i = 0; i < 1024; i++) print (i in v) ? v[i] : "0x00000000" }' "\$f" > "\$dir/\$4_\$2_\$3_\$5.txt"
done
EOF
# nobanks.sh: the model's trace, no bank dumps at all (no output has a value)
cat > "$tmp/nobanks.sh" <<EOF
#!/usr/bin/env bash
stream=\$1; shift
while [ \$# -gt 0 ]; do case \$1 in --trace) tr=\$2;; --dump-banks) dir=\$2;; esac; shift 2; done
$TCPA_ABS sim "\$stream" --trace "\$tr" >/dev/null || exit 3
mkdir -p "\$dir"
EOF
chmod +x "$tmp/zeros.sh" "$tmp/skew.sh" "$tmp/nobanks.sh"
TCPA_RTL=$tmp/zeros.sh $TCPA run regress/programs/bitextract.pla --param N=8 --pes 1x2 --engine rtl >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && grep -q "output elements differ" "$tmp/err" && grep -Eq "bits\[[0-9]+\] \(element [0-9]+\): expected -?[0-9]+, got 0" "$tmp/err"
check "rtl with wrong banks: exit 1 naming array, index, expected, got" $?

# --out-dir of a failing run: DIR/NAME.txt holds the engine's values,
# DIR/ref/ the reference's, diff.txt the differing elements.
# diff_consistent DIR: 0 when every element diff.txt lists has as "got" its
# value in DIR/NAME.txt and as "expected" its value in DIR/ref/NAME.txt,
# and diff.txt's count equals summary.json's outputs.differing and the
# number of elements in which the two files differ.
diff_consistent() {
  local d=$1 name count differing ndiff=0
  count=$(sed -n 's/^differing \([0-9]*\) of [0-9]* output elements$/\1/p' "$d/diff.txt")
  differing=$(sed -n 's/^    "differing": \([0-9]*\),$/\1/p' "$d/summary.json")
  for f in "$d"/ref/*.txt; do
    name=$(basename "$f" .txt)
    paste <("$REFX" --normalize "$f") <("$REFX" --normalize "$d/$name.txt") |
      awk -v n="$name" '{ printf "  %s (element %d): expected %s, got %s\n", n, NR - 1, $1, $2 }' > "$tmp/want.lines"
    ndiff=$((ndiff + $(awk '$5 != $7 ","' "$tmp/want.lines" | wc -l)))
    grep "^  $name\[" "$d/diff.txt" | sed -e 's/\[[-0-9]*\]//g' -e 's/got nothing (.*)$/got -2147483648/' > "$tmp/got.lines"
    if grep -vxF -f "$tmp/want.lines" "$tmp/got.lines" > "$tmp/bad.lines"; then
      head -2 "$tmp/bad.lines" | sed 's/^/#   diff.txt line not matching the files: /'
      return 1
    fi
  done
  [ -n "$count" ] && [ "$count" = "$differing" ] && [ "$count" = "$ndiff" ]
}
rm -rf "$tmp/e" "$tmp/want"; mkdir -p "$tmp/want"
TCPA_RTL=$tmp/zeros.sh $TCPA run regress/programs/bitextract.pla --param N=8 --pes 1x2 --engine rtl --out-dir "$tmp/e" \
  >"$tmp/out" 2>"$tmp/err"
st=$?
"$REFX" bitextract --param N=8 --in-dir "$tmp/e/inputs" --out-dir "$tmp/want" >/dev/null 2>&1
[ $st -eq 1 ] && [ "$(tr -s ' \n' ' ' < "$tmp/e/bits.txt")" = "0 0 0 0 0 0 0 0 " ] &&
  [ "$(ref_outputs_engine "$tmp/e")" = rtl ] && ref_outputs_compare "$REFX" "$tmp/e/ref" "$tmp/want" &&
  ! ref_outputs_compare "$REFX" "$tmp/e" "$tmp/want" >/dev/null && diff_consistent "$tmp/e" &&
  grep -q "^outputs   $tmp/e/NAME.txt (rtl), .* elements differ ($tmp/e/diff.txt)" "$tmp/out"
ok=$?; check "rtl with wrong banks, --out-dir: exit 1, bits.txt holds the RTL's zeros, ref/ = refimpl, diff.txt ($(head -1 "$tmp/e/diff.txt" 2>/dev/null)) names them" $ok
TCPA_RTL=$tmp/nobanks.sh $TCPA run regress/programs/bitextract.pla --param N=8 --pes 1x2 --engine rtl --out-dir "$tmp/e" \
  >/dev/null 2>&1
st=$?
[ $st -eq 1 ] && [ "$(tr -s ' \n' ' ' < "$tmp/e/bits.txt")" = "$(printf -- '-2147483648 %.0s' 1 2 3 4 5 6 7 8)" ] &&
  grep -q '^    "unplaced": 8,$' "$tmp/e/summary.json" && grep -q "^differing 8 of 8 output elements" "$tmp/e/diff.txt" &&
  [ "$(grep -c ": expected -\{0,1\}[0-9]*, got nothing" "$tmp/e/diff.txt")" = 8 ] && diff_consistent "$tmp/e"
check "rtl with no bank dumps: exit 1 ($st), no element has a value: bits.txt all -2147483648, unplaced 8, diff.txt 'got nothing'" $?
TCPA_RTL=$tmp/skew.sh run_cmp bitextract rtl --param N=8 --pes 1x2
st=$?
[ ! -e "$tmp/e/diff.txt" ] || st=1
check "rtl (fake, right banks): exit 0, the RTL's outputs equal refimpl, no diff.txt ($msg)" $st
TCPA_RTL=$tmp/zeros.sh $TCPA run regress/programs/bitextract.pla --param N=8 --pes 1x2 --engine rtl --out-dir "$tmp/e" \
  >/dev/null 2>&1
TCPA_RTL=$tmp/skew.sh $TCPA run regress/programs/bitextract.pla --param N=8 --pes 1x2 --engine rtl --out-dir "$tmp/e" \
  >/dev/null 2>&1 && [ ! -e "$tmp/e/diff.txt" ] && [ "$(tr -s ' \n' ' ' < "$tmp/e/bits.txt")" != "0 0 0 0 0 0 0 0 " ]
check "a passing rerun into the same --out-dir replaces bits.txt and removes the failed run's diff.txt" $?
TCPA_RTL=$tmp/skew.sh $TCPA run regress/programs/bitextract.pla --param N=8 --pes 1x2 --engine cosim --out-dir "$tmp/e" >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && grep -q "diverge: cycle [0-9]*, PE (0,0), wr" "$tmp/err" && grep -q '"divergence": "cycle' "$tmp/e/summary.json" &&
  grep -q "0x0badf00d" "$tmp/err"
check "cosim with a trace that differs in one value: exit 1, divergence reported" $?
rm -rf "$tmp/want"; mkdir -p "$tmp/want"
"$REFX" bitextract --param N=8 --in-dir "$tmp/e/inputs" --out-dir "$tmp/want" >/dev/null 2>&1
[ "$(ref_outputs_engine "$tmp/e")" = rtl ] && ref_outputs_compare "$REFX" "$tmp/e" "$tmp/want" &&
  grep -q "^differing 0 of 8 output elements" "$tmp/e/diff.txt" && diff_consistent "$tmp/e"
check "cosim divergence, --out-dir: bits.txt holds the RTL's outputs (its rerun to the end; the fake's banks are right: = refimpl), diff.txt: 0 differ" $?

# -- --traces on-failure: no trace kept unless the run fails ----------------
TCPA_RTL=$tmp/skew.sh $TCPA run regress/programs/bitextract.pla --param N=8 --pes 1x2 --engine cosim --out-dir "$tmp/lean" \
  --traces on-failure >/dev/null 2>"$tmp/err.lean"
st=$?
[ $st -eq 1 ] && grep -q "running it again keeping them in $tmp/lean" "$tmp/err.lean" &&
  [ "$(grep -c "diverge: cycle" "$tmp/err.lean")" = "$(grep -c "diverge: cycle" "$tmp/err")" ] &&
  [ -s "$tmp/lean/model.trace" ] && [ -s "$tmp/lean/rtl.trace" ] && [ -s "$tmp/lean/divergence.txt" ] &&
  [ -s "$tmp/lean/fcov.json" ] && grep -q '"divergence": "cycle' "$tmp/lean/summary.json"
check "--traces on-failure, a divergence: exit 1 ($st), run again keeping the traces, the report printed once, divergence.txt and fcov.json" $?
# flaky.sh: skew.sh the first time, the model's own trace after that
sed -e 's|^awk |[ -e "$FLAKY" ] \&\& cp "$tr.m" "$tr" \|\| awk |' -e 's|^\[ -z |touch "$FLAKY"; [ -z |' \
  "$tmp/skew.sh" | sed "s|\$FLAKY|$tmp/flaky.once|g" > "$tmp/flaky.sh"
chmod +x "$tmp/flaky.sh"
rm -f "$tmp/flaky.once"
TCPA_RTL=$tmp/flaky.sh $TCPA run regress/programs/bitextract.pla --param N=8 --pes 1x2 --engine cosim --out-dir "$tmp/lean" \
  --traces on-failure >/dev/null 2>"$tmp/err.flaky"
st=$?
[ $st -eq 2 ] && grep -q "failed (exit 1) without traces and passed keeping them: the engines are not deterministic" "$tmp/err.flaky"
check "--traces on-failure, a failure the repeat does not repeat: exit 2 ($st), not deterministic" $?
TCPA_RTL=$tmp/none/tcpa-rtl $TCPA run regress/programs/bitextract.pla --param N=8 --pes 1x2 --engine cosim \
  --out-dir "$tmp/lean" --traces on-failure >/dev/null 2>"$tmp/err.nohar"
st=$?
[ $st -eq 2 ] && [ "$(grep -c "TCPA_RTL=$tmp/none/tcpa-rtl: not an executable file" "$tmp/err.nohar")" = 1 ] &&
  ! grep -q "running it again" "$tmp/err.nohar"
check "--traces on-failure, no harness: exit 2 ($st), the harness named once, before the run (not held back, no repeat)" $?
$TCPA run regress/programs/bitextract.pla --param N=8 --pes 1x2 --traces sometimes >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q -- "--traces: expected always or on-failure, got 'sometimes'" "$tmp/err"
check "--traces sometimes: exit 2 ($st) naming the values" $?

# -- cosim on the real RTL ---------------------------------------------------
# Returns 0 when harness $1 was built (`tcpa harness` below: the harness
# cache holds one per configuration and set of sources, never a stale one).
rtl_fresh() { [ -x "$1" ]; }

# cosim_job PROG PES ARGS...: cosim against the reference, traces agree.
cosim_job() {
  local prog=$1 pes=$2; shift 2
  run_cmp $prog cosim --pes $pes "$@"
  local st=$?
  [ $st -eq 0 ] && [ "$(jget "$tmp/e/summary.json" divergence)" = null ] && [ -s "$tmp/e/rtl.trace" ] &&
    [ ! -e "$tmp/e/divergence.txt" ] || st=1
  check "cosim: $prog $* on $pes: traces agree, the RTL's outputs = refimpl ($msg)" $st
}

RTL=$("$TCPA" harness)
check "the rtl harness of configs/default.ini builds (tcpa harness)" $?
if ! rtl_fresh "$RTL"; then
  unbuilt "cosim of bitextract on the default configuration"
else
  for e in model cosim; do
    rm -rf "$tmp/full" "$tmp/lean"
    $TCPA run regress/programs/matmul.pla --param N=4 --param M=3 --param K=4 --pes 2x2 --engine $e \
      --out-dir "$tmp/full" >/dev/null 2>&1 && cp "$tmp/full/model.trace" "$tmp/stale.trace" &&
      mkdir -p "$tmp/lean" && cp "$tmp/stale.trace" "$tmp/lean/model.trace" && cp "$tmp/stale.trace" "$tmp/lean/rtl.trace" &&
      $TCPA run regress/programs/matmul.pla --param N=4 --param M=3 --param K=4 --pes 2x2 --engine $e \
        --out-dir "$tmp/lean" --traces on-failure >/dev/null 2>"$tmp/err" &&
      [ ! -e "$tmp/lean/model.trace" ] && [ ! -e "$tmp/lean/rtl.trace" ] && [ ! -e "$tmp/lean/model.fst" ] &&
      [ -s "$tmp/lean/fcov.json" ] && cmp -s "$tmp/full/fcov.json" "$tmp/lean/fcov.json" && cmp -s "$tmp/full/C.txt" "$tmp/lean/C.txt" &&
      [ ! -s "$tmp/err" ]
    check "--traces on-failure, $e passes: no trace or FST kept (stale ones removed), fcov.json from its events = the traced run's" $?
  done
  for cfg in "8 1x1" "7 1x1" "8 1x2" "7 1x2" "12 1x3" "16 1x3" "8 1x4" "17 1x4" "12 4x1" "13 4x1"; do
    set -- $cfg
    cosim_job bitextract $2 --param N=$1 --seed $1
  done
fi

# The big1d runs: the full tier (make test-full) only.
if full_tier; then
RTLB=$("$TCPA" harness --arch configs/big1d.ini)
check "the rtl harness of configs/big1d.ini builds (tcpa harness)" $?
if ! rtl_fresh "$RTLB"; then
  unbuilt "cosim of fir, matmul, trimv, editdist on configs/big1d.ini"
else
  for job in "fir 1x1 N=8 T=3" "fir 1x2 N=8 T=3" "fir 1x2 N=9 T=3" "fir 1x3 N=9 T=3" "fir 1x3 N=10 T=2" \
             "fir 1x4 N=8 T=3" "fir 1x4 N=11 T=3" "fir 4x1 N=8 T=2" "fir 4x1 N=7 T=3" \
             "matmul 1x1 N=2 M=2 K=3" "matmul 1x2 N=2 M=3 K=4" "matmul 1x2 N=3 M=2 K=3" "matmul 1x3 N=2 M=2 K=3" \
             "matmul 1x4 N=2 M=2 K=4" "matmul 4x1 N=4 M=2 K=2" "matmul 4x1 N=3 M=2 K=2" \
             "trimv 1x1 N=4" "trimv 1x2 N=6" "trimv 1x2 N=5" "trimv 1x3 N=6" "trimv 1x4 N=8" "trimv 1x4 N=7" \
             "trimv 4x1 N=8" "trimv 4x1 N=6"; do
    set -- $job
    prog=$1 pes=$2; shift 2
    args=
    for a in "$@"; do args="$args --param $a"; done
    cosim_job $prog $pes --arch configs/big1d.ini $args
  done
  # Start delays are not bounded by a control-signal history any more (the
  # PEs evaluate the signals at their own step, docs/timing.md section 2):
  # editdist on 1x4 with big1d.ini's pi 7, lambda^K = 7p - 1: N=165 (p 42)
  # puts d(0,3) = 879 just below the former bound of 127 * pi = 889 cycles;
  # N=170 (p 43, d(0,3) = 900) was refused with exit 3 (control-signal
  # history); both run and agree in cosim now.
  cosim_job editdist 1x4 --arch configs/big1d.ini --param N=165 --param M=2
  cosim_job editdist 1x4 --arch configs/big1d.ini --param N=170 --param M=2
fi
fi

# -- the waveform at a divergence (a fake harness around the real one) -----
if ! rtl_fresh "$RTL"; then
  unbuilt "the waveform at a divergence"
else
  RTL_ABS=$(cd "$(dirname "$RTL")" && pwd)/$(basename "$RTL")
  cat > "$tmp/fstskew.sh" <<EOF
#!/usr/bin/env bash
# the real harness, then the fourth rd write of PE (0,0) in the trace
# changed; a --trace-bin (cosim's lockstep pipe) gets the changed trace as text
# at the end
args=() live= tr= prev=
for a in "\$@"; do
  if [ "\$prev" = --trace-bin ]; then live=\$a; unset 'args[\${#args[@]}-1]'; args+=(--trace "$tmp/fstskew.live"); tr=$tmp/fstskew.live
  else args+=("\$a"); fi
  [ "\$prev" = --trace ] && tr=\$a; prev=\$a
done
echo "\$@" >> "$tmp/fstskew.args"
$RTL_ABS "\${args[@]}"; rc=\$?
awk '/ wr 0,0 [0-9] rd[0-9]* 0x/ && ++k == 4 { sub(/0x[0-9a-f]*\$/, "0x0badf00d") } { print }' "\$tr" > "\$tr.s" &&
  mv "\$tr.s" "\$tr"
[ -z "\$live" ] || cat "\$tr" > "\$live"
exit \$rc
EOF
  chmod +x "$tmp/fstskew.sh"
  rm -rf "$tmp/e" "$tmp/fstskew.args"
  TCPA_RTL=$tmp/fstskew.sh $TCPA run regress/programs/bitextract.pla --param N=8 --pes 1x2 --engine cosim \
    --window 5 --out-dir "$tmp/e" >/dev/null 2>"$tmp/err"
  st=$?
  c=$(grep -m1 " wr 0,0 [0-9] rd[0-9]* 0x0badf00d" "$tmp/e/rtl.trace" | cut -d' ' -f1)
  [ $st -eq 1 ] && [ -n "$c" ] && [ "$c" -gt 5 ] && grep -q "DIVERGENCE at cycle $c, PE (0,0)" "$tmp/err" &&
    grep -q "DIVERGENCE at cycle $c, PE (0,0)" "$tmp/e/divergence.txt" && grep -q "0x0badf00d" "$tmp/e/divergence.txt" &&
    grep -q "last .* events of PE (0,0)" "$tmp/e/divergence.txt"
  check "cosim divergence: report (cycle $c, PE, events) on stderr and in divergence.txt" $?
  c=${c:-0} pd=$(jget "$tmp/e/summary.json" predicted_done_cycles)
  [ "$(wc -l < "$tmp/fstskew.args")" = 2 ] && ! head -1 "$tmp/fstskew.args" | grep -q -- --fst &&
    head -1 "$tmp/fstskew.args" | grep -q -- "--trace-bin /dev/fd/3" &&
    tail -1 "$tmp/fstskew.args" | grep -q -- "--max-cycles $((pd * 2 + c + 5 + 1000)) .*--fst $tmp/e/rtl.fst --fst-window $((c > 5 ? c - 5 : 0)):$((c + 5))"
  st=$?
  check "cosim divergence: lockstep over --trace-bin, then the RTL rerun to its end (for its outputs, at most 2P + c + W + 1000 cycles) with the FST window c-5:c+5 ($(tail -1 "$tmp/fstskew.args" | grep -o -- '--fst-window [0-9:]*'))" $st
  rm -rf "$tmp/want"; mkdir -p "$tmp/want"
  "$REFX" bitextract --param N=8 --in-dir "$tmp/e/inputs" --out-dir "$tmp/want" >/dev/null 2>&1
  [ "$(ref_outputs_engine "$tmp/e")" = rtl ] && ref_outputs_compare "$REFX" "$tmp/e" "$tmp/want" &&
    grep -q "^differing 0 of 8 output elements" "$tmp/e/diff.txt"
  check "cosim divergence: bits.txt holds the real RTL's outputs from that rerun (= refimpl; only the trace was changed)" $?
  read -r t0 per < <(sed -n 's/^# fst t0=\([0-9]*\) period=\([0-9]*\)$/\1 \2/p' "$tmp/e/rtl.trace")
  per=${per:-1000}
  marker=$(sed -n 's/^\*[-0-9.e]* \([0-9]*\) .*/\1/p' "$tmp/e/divergence.gtkw")
  [ -n "$t0" ] && [ "$marker" = $((${t0:-0} + per * c)) ] && grep -q "^\[dumpfile\] \".*rtl.fst\"" "$tmp/e/divergence.gtkw"
  check "divergence.gtkw: dump file rtl.fst, marker at t0 + period*c = $t0 + $per*$c ($marker)" $?
  if ! command -v fst2vcd >/dev/null; then
    skip "the FST window's signals" "fst2vcd missing (gtkwave package)"
  else
    fst2vcd "$tmp/e/rtl.fst" > "$tmp/w.vcd" 2>/dev/null
    # every variable of the VCD with its full scope
    awk '$1 == "$scope" { s[++d] = $3 } $1 == "$upscope" { d-- }
         $1 == "$var" { v = s[1]; for (i = 2; i <= d; i++) v = v "." s[i]; print v "." $5 ($6 ~ /^\[/ ? $6 : "") }' "$tmp/w.vcd" |
      sort -u > "$tmp/vars"
    grep -v '^[[*@^-]' "$tmp/e/divergence.gtkw" | sed 's/^+{[^}]*} //' | sort -u > "$tmp/named"
    missing=$(comm -23 "$tmp/named" "$tmp/vars" | head -3 | tr '\n' ' ')
    [ -s "$tmp/named" ] && [ -z "$missing" ] && grep -q "g_row\[0\].g_col\[0\].u_pe\." "$tmp/named"
    st=$?
    check "divergence.gtkw: $(wc -l < "$tmp/named") signals, all in the FST, PE (0,0)'s among them${missing:+ (missing: $missing)}" $st
    lo=$(grep '^#[0-9]' "$tmp/w.vcd" | head -1 | tr -d '#') hi=$(grep '^#[0-9]' "$tmp/w.vcd" | tail -1 | tr -d '#')
    w0=$((${t0:-0} + per * (c > 5 ? c - 5 : 0))) w1=$((${t0:-0} + per * (c + 6)))
    [ -n "$lo" ] && [ "$lo" -ge $w0 ] && [ "$hi" -le $w1 ] && [ "$hi" -gt $((${t0:-0} + per * c)) ]
    check "rtl.fst holds only the window: times $lo..$hi within $w0..$w1" $?
  fi
fi
# -- lockstep stops both engines at the first divergence ---------------------
# bitextract N=600 on 1x1 runs ~1200 cycles; a fake harness pokes an
# immediate of the stream (xor 2) and execs the real one: the model and the
# RTL then diverge within a few cycles. cosim must stop there: the harness
# reports having simulated far fewer cycles than the full run (the pipe
# lets it run only a few cycles ahead of the checker).
if ! rtl_fresh "$RTL"; then
  unbuilt "the early stop of lockstep"
else
  RTL_ABS=$(cd "$(dirname "$RTL")" && pwd)/$(basename "$RTL")
  rm -rf "$tmp/e" "$tmp/full"
  timeout 300 $TCPA run regress/programs/bitextract.pla --param N=600 --engine cosim --out-dir "$tmp/full" >/dev/null 2>&1
  st=$?
  full=$(jget "$tmp/full/summary.json" rtl_cycles_simulated)
  [ $st -eq 0 ] && [ "$(jget "$tmp/full/summary.json" stopped_early)" = false ] && [ -n "$full" ] &&
    [ "$full" = "$(jget "$tmp/full/summary.json" rtl_done_cycles)" ] && [ "$full" -gt 1000 ]
  check "cosim bitextract N=600 (clean): agrees, RTL ran all $full cycles, not stopped early" $?
  word=$($TCPA stream-poke "$tmp/full/config.bin" --fields | awk '$3 == "program" && $8 ~ /w2$/ && $9 == "0x00000001" { print $1; exit }')
  $TCPA stream-poke "$tmp/full/config.bin" --word "${word:-0}" --xor 2 -o "$tmp/bad.bin" 2>/dev/null &&
    $TCPA sim "$tmp/bad.bin" --trace "$tmp/bad.trace" --max-cycles 100000 >/dev/null 2>&1
  want=$(diff "$tmp/full/model.trace" "$tmp/bad.trace" | sed -n 's/^[<>] \([0-9]*\) .*/\1/p' | head -1)
  cat > "$tmp/poke.sh" <<EOF
#!/usr/bin/env bash
s=\$1; shift
$TCPA_ABS stream-poke "\$s" --word ${word:-0} --xor 2 -o "\$s.bad" || exit 3
exec $RTL_ABS "\$s.bad" "\$@"
EOF
  chmod +x "$tmp/poke.sh"
  TCPA_RTL=$tmp/poke.sh timeout 300 $TCPA run regress/programs/bitextract.pla --param N=600 --engine cosim \
    --out-dir "$tmp/e" >"$tmp/out" 2>"$tmp/err"
  st=$?
  s=$tmp/e/summary.json
  ran=$(jget "$s" rtl_cycles_simulated) at=$(jget "$s" stop_cycle)
  [ $st -eq 1 ] && [ -n "$want" ] && [ "$want" -lt 20 ] && [ "$at" = "$want" ] &&
    grep -q "DIVERGENCE at cycle $want" "$tmp/e/divergence.txt"
  check "cosim on a stream poked at word ${word:-?}: diverges at cycle $at (the model's first affected cycle: ${want:-?})" $?
  [ "$(jget "$s" stopped_early)" = true ] && [ "$(jget "$s" rtl_stopped_by_checker)" = true ] && [ -n "$ran" ] &&
    [ "$ran" -ge "$at" ] && [ $((ran * 4)) -lt "${full:-0}" ] && [ "$(jget "$s" model_cycles_simulated)" = $((at + 1)) ] &&
    grep -q "^stopped   at cycle $at, early: RTL $ran cycles simulated" "$tmp/out" &&
    grep -q "stopped: .*RTL: $ran cycles simulated, then stopped" "$tmp/e/divergence.txt"
  vst=$?; check "lockstep stopped both early: RTL $ran cycles simulated (harness's count) of the full run's $full, model $(jget "$s" model_cycles_simulated)" $vst
fi

# -- a wrong RTL caught through its own outputs -------------------------------
# RTL mutant 9 (docs/rtl.md "Fault injection": the ALU's `and` computes
# a | b) on bitextract N=8: the run reaches done without a fault, only the
# values are wrong. --engine rtl and --engine cosim exit 1; DIR/bits.txt
# holds the mutant RTL's values (for cosim from its rerun to the end after
# the divergence), which differ from refimpl's on the same inputs;
# diff.txt names them; DIR/ref/ equals refimpl.
# (full tier: the mutants harness is a build of its own)
if ! full_tier; then
  :
elif ! MUT=$("$TCPA" harness --kind mutants) || ! rtl_fresh "$MUT"; then
  unbuilt "the wrong-RTL outputs test"
else
  printf '#!/bin/sh\nexec %s "$@" +mutant=9\n' "$MUT" > "$tmp/mutant9.sh"
  chmod +x "$tmp/mutant9.sh"
  for eng in rtl cosim; do
    rm -rf "$tmp/e" "$tmp/want"; mkdir -p "$tmp/want"
    TCPA_RTL=$tmp/mutant9.sh timeout 120 $TCPA run regress/programs/bitextract.pla --param N=8 --pes 1x2 --seed 3 \
      --engine $eng --out-dir "$tmp/e" >/dev/null 2>"$tmp/err"
    st=$?
    "$REFX" bitextract --param N=8 --in-dir "$tmp/e/inputs" --out-dir "$tmp/want" >/dev/null 2>&1
    ref_outputs_compare "$REFX" "$tmp/e" "$tmp/want" > "$tmp/cmp"
    cst=$?
    [ $st -eq 1 ] && [ $cst -ne 0 ] && grep -q "bits.txt differs" "$tmp/cmp" &&
      [ "$(ref_outputs_engine "$tmp/e")" = rtl ] && ref_outputs_compare "$REFX" "$tmp/e/ref" "$tmp/want" &&
      grep -Eq "^differing [1-9][0-9]* of 8 output elements" "$tmp/e/diff.txt" && diff_consistent "$tmp/e" &&
      grep -q '"status": "fail"' "$tmp/e/summary.json"
    ok=$?; check "$eng on RTL mutant 9 (and -> or): exit 1 ($st), bits.txt ($(tr -s ' \n' ' ' < "$tmp/e/bits.txt" 2>/dev/null)) differs from refimpl's, diff.txt: $(head -1 "$tmp/e/diff.txt" 2>/dev/null)" $ok
  done
fi

$TCPA run regress/programs/bitextract.pla --param N=8 --window 0 >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- "--window" "$tmp/err"; check "--window 0: exit 2" $?
exit $fail
