#!/usr/bin/env bash
# covers: docs/user-guide.md "Looking at a mismatch",
#   docs/trace.md "Model and RTL in one waveform"
# wave_cli.sh: `tcpa wave RUNDIR` and the reproduction bundle of a failing
# cosim run (docs/user-guide.md, "Looking at a mismatch"):
#   - wave without a waveform (no RUNDIR, not a directory, a ref run's
#     directory): exit 2 with a message; a model run's: model.fst printed;
#   - a real mismatch: the stream of bitextract poked (tcpa stream-poke, an
#     immediate) by a fake harness that execs the real one; cosim exits 1
#     and leaves rtl.fst, model.fst, divergence.gtkw and repro/;
#   - wave --print prints `gtkwave DIR/rtl.fst DIR/divergence.gtkw`
#     (--model: model.fst); without --print it runs $TCPA_GTKWAVE with them;
#   - GTKWave itself under Xvfb (xvfb-run) opens that FST and save file: a
#     Tcl script (--script) prints what it loaded and quits; no error on
#     stderr, the FST's facilities loaded, the PE's signals displayed, the
#     marker at the divergence; the model's FST with the same save file too;
#     the save file's first group `divergence: UNIT` names the divergent
#     FU's and register's signals (docs/rtl.md "Signal names"); GTKWave
#     finds every one of them in rtl.fst, and the registers among them in
#     model.fst (the same names);
#   - divergence.txt decodes the divergent instruction in both engines with
#     its operands (the poked immediate: #1 in the model, #3 in the RTL);
#     compare.fst holds rtl, model and mismatch scopes, mismatch.KIND first
#     1 at the divergence cycle (1 ns per cycle); wave --compare opens it;
#     a clean rtl run and a clean model run agree in it everywhere;
#   - (full tier) with the RTL mutants build: max(x, -5) on 1x2 with mutant 1 (an
#     immediate read as 0) reports 'max od0, id0, #-5' with operand b -5
#     and 0; mutant 17 (a pop divergence) the instruction issued then;
#   - a person's view: GTKWave under Xvfb (1600x1000) on compare.fst, a
#     screenshot of its window found by title (xwd), the marker at the
#     divergence, the FU's instruction pair among the first rows;
#   - the bundle: repro.sh, command.txt (the command line, seed), program,
#     architecture, inputs, .sym (instantiates to the bundle's stream),
#     stream, .gtkw; copied elsewhere, `sh repro.sh` reruns the same run from
#     another directory and finds the same divergence.
# Prints TAP lines.
set -u
. tests/tap.sh
BUILD=${BUILD:-build}
unset TCPA_RTL TCPA_GTKWAVE
TCPA_ABS=$(cd "$(dirname "$TCPA")" && pwd)/$(basename "$TCPA")

# skip REASON: one skipped TAP line.
skip() { n=$((n + 1)); echo "ok $n - # SKIP $1"; }
# Returns 0 when harness $1 exists and no RTL or harness source is newer.
# (`tcpa harness` below builds what is missing; the cache never holds a
# stale harness, so only a failed build leaves one out: a failure)
rtl_fresh() { [ -x "$1" ]; }
# Prints the value of key $2 in summary.json $1.
jget() {
  sed -n "s/^  \"$2\": \"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$1" | head -1
}
# Prints the divergence line of summary.json $1 (commas and quotes in it).
jdiv() { sed -n 's/^  "divergence": "\(.*\)",\{0,1\}$/\1/p' "$1" | head -1; }

# -- no waveform ------------------------------------------------------------------
"$TCPA" wave >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no RUNDIR" "$tmp/err"
check "wave without RUNDIR: exit 2" $?
"$TCPA" wave "$tmp/none" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "$tmp/none: not a directory" "$tmp/err"
check "wave on a missing directory: exit 2 naming it" $?
"$TCPA" run regress/programs/bitextract.pla --param N=8 --engine ref --out-dir "$tmp/ref" >/dev/null 2>&1
"$TCPA" wave "$tmp/ref" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "holds no waveform (neither rtl.fst nor model.fst)" "$tmp/err" && [ ! -s "$tmp/out" ]
check "wave on a directory without a waveform: exit 2, a clear message, no command" $?
"$TCPA" run regress/programs/bitextract.pla --param N=8 --engine model --out-dir "$tmp/mod" >/dev/null 2>&1
"$TCPA" wave "$tmp/mod" --print >"$tmp/out" 2>&1
[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "gtkwave $tmp/mod/model.fst" ]
vst=$?; check "wave --print on a model run: gtkwave DIR/model.fst ($(cat "$tmp/out"))" $vst

RTL=$("$TCPA" harness)
if ! rtl_fresh "$RTL"; then
  unbuilt "the RTL harness: no mismatch, GTKWave or bundle tests"
  exit $fail
fi
RTL_ABS=$(cd "$(dirname "$RTL")" && pwd)/$(basename "$RTL")

# -- a real mismatch: a poked stream on the real RTL ------------------------------
ARGS="regress/programs/bitextract.pla --param N=8 --pes 1x2 --seed 5"
"$TCPA" run $ARGS --engine model --out-dir "$tmp/clean" >/dev/null 2>&1
word=$("$TCPA" stream-poke "$tmp/clean/config.bin" --fields |
  awk '$3 == "program" && $8 ~ /w0$/ { w0 = $9 }
       $3 == "program" && $8 ~ /w2$/ && $9 == "0x00000001" && w0 != "0x00000000" { print $1; exit }')
cat > "$tmp/poke.sh" <<EOF
#!/usr/bin/env bash
s=\$1; shift
$TCPA_ABS stream-poke "\$s" --word ${word:-0} --xor 2 -o "\$s.bad" || exit 3
exec $RTL_ABS "\$s.bad" "\$@"
EOF
chmod +x "$tmp/poke.sh"
D=$tmp/m
TCPA_RTL=$tmp/poke.sh "$TCPA" run $ARGS --engine cosim --out-dir "$D" >"$tmp/out" 2>"$tmp/err"
st=$?
div=$(jdiv "$D/summary.json")
[ $st -eq 1 ] && [ -n "$div" ] && [ "$div" != null ] && [ -s "$D/rtl.fst" ] && [ -s "$D/model.fst" ] &&
  [ -s "$D/divergence.gtkw" ] && grep -q "reproduction: *$D/repro" "$tmp/err"
check "cosim on a stream poked at word ${word:-?}: exit 1 ($st), rtl.fst, model.fst, divergence.gtkw, repro/ ($div)" $?

"$TCPA" wave "$D" --print >"$tmp/out" 2>&1
[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "gtkwave $D/rtl.fst $D/divergence.gtkw" ]
check "wave --print: gtkwave DIR/rtl.fst DIR/divergence.gtkw" $?
"$TCPA" wave --model "$D" --print >"$tmp/out" 2>&1
[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "gtkwave $D/model.fst $D/divergence.gtkw" ]
check "wave --model --print: the model's FST with the same save file" $?
printf '#!/bin/sh\necho "$@" > %s/viewer.args\nexit 7\n' "$tmp" > "$tmp/viewer.sh"
chmod +x "$tmp/viewer.sh"
TCPA_GTKWAVE=$tmp/viewer.sh "$TCPA" wave "$D" >"$tmp/out" 2>&1
st=$?
[ $st -eq 7 ] && [ "$(cat "$tmp/viewer.args")" = "$D/rtl.fst $D/divergence.gtkw" ] &&
  grep -q "^$tmp/viewer.sh $D/rtl.fst $D/divergence.gtkw$" "$tmp/out"
check "wave runs the viewer on them (prints the command; the viewer's exit status $st)" $?
TCPA_GTKWAVE=$tmp/no-such-viewer "$TCPA" wave "$D" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "cannot run" "$tmp/err"
check "wave with a viewer that cannot be started: exit 2" $?

# -- GTKWave under Xvfb -------------------------------------------------------------
# gw.sh: gtkwave with the arguments tcpa wave gives it, plus a Tcl script
# that reports what was loaded and quits.
cat > "$tmp/q.tcl" <<'EOF'
puts "facs [gtkwave::getNumFacs]"
puts "dumpfile [gtkwave::getDumpFileName]"
puts "marker [gtkwave::getMarker]"
puts "displayed [llength [gtkwave::getDisplayedSignals]] [gtkwave::getDisplayedSignals]"
gtkwave::/File/Quit
EOF
printf '#!/bin/sh\nexec gtkwave "$@" --script %s/q.tcl\n' "$tmp" > "$tmp/gw.sh"
chmod +x "$tmp/gw.sh"
if ! command -v xvfb-run >/dev/null || ! command -v gtkwave >/dev/null; then
  skip "xvfb-run or gtkwave missing (scripts/setup.sh installs xvfb, gtkwave)"
else
  marker=$(sed -n 's/^\*[-0-9.e]* \([0-9]*\) .*/\1/p' "$D/divergence.gtkw")
  TCPA_GTKWAVE=$tmp/gw.sh timeout 60 xvfb-run -a "$TCPA" wave "$D" >"$tmp/gw.out" 2>"$tmp/gw.err"
  st=$?
  facs=$(sed -n 's/^facs //p' "$tmp/gw.out") shown=$(sed -n 's/^displayed \([0-9]*\).*/\1/p' "$tmp/gw.out")
  # GTKWave's own complaints (a desktop's GTK, GLib or D-Bus chatter is not about the files)
  bad=$(grep -viE "gtk-|glib|dbus|dbind|accessibility|fontconfig|dconf" "$tmp/gw.err" |
    grep -iE "error|could not|cannot|warning|failed|not found|unknown" | head -2 | tr '\n' ' ')
  [ $st -eq 0 ] && [ -z "$bad" ] && [ "${facs:-0}" -gt 1000 ] && grep -q "^dumpfile $D/rtl.fst$" "$tmp/gw.out" &&
    [ "${shown:-0}" -gt 10 ] && grep -q "g_row\[0\].g_col\[[01]\].u_pe" "$tmp/gw.out" &&
    [ -n "$marker" ] && grep -q "^marker $marker$" "$tmp/gw.out"
  check "GTKWave (Xvfb) loads rtl.fst and divergence.gtkw without an error: $facs facilities, $shown signals shown, marker $marker${bad:+ (stderr: $bad)}" $?
  cp "$tmp/gw.out" "$tmp/gw.rtl.out"
  TCPA_GTKWAVE=$tmp/gw.sh timeout 60 xvfb-run -a "$TCPA" wave --model "$D" >"$tmp/gw.out" 2>"$tmp/gw.err"
  st=$?
  facs=$(sed -n 's/^facs //p' "$tmp/gw.out") shown=$(sed -n 's/^displayed \([0-9]*\).*/\1/p' "$tmp/gw.out")
  bad=$(grep -viE "gtk-|glib|dbus|dbind|accessibility|fontconfig|dconf" "$tmp/gw.err" |
    grep -iE "error|could not|cannot|failed" | head -2 | tr '\n' ' ')
  [ $st -eq 0 ] && [ -z "$bad" ] && [ "${facs:-0}" -gt 100 ] &&
    grep -q "^dumpfile $D/model.fst$" "$tmp/gw.out" && [ "${shown:-0}" -gt 10 ] && grep -q "^marker $marker$" "$tmp/gw.out"
  check "GTKWave (Xvfb) loads model.fst with the same save file: $facs facilities, $shown of its signals shown by name" $?
  # the focus group: the signals between `-divergence: UNIT` and its close
  unit=$(sed -n 's/^-divergence: //p' "$D/divergence.gtkw" | head -1)
  sed -n '/^-divergence: /,/^-divergence: /p' "$D/divergence.gtkw" | sed -n 's/^\(+{[^}]*} \)\{0,1\}\(TOP\..*\)/\2/p' |
    sort -u > "$tmp/focus"
  lost=""
  while read -r sgn; do
    grep -qF " $sgn " "$tmp/gw.rtl.out" || lost="$lost rtl:$sgn"
    # the model has the registers, not the FU's internals (docs/trace.md)
    case $sgn in
      *rd_q\[*|*od_q\[*|*.head_o*|*.pc_q*|*.halted_q|*.flag_q|*.wait_q*|*.cnt_q*|*.depth_q*)
        grep -qF " $sgn " "$tmp/gw.out" || lost="$lost model:$sgn" ;;
    esac
  done < "$tmp/focus"
  [ -n "$unit" ] && [ -s "$tmp/focus" ] && grep -Eq '\.(u_regfile\.rd_q|od_q)\[[0-9]+\]\[31:0\]$|\.g_f(d|ifo)\[[0-9]+\]\.|\.g_fu\[[0-9]+\]\.' "$tmp/focus" &&
    [ -z "$lost" ]
  st=$?
  nf=$(wc -l < "$tmp/focus") eg=$(grep -m1 -o 'u_pe\..*' "$tmp/focus")
  check "divergence.gtkw opens with the divergent unit ($unit: $nf signals, e.g. $eg), GTKWave shows each of them from both FSTs${lost:+ (not shown:$lost)}" $st
fi

# -- the divergent instruction, model and RTL side by side ---------------------------
# The poke flips bit 1 of the immediate of the first program word whose w2
# (immediate) is 1 and whose w0 is not 0 (not a `nop N`, whose IMM is its
# cycles): the model runs `... #1`, the RTL `... #3`.
c=$(sed -n 's/^lockstep: DIVERGENCE at cycle \([0-9]*\),.*/\1/p' "$D/divergence.txt")
insn_m=$(sed -n 's/^    model: *//p' "$D/divergence.txt") insn_r=$(sed -n 's/^    RTL: *//p' "$D/divergence.txt")
[ -n "$c" ] && grep -q "^  instruction: *FU [0-9]*, issued in cycle" "$D/divergence.txt" &&
  [ "${insn_m% #1}" != "$insn_m" ] && [ "${insn_r% #3}" = "${insn_m% #1}" ] &&
  grep -q "^      operands: .* = #1 = 0x00000001 (1)" "$D/divergence.txt" &&
  grep -q "^      operands: .* = #3 = 0x00000003 (3)" "$D/divergence.txt" &&
  [ "$(grep -c '^      result: ' "$D/divergence.txt")" = 2 ]
check "divergence.txt: the instruction decoded in both engines (model '$insn_m', RTL '$insn_r'), operands (#1 and #3) and results" $?
grep -qx "[0-9A-F]\{32\} ${insn_r:-none}" "$D/divergence-insn.txt" &&
  grep -q "^\^1 .*/divergence-insn.txt$" "$D/divergence.gtkw" && grep -q "^@2022$" "$D/divergence.gtkw"
check "divergence-insn.txt decodes rtl.fst's instruction words ('$insn_r' among them); divergence.gtkw shows the FU's word through it" $?
[ -s "$D/compare.fst" ] && [ -s "$D/compare.gtkw" ] && grep -q "^  side by side: *gtkwave $D/compare.fst $D/compare.gtkw" "$D/divergence.txt" &&
  [ -s "$D/repro/compare.fst" ]
check "cosim at the divergence: compare.fst and compare.gtkw (also in repro/), named in the report" $?
# first_one VCD SCOPE NAME: the first time the 1-bit NAME directly in SCOPE (a dotted path) is 1
first_one() {
  awk -v want="$2.$3" '$1 == "$scope" { s[++d] = $3 } $1 == "$upscope" { d-- }
    $1 == "$var" { v = s[1]; for (i = 2; i <= d; i++) v = v "." s[i]; if (v "." $5 == want) id = $4 }
    /^#[0-9]/ { T = substr($1, 2) } id != "" && $0 == "1" id { print T; exit }' "$1"
}
# has_var VCD SCOPE NAME: 0 when the VCD declares NAME directly in SCOPE
has_var() {
  awk -v want="$2.$3" '$1 == "$scope" { s[++d] = $3 } $1 == "$upscope" { d-- }
    $1 == "$var" { v = s[1]; for (i = 2; i <= d; i++) v = v "." s[i]; if (v "." $5 == want) f = 1 }
    END { exit !f }' "$1"
}
if command -v fst2vcd >/dev/null; then
  fst2vcd "$D/compare.fst" >"$tmp/c.vcd" 2>/dev/null
  tops=$(awk '$1 == "$scope" && d == 0 { printf "%s ", $3 } $1 == "$scope" { d++ } $1 == "$upscope" { d-- }' "$tmp/c.vcd")
  kind=$(sed -n 's/^  event: *\([a-z]*\) .*/\1/p' "$D/divergence.txt")
  fm=$(first_one "$tmp/c.vcd" mismatch "$kind") fa=$(first_one "$tmp/c.vcd" mismatch any)
  [ "$tops" = "rtl model mismatch " ] && [ -n "$kind" ] && [ "$fm" = "$((c * 1000))" ] && [ "$fa" = "$fm" ] &&
    grep -q ' insn \$end' "$tmp/c.vcd" && grep -q ' op_b \[31:0\] \$end' "$tmp/c.vcd"
  check "compare.fst: scopes '$tops', mismatch.$kind and mismatch.any first 1 at ${fm:-?} ps = cycle $c, insn and op_b signals" $?
fi
"$TCPA" wave "$D" --compare --print >"$tmp/out" 2>&1
[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "gtkwave $D/compare.fst $D/compare.gtkw" ]
check "wave --compare --print: gtkwave DIR/compare.fst DIR/compare.gtkw (the cosim's save file kept)" $?
# two clean runs of the same program in one directory: they agree everywhere
"$TCPA" run $ARGS --engine rtl --out-dir "$tmp/both" >/dev/null 2>&1
"$TCPA" run $ARGS --engine model --out-dir "$tmp/both" >/dev/null 2>&1
"$TCPA" wave "$tmp/both" --compare --print >"$tmp/out" 2>"$tmp/err"
st=$?
agree=1
if command -v fst2vcd >/dev/null; then
  fst2vcd "$tmp/both/compare.fst" >"$tmp/b.vcd" 2>/dev/null
  [ -z "$(first_one "$tmp/b.vcd" mismatch any)" ] && has_var "$tmp/b.vcd" mismatch any &&
    has_var "$tmp/b.vcd" 'mismatch.g_row[0].g_col[1]' wr || agree=0
fi
[ $st -eq 0 ] && [ $agree = 1 ] && grep -q "agree wherever both have values" "$tmp/err" && [ -s "$tmp/both/compare.gtkw" ] &&
  [ "$(cat "$tmp/out")" = "gtkwave $tmp/both/compare.fst $tmp/both/compare.gtkw" ]
check "wave --compare on a clean rtl run and a clean model run: exit $st, they agree (mismatch.any never 1), the save file written" $?
"$TCPA" wave "$tmp/mod" --compare >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "needs both .*rtl.fst and .*model.fst" "$tmp/err"
check "wave --compare without rtl.fst: exit 2 naming both files" $?

# -- a person's view: GTKWave on compare.fst under Xvfb, a screenshot ------------------
if compare_shot shot "$D"; then
  pe=$(sed -n 's/^lockstep: DIVERGENCE at cycle [0-9]*, PE (\([0-9]*\),\([0-9]*\)).*/g_row[\1].g_col[\2]/p' "$D/divergence.txt")
  fu=$(sed -n 's/^  instruction: *FU \([0-9]*\),.*/\1/p' "$D/divergence.txt")
  shown=$(sed -n 's/^displayed //p' "$tmp/shot.out")
  first=$(echo "$shown" | tr ' ' '\n' | grep -m1 -n "u_fu.insn" | cut -d: -f1)
  grep -q "^marker $((c * 1000))$" "$tmp/shot.out" && grep -q "^dumpfile $D/compare.fst$" "$tmp/shot.out" &&
    [ -n "$pe" ] && [ -n "$fu" ] &&
    echo "$shown" | grep -qF "model.TOP.tcpa_top.$pe.u_pe.g_fu[$fu].u_fu.insn rtl.TOP.tcpa_top.$pe.u_pe.g_fu[$fu].u_fu.insn" &&
    echo "$shown" | grep -qF "model.TOP.tcpa_top.$pe.u_pe.g_fu[$fu].u_fu.op_b[31:0] rtl.TOP.tcpa_top.$pe.u_pe.g_fu[$fu].u_fu.op_b[31:0]" &&
    [ "${first:-99}" -le 4 ]
  check "GTKWave: marker at $((c * 1000)) ps = cycle $c, the divergent FU's instruction (model, RTL) among the first signals (row ${first:-?}), then its operands as pairs" $?
fi

# -- the issue's case: a one-line program, RTL mutant 1 (docs/rtl.md: an immediate
# SRCB read as 0), and mutant 17 (a pop that does not shift: a pop divergence) ------
# (full tier: the mutants harness is a build of its own; the poked
# immediate above is the fast tier's divergence)
if ! full_tier; then
  :
elif ! MUT=$(harness "" mutants) || ! rtl_fresh "$MUT"; then
  unbuilt "the mutant report tests"
else
  MUT_ABS=$MUT
  printf '%s\n' 'program clamp(N) {' '  in  int32 x[N];' '  out int32 y[N];' '  par (0 <= i < N) {' \
    '    y[i] = max(x[i], -5);' '  }' '}' > "$tmp/clamp.pla"
  for m in 1 17; do
    printf '#!/bin/sh\nexec %s "$@" +mutant=%s\n' "$MUT_ABS" $m > "$tmp/mut$m.sh"
    chmod +x "$tmp/mut$m.sh"
    TCPA_RTL=$tmp/mut$m.sh "$TCPA" run "$tmp/clamp.pla" --param N=8 --pes 1x2 --engine cosim --out-dir "$tmp/mut$m" \
      >/dev/null 2>&1
  done
  R=$tmp/mut1/divergence.txt
  grep -q "^lockstep: DIVERGENCE at cycle 2, PE (0,0)" "$R" && grep -q "^  event: *wr (FU 0 -> od0)" "$R" &&
    [ "$(grep -c '^    \(model\|RTL\): *max od0, id0, #-5 ; br c0 ? L2 : L1$' "$R")" = 2 ] &&
    grep -q "^      operands: .*, b = #-5 = 0xfffffffb (-5)$" "$R" && grep -q "^      operands: .*, b = #-5 = 0x00000000 (0)$" "$R" &&
    grep -q "^      result: *0xfffffffb (-5)$" "$R" && grep -q "^      result: *0x00000000 (0)$" "$R"
  check "mutant 1 on max(x, -5), 1x2: divergence at cycle 2, 'max od0, id0, #-5' on both sides, operand b -5 (model) and 0 (RTL), results -5 and 0" $?
  R=$tmp/mut17/divergence.txt
  a=$(sed -n 's/^      operands: *a = id0 = \(0x[0-9a-f]*\) .*/\1/p' "$R" | tr '\n' ' ')
  grep -q "^  event: *pop (id0)" "$R" && grep -q "^  instructions: *issued by PE (0,0) in cycle" "$R" &&
    [ "$(grep -c '^    \(model\|RTL\): *max od0, id0, #-5' "$R")" = 2 ] && [ "$(echo $a | wc -w)" = 2 ] &&
    [ "${a%% *}" != "$(echo $a | cut -d' ' -f2)" ] && grep -q "^+{model op_a id0} " "$tmp/mut17/compare.gtkw"
  check "mutant 17 (a pop divergence): the PE's instruction issued in that cycle on both sides, its operand a (id0) differs ($a), op_a in compare.gtkw" $?
fi

# -- the reproduction bundle --------------------------------------------------------
R=$D/repro
st=0
for f in repro.sh command.txt program.pla arch.ini inputs/v.txt program.sym config.bin config.lst \
         divergence.gtkw divergence.txt rtl.fst model.fst; do
  [ -s "$R/$f" ] || { st=1; echo "# missing $R/$f"; }
done
grep -q "^command:   tcpa run $ARGS --engine cosim --out-dir $D$" "$R/command.txt" && grep -q "^seed:      5$" "$R/command.txt" &&
  grep -q "TCPA_RTL=$tmp/poke.sh" "$R/command.txt" || st=1
cmp -s "$R/config.bin" "$D/config.bin" && cmp -s "$R/program.pla" regress/programs/bitextract.pla &&
  cmp -s "$R/inputs/v.txt" "$D/inputs/v.txt" && cmp -s "$R/arch.ini" configs/default.ini || st=1
check "bundle: repro.sh, command.txt (command line, seed, harness), program, arch, inputs, .sym, stream, .gtkw, FSTs" $st
"$TCPA" instantiate "$R/program.sym" --param N=8 --pes 1x2 --arch "$R/arch.ini" --in v="$R/inputs/v.txt" \
  -o "$tmp/inst.bin" >/dev/null 2>&1 && cmp -s "$tmp/inst.bin" "$R/config.bin"
check "bundle: program.sym instantiates to the bundle's stream" $?
cp -r "$R" "$tmp/elsewhere"
! grep -v '^#' "$tmp/elsewhere/repro.sh" | grep -q "regress/programs\|$D"
st=$?
(cd / && TCPA=$TCPA_ABS TCPA_RTL=$tmp/poke.sh sh "$tmp/elsewhere/repro.sh" "$tmp/rerun" >"$tmp/rr.out" 2>&1)
rc=$?
[ $st -eq 0 ] && [ $rc -eq 1 ] && [ -n "$div" ] && [ "$(jdiv "$tmp/rerun/summary.json")" = "$div" ] &&
  [ "$(jget "$tmp/rerun/summary.json" seed)" = 5 ]
check "bundle moved elsewhere: sh repro.sh reruns it from / with one command, the same divergence (exit $rc)" $?
"$TCPA" wave "$R" --print >"$tmp/out" 2>&1
[ $? -eq 0 ] && [ "$(cat "$tmp/out")" = "gtkwave $R/rtl.fst $R/divergence.gtkw" ]
check "wave on the bundle: its own copies of rtl.fst and divergence.gtkw" $?
exit $fail
