#!/usr/bin/env bash
# covers: docs/timing.md "11. Several regions", docs/rtl.md "Several regions", "Results file"
# rtl_regions.sh: several regions at once in the RTL (tcpa-rtl S0.bin
# S1.bin@CYCLE ..., docs/timing.md section 11). The streams are assembled
# from regress/streams/ag_bank.tasm (a bank read, a loop closed by a
# control signal, a bank write at north side of PE 0,0, GC 0): `long`, the
# same with 150 iterations instead of 4 (about 150 cycles), and `east`,
# the 4-iteration one moved to PE 0,3 and GC 1. Checked:
# - each run alone, then `long` with `east` started at cycle 120 while
#   `long` runs: every region's output banks and its own cycles (the
#   results file, --results) equal those of the region run alone; the
#   trace has `rstart 1` at 120, one `rdone` per region with those cycles,
#   `gc 1 ...` lines, while a single stream's trace has none of them;
# - restart: `east` again at cycle 260, on PEs whose FUs halted in the
#   first run: its cycles and outputs are again those of the run alone;
# - instantiated streams (`tcpa run --pes RxC@ROW,COL`, its config.bin):
#   matmul on the quadrant 2x2@0,0 (GC 0) beside bitextract on 1x2@0,2,
#   its GC and START packets poked to GC 1 (tcpa stream-poke), started at
#   cycle 150 while matmul runs: each region's cycles and every bank of
#   its border PEs equal to the stream run alone; and the model's trace
#   of the same job (`tcpa run JOB.ini --engine model`, the same streams:
#   same programs, parameters, seeds, GC 1 and start 150 for the second)
#   equals the RTL's, line for line (`tcpa cosim-check`), to done;
# - every job of regress/jobs/ (four quadrants; row 0 beside rows 1..3; a
#   region started mid-run and one reloaded after done): the streams `tcpa
#   run JOB --engine model --out-dir D` keeps (D/NAME/config.bin) on the
#   RTL from the start cycles of D/summary.json: the model's trace equals
#   the RTL's in every cycle to done (`tcpa cosim-check`);
# - refusals: a stream whose loading window overlaps the previous start
#   (exit 2, both streams named); a stream touching the running region of
#   GC 0 (BUSY, loader error 14, exit 2, the trace cut before its first
#   word's cycle); a second stream without @CYCLE (exit 3).
# Prints TAP.
set -u
BUILD=${BUILD:-build}
. tests/tap.sh
# the harness of default.ini from the harness cache (`tcpa harness`,
# built when missing), or $RTL when given
RTL=${RTL:-$("$TCPA" harness)}

src=regress/streams/ag_bank.tasm
# long: 150 iterations (bank 0 holds 3..152, bank 1 gets 103..252 at 10..159)
python3 - "$src" "$tmp/long.tasm" <<'EOF'
import sys
s = open(sys.argv[1]).read()
n = 150
s = s.replace("    data 3 4 5 6", "    data " + " ".join(str(3 + i) for i in range(n)))
s = s.replace("    bounds 4\n", "    bounds %d\n" % n).replace("term c0: j0 <= 4", "term c0: j0 <= %d" % n)
s = s.replace("enable j0 <= 3", "enable j0 <= %d" % (n - 1))
open(sys.argv[2], "w").write(s)
EOF
sed -e 's/pe 0,0/pe 0,3/g' -e 's/^gc 0 /gc 1 /' -e 's/^start gc 0 /start gc 1 /' "$src" >"$tmp/east.tasm"
for s in long east; do
  "$TCPA" asm "$tmp/$s.tasm" -o "$tmp/$s.bin" >"$tmp/$s.asm.log" 2>&1
  check "tcpa asm $s.tasm" $?
done
"$TCPA" asm "$src" -o "$tmp/west.bin" >"$tmp/west.asm.log" 2>&1
check "tcpa asm ag_bank.tasm" $?

# Runs tcpa-rtl with name $1 and the remaining arguments; trace, banks,
# results and log under $tmp/$1.*; returns its status.
run() {
  local name=$1; shift
  mkdir -p "$tmp/$name.banks"
  "$RTL" "$@" --trace "$tmp/$name.trace" --results "$tmp/$name.res" --dump-banks "$tmp/$name.banks" \
    --dump-depth 200 --max-cycles 2000 >"$tmp/$name.log" 2>&1
}
# Prints key $2 of results file $1.
res() { sed -n "s/^$2=//p" "$1"; }
# Prints the cycles of region $2 in results file $1.
rcycles() { res "$1" "region$2" | awk '{ print $NF }'; }

run long "$tmp/long.bin"; check "long alone runs to done" $?
run east "$tmp/east.bin"; check "east alone runs to done" $?
cl=$(res "$tmp/long.res" cycles) ce=$(res "$tmp/east.res" cycles)
echo "# alone: long $cl cycles, east $ce cycles"
check_eval "results file: cycles of a single stream are its done line's" \
  "grep -q '^[0-9]* done - $cl\$' '$tmp/long.trace' && [ '$(res "$tmp/long.res" outcome)' = done ]"
check_eval "a single stream's trace has no rstart, rdone, gc G" \
  "! grep -Eq ' (rstart|rdone) | gc [0-9]' '$tmp/long.trace' '$tmp/east.trace' && grep -q ' gc - ' '$tmp/long.trace'"

run both "$tmp/long.bin" "$tmp/east.bin@120"; check "long with east@120 runs to done" $?
cat "$tmp/both.res" | sed 's/^/# /'
check_eval "region 0 (long, GC 0) takes as many cycles as alone" "[ '$(rcycles "$tmp/both.res" 0)' = '$cl' ]"
check_eval "region 1 (east, GC 1, from cycle 120) takes as many cycles as alone" \
  "[ '$(rcycles "$tmp/both.res" 1)' = '$ce' ] && res '$tmp/both.res' region1 | grep -q '^gc 1 row0 0 col0 3 rows 1 cols 1 start 120 '"
check_eval "region 0's output bank equals long's alone" "cmp -s '$tmp/both.banks/n_0_0_1.txt' '$tmp/long.banks/n_0_0_1.txt'"
check_eval "region 1's output bank equals east's alone" "cmp -s '$tmp/both.banks/n_0_3_1.txt' '$tmp/east.banks/n_0_3_1.txt'"
check_eval "the output banks are not empty (103 first in both)" \
  "sed -n 11p '$tmp/both.banks/n_0_0_1.txt' | grep -q 0x00000067 && sed -n 11p '$tmp/both.banks/n_0_3_1.txt' | grep -q 0x00000067"
check_eval "trace: rstart 1 at cycle 120, first of its cycle" \
  "grep -q '^120 rstart 1\$' '$tmp/both.trace' && [ \"\$(grep '^120 ' '$tmp/both.trace' | head -1)\" = '120 rstart 1' ]"
check_eval "trace: rdone 1 with east's cycles in cycle 120 + $ce - 1" \
  "grep -q '^$((120 + ce - 1)) rdone 1 $ce\$' '$tmp/both.trace'"
check_eval "trace: rdone 0 with long's cycles, just before done" \
  "grep -A1 '^$((cl - 1)) rdone 0 $cl\$' '$tmp/both.trace' | grep -q '^$((cl - 1)) done - $cl\$'"
check_eval "trace: gc lines name their GC (gc 0, gc 1), none gc -" \
  "grep -q ' gc 0 ' '$tmp/both.trace' && grep -q ' gc 1 ' '$tmp/both.trace' && ! grep -q ' gc - ' '$tmp/both.trace'"

# restart: east again at 260 on the PE it halted on
run again "$tmp/long.bin" "$tmp/east.bin@120" "$tmp/east.bin@260"
check "long, east@120, east@260 run to done" $?
check_eval "the restarted region takes as many cycles as alone" \
  "[ '$(rcycles "$tmp/again.res" 2)' = '$ce' ] && grep -q '^$((260 + ce - 1)) rdone 1 $ce\$' '$tmp/again.trace'"
check_eval "the restarted region's output bank equals east's alone" \
  "cmp -s '$tmp/again.banks/n_0_3_1.txt' '$tmp/east.banks/n_0_3_1.txt'"

# refusals
w=$(($(stat -c %s "$tmp/east.bin") / 4))
run overlap "$tmp/long.bin" "$tmp/east.bin@$((w - 1))"; rc=$?
check_eval "a loading window before the previous start: exit 2, both streams named" \
  "[ $rc -eq 2 ] && grep -q 'stream 1 .*east.bin.* stream 0 .*long.bin' '$tmp/overlap.log'"
run busy "$tmp/long.bin" "$tmp/west.bin@120"; rc=$?
check_eval "a stream into GC 0's running region: exit 2, loader error 14 (BUSY)" \
  "[ $rc -eq 2 ] && grep -q 'stream 1 .*error 14' '$tmp/busy.log' && [ '$(res "$tmp/busy.res" error)' = 14 ]"
check_eval "the refused run's trace ends before the stream's first word (cycle $((120 - w)))" \
  "[ \"\$(grep -v '^#' '$tmp/busy.trace' | tail -1 | cut -d' ' -f1)\" -lt $((120 - w)) ] && ! grep -q ' done ' '$tmp/busy.trace'"
"$RTL" "$tmp/long.bin" "$tmp/east.bin" >"$tmp/noat.log" 2>&1; rc=$?
check_eval "a second stream without @CYCLE: exit 3" "[ $rc -eq 3 ] && grep -q 'CYCLE' '$tmp/noat.log'"

# instantiated streams on two regions of the 4x4
"$TCPA" run regress/programs/matmul.pla --param N=4 --param M=4 --param K=30 --pes 2x2@0,0 --map i,j \
  --engine model --out-dir "$tmp/mm" >"$tmp/mm.log" 2>&1
check "tcpa run matmul 2x2@0,0 on the model (its stream, config.bin)" $?
"$TCPA" run regress/programs/bitextract.pla --param N=100 --pes 1x2@0,2 --engine model --out-dir "$tmp/bx" \
  >"$tmp/bx.log" 2>&1
check "tcpa run bitextract 1x2@0,2 on the model (its stream)" $?
# the words of the GC and START packet headers: INDEX (bits 8..15) 0 -> 1
wg=$("$TCPA" stream-poke "$tmp/bx/config.bin" --fields | awk '$3 == "gc" && $8 == "hdr0" { print $1 }')
ws=$("$TCPA" stream-poke "$tmp/bx/config.bin" --fields | awk '$3 == "start" && $8 == "hdr0" { print $1 }')
"$TCPA" stream-poke "$tmp/bx/config.bin" --word "$wg" --xor 0x100 -o "$tmp/bx1.bin" >/dev/null 2>&1 &&
  "$TCPA" stream-poke "$tmp/bx1.bin" --word "$ws" --xor 0x100 -o "$tmp/bits.bin" >/dev/null 2>&1
check "bitextract's GC and START packets moved to GC 1 (words $wg, $ws)" $?
run mm "$tmp/mm/config.bin"; check "matmul alone runs to done" $?
run bits "$tmp/bits.bin"; check "bitextract on GC 1 alone runs to done" $?
run quad "$tmp/mm/config.bin" "$tmp/bits.bin@150"; check "matmul with bitextract@150 runs to done" $?
check_eval "matmul's region takes as many cycles as alone ($(res "$tmp/mm.res" cycles))" \
  "[ '$(rcycles "$tmp/quad.res" 0)' = '$(res "$tmp/mm.res" cycles)' ]"
check_eval "bitextract's region (GC 1, from 150) takes as many cycles as alone ($(res "$tmp/bits.res" cycles))" \
  "[ '$(rcycles "$tmp/quad.res" 1)' = '$(res "$tmp/bits.res" cycles)' ] && [ $(res "$tmp/mm.res" cycles) -gt 150 ]"
# every bank of a region's border PEs, as the region alone left it
same=0 differ=0
for f in "$tmp"/quad.banks/*.txt; do
  b=$(basename "$f" .txt)
  IFS=_ read -r _ r c _ <<<"$b"
  if [ "$r" -le 1 ] && [ "$c" -le 1 ]; then ref=mm; elif [ "$r" -eq 0 ] && [ "$c" -ge 2 ]; then ref=bits; else continue; fi
  if cmp -s "$f" "$tmp/$ref.banks/$b.txt"; then same=$((same + 1)); else differ=$((differ + 1)); echo "# $b differs from $ref alone"; fi
done
check_eval "every bank of both regions equals the region's alone ($same banks, $differ differ)" "[ $same -ge 16 ] && [ $differ -eq 0 ]"
cat >"$tmp/job.ini" <<'EOF'
[run mm]
program = regress/programs/matmul.pla
param = N=4 M=4 K=30
pes = 2x2@0,0
map = i,j

[run bits]
program = regress/programs/bitextract.pla
param = N=100
pes = 1x2@0,2
start = 150
EOF
"$TCPA" run "$tmp/job.ini" --engine model --out-dir "$tmp/job" >"$tmp/job.log" 2>&1
check "tcpa run JOB.ini (the same two programs) on the model" $?
"$TCPA" cosim-check "$tmp/job/model.trace" "$tmp/quad.trace" >"$tmp/cc.log" 2>&1; rc=$?
head -4 "$tmp/cc.log" | sed 's/^/# /'
check_eval "the model's trace of the job equals the RTL's, every cycle to done (tcpa cosim-check: exit $rc)" \
  "grep -q ' rdone 0 ' '$tmp/quad.trace' && grep -q ' gc 1 ' '$tmp/quad.trace' && [ $rc -eq 0 ]"

# the jobs of regress/jobs/: the streams the job runner keeps (NAME/config.bin,
# each on its GC) on the RTL from the start cycles of summary.json; the
# model's trace of the job equals the RTL's in every cycle to done
for job in regress/jobs/*.ini; do
  name=$(basename "$job" .ini) d="$tmp/j-$(basename "$job" .ini)"
  "$TCPA" run "$job" --engine model --out-dir "$d" >"$d.model.log" 2>&1
  check "$name: tcpa run on the model (its streams in NAME/config.bin)" $?
  args=$(python3 - "$d" <<'PY'
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
print(" ".join("%s/%s/config.bin%s" % (d, r["name"], "@%d" % r["start_cycle"] if k else "")
               for k, r in enumerate(s["regions"])) + " --max-cycles %d" % (s["cycles"] + 100))
PY
)
  # shellcheck disable=SC2086 # the streams and options, one word each
  "$RTL" $args --trace "$d.rtl.trace" --results "$d.res" >"$d.rtl.log" 2>&1; rc=$?
  check "$name: tcpa-rtl on the job's $(grep -c '^\[run ' "$job") streams runs to done" $rc
  "$TCPA" cosim-check "$d/model.trace" "$d.rtl.trace" >"$d.cc.log" 2>&1; rc=$?
  head -3 "$d.cc.log" | sed 's/^/# /'
  check_eval "$name: the model's trace equals the RTL's in every cycle to done ($(grep -c ' rdone ' "$d.rtl.trace") rdone lines)" \
    "[ $rc -eq 0 ] && [ \$(grep -c ' rdone ' '$d.rtl.trace') -eq $(grep -c '^\[run ' "$job") ]"
done
