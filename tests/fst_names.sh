#!/usr/bin/env bash
# covers: docs/rtl.md "Signal names", docs/trace.md "The model's FST"
# fst_names.sh: the model's FST and the RTL's FST name the same registers
# the same way (docs/rtl.md "Signal names", docs/trace.md "The model's
# FST"), so that one .gtkw opens both. One small run (matmul N=M=K=2 on a
# 2x2 region of configs/default.ini) with --engine model and with --engine
# rtl (build/bin/tcpa-rtl), both FSTs converted with fst2vcd:
#   - per-register signals exist in both under PE / unit / register names:
#     u_regfile.rd_q[K] (rdK), od_q[K] (odK), g_fd[K].u_fd.head_o (fdK's
#     head), g_fifo[K].u_fifo.head_o (idK's head), g_fu[F].u_fu.pc_q, for
#     every K and F of the architecture and every PE of the region;
#   - every signal of the model's FST is in the RTL's with the same name and
#     width (the model writes a subset: no FIFO buffers, pipelines, ...);
#   - values: rd1 of PE (0,1) after the cycle of its first write (a `wr`
#     event of the trace) is the written value in both FSTs, at the same
#     cycle; every per-register signal (rd, od, fd and id heads, pc) and
#     every FU's instruction and operands (`word`, `val`) and wait counter
#     (`wait_q`: cycles left of a `nop N`, not 0 in some cycle) has the same
#     value in both FSTs after every cycle of the run;
#   - the trace's rd/od writes and issues are in the RTL's FST at their
#     times, cycle t from t ns to t+1 ns (tests/fst_events.awk, t0 and the
#     period from the trace), as in the model's;
#   - the time base: the trace says `# fst t0=0 period=1000`, both FSTs
#     are in ps (1 ns per cycle), the RTL's clock rises at every whole ns;
#   - the sampler sees a difference: a model FST of another program differs.
# Prints TAP lines.
set -u
cd "$(dirname "$0")/.." || exit 1
. tests/tap.sh
BUILD=${BUILD:-build}
RTL=$("$TCPA" harness)
unset TCPA_RTL

# skip REASON: one skipped TAP line.
skip() { n=$((n + 1)); echo "ok $n - # SKIP $1"; }
# Returns 0 when harness $1 exists and no RTL or harness source is newer.
# (`tcpa harness` below builds what is missing; the cache never holds a
# stale harness, so only a failed build leaves one out: a failure)
rtl_fresh() { [ -x "$1" ]; }
# vars VCD: every variable as `SCOPE.NAME WIDTH`, sorted.
vars() {
  awk '$1 == "$scope" { s[++d] = $3 } $1 == "$upscope" { d-- }
       $1 == "$var" { v = s[1]; for (i = 2; i <= d; i++) v = v "." s[i]; print v "." $5, $3 }' "$1" | sort -u
}
# sample VCD T0 CYCLES: `CYCLE NAME VALUE` for every per-register signal
# (REGS below) after each of cycles 0..CYCLES-1, at the rising edge that
# ends cycle t, t0 + (t+1)*1000 (1 ns per cycle, docs/trace.md; VALUE
# binary without leading zeros).
REGS='u_pe\.(g_fu\[[0-9]+\]\.u_fu\.(word|val|wait_q)|u_regfile\.rd_q\[[0-9]+\]|od_q\[[0-9]+\]|g_fd\[[0-9]+\]\.u_fd\.head_o|g_fifo\[[0-9]+\]\.u_fifo\.head_o|g_fu\[[0-9]+\]\.u_fu\.pc_q)$'
sample() {
  awk -v t0="$2" -v cycles="$3" -v re="$REGS" '
    function norm(b) { sub(/^0+/, "", b); return b == "" ? "0" : b }
    function out(T,   t, i) {
      if (T < t0 + 1000 || (T - t0) % 1000 != 0) return
      t = (T - t0) / 1000 - 1
      if (t >= cycles + 0) return
      for (i = 1; i <= ns; i++) print t, sel[i], norm(cur[sid[i]])
    }
    $1 == "$scope" { sc[++d] = $3 }
    $1 == "$upscope" { d-- }
    $1 == "$var" {
      v = sc[1]; for (i = 2; i <= d; i++) v = v "." sc[i]; v = v "." $5
      cur[$4] = "0"
      if (v ~ re && !(v in seen)) { seen[v] = 1; sel[++ns] = v; sid[ns] = $4 }
    }
    /^#[0-9]/ { if (on) out(T); T = substr($1, 2) + 0; on = 1; next }
    /^b/ { cur[$2] = substr($1, 2); next }
    /^[01xz]/ && on { cur[substr($1, 2)] = substr($1, 1, 1) }
    END { if (on) out(T) }' "$1" | sort -k1,1n -k2,2
}

if ! command -v fst2vcd >/dev/null; then
  skip "fst2vcd missing (gtkwave package): no FST name tests"
  exit 0
fi
if ! rtl_fresh "$RTL"; then
  unbuilt "the RTL harness: no FST name tests"
  exit 0
fi

ARGS="regress/programs/matmul.pla --param N=2 --param M=2 --param K=2 --pes 2x2 --seed 3"
"$TCPA" run $ARGS --engine model --out-dir "$tmp/m" >"$tmp/m.out" 2>&1
sm=$?
"$TCPA" run $ARGS --engine rtl --out-dir "$tmp/r" >"$tmp/r.out" 2>&1
sr=$?
fst2vcd "$tmp/m/model.fst" >"$tmp/m.vcd" 2>/dev/null && fst2vcd "$tmp/r/rtl.fst" >"$tmp/r.vcd" 2>/dev/null
st=$?
[ $sm -eq 0 ] && [ $sr -eq 0 ] && [ $st -eq 0 ] && grep -q '^\$enddefinitions' "$tmp/m.vcd" && grep -q '^\$enddefinitions' "$tmp/r.vcd"
check "matmul 2x2 --engine model and --engine rtl pass (exit $sm, $sr), both FSTs convert" $?

vars "$tmp/m.vcd" >"$tmp/mvars"
vars "$tmp/r.vcd" >"$tmp/rvars"
# the architecture's register counts, from the parameter package of the RTL
par() { sed -n "s/^ *localparam int unsigned PE_$1 *= *\([0-9]*\);.*/\1/p" "$(dirname "$RTL")/tcpa_params_pkg.sv" | head -1; }
NRD=$(par RD) NOD=$(par OD) NFD=$(par FD) NID=$(par ID) NFU=$(($(par ALU) + $(par MUL) + $(par DIV)))
want=0 miss=""
for r in 0 1; do
  for c in 0 1; do
    pe="TOP.tcpa_top.g_row\\[$r\\].g_col\\[$c\\].u_pe"
    for spec in "u_regfile.rd_q\\[%d\\] 32:${NRD:-0}" "od_q\\[%d\\] 32:${NOD:-0}" "g_fd\\[%d\\].u_fd.head_o 32:${NFD:-0}" \
                "g_fifo\\[%d\\].u_fifo.head_o 32:${NID:-0}" "g_fu\\[%d\\].u_fu.pc_q 8:${NFU:-0}"; do
      cnt=${spec##*:}
      for ((k = 0; k < cnt; k++)); do
        # shellcheck disable=SC2059
        name="$pe.$(printf "${spec%:*}" "$k")"
        want=$((want + 1))
        grep -q "^$name$" "$tmp/mvars" || miss="$miss model:$name"
        grep -q "^$name$" "$tmp/rvars" || miss="$miss rtl:$name"
      done
    done
  done
done
[ "$want" -ge 4 ] && [ "${NRD:-0}" -ge 2 ] && [ -z "$miss" ]
st=$?
check "$want per-register signals (rd_q[K], od_q[K], fd and id head_o, pc_q of $NRD rd, $NOD od, $NFD fd, $NID id, $NFU FUs x 4 PEs) in both FSTs${miss:+ (missing:${miss:0:300})}" $st
extra=$(comm -23 "$tmp/mvars" "$tmp/rvars" | head -3 | tr '\n' ' ')
[ -s "$tmp/mvars" ] && [ -z "$extra" ] && ! grep -q 'u_regfile\.rd[0-9]\|u_pe\.od[0-9]' "$tmp/mvars"
st=$?
nm=$(wc -l <"$tmp/mvars") nr=$(wc -l <"$tmp/rvars")
check "every signal of the model's FST ($nm) is in the RTL's ($nr) with the same name and width, no model-only names${extra:+ (not in the RTL: $extra)}" $st

# one register by name: the first rd PE (0,1) writes, at that write
t0=$(sed -n 's/^# fst t0=\([0-9]*\) .*/\1/p' "$tmp/r/rtl.trace" | head -1)
read -r wc wr wv < <(awk '$2 == "wr" && $3 == "0,1" && $5 ~ /^rd[0-9]+$/ { print $1, substr($5, 3), $6; exit }' "$tmp/m/model.trace")
name="TOP.tcpa_top.g_row[0].g_col[1].u_pe.u_regfile.rd_q[${wr:-0}]"
cycles=$(awk '$2 == "done" { print $4 }' "$tmp/m/model.trace")
sample "$tmp/m.vcd" 0 "${cycles:-0}" >"$tmp/m.s"
sample "$tmp/r.vcd" "${t0:-0}" "${cycles:-0}" >"$tmp/r.s"
bin() { echo "obase=2; ibase=16; $(echo "${1#0x}" | tr a-f A-F)" | bc; }
mv1=$(awk -v t="${wc:--1}" -v n="$name" '$1 == t && $2 == n { print $3 }' "$tmp/m.s")
rv1=$(awk -v t="${wc:--1}" -v n="$name" '$1 == t && $2 == n { print $3 }' "$tmp/r.s")
wb=$(bin "${wv:-0x0}")
[ -n "${wv:-}" ] && [ -n "$t0" ] && [ -n "$mv1" ] && [ "$mv1" = "$rv1" ] && [ "$mv1" = "$wb" ]
st=$?
check "rd${wr:-?} of PE (0,1) after cycle ${wc:-?} (its first write, ${wv:-?}): model.fst $mv1, rtl.fst (t0 ${t0:-?}) $rv1" $st

lines=$(wc -l <"$tmp/m.s") nsig=$(awk '{ print $2 }' "$tmp/m.s" | sort -u | wc -l)
diffs=$(diff "$tmp/m.s" "$tmp/r.s" | grep '^[<>]' | head -4 | tr '\n' ' ')
[ "${cycles:-0}" -gt 10 ] && [ "$nsig" -ge "$want" ] && [ "$lines" -eq $((cycles * nsig)) ] && cmp -s "$tmp/m.s" "$tmp/r.s"
st=$?
check "every per-register signal and FU word, val and wait_q ($nsig, all PEs of the array) after each of the ${cycles:-?} cycles: the same in both FSTs ($lines values)${diffs:+ (first differences: $diffs)}" $st
nw=$(awk '$2 ~ /wait_q$/ && $3 != "0"' "$tmp/m.s" | wc -l)
[ "$nw" -gt 0 ] && [ "$(awk '$2 ~ /wait_q$/' "$tmp/m.s" | wc -l)" -gt "$nw" ]
check "wait_q is sampled and counts a nop N down in the model's FST ($nw of its values not 0)" $?

res=$(awk -f tests/fst_events.awk "$tmp/r/rtl.trace" "$tmp/r.vcd" | tail -1)
set -- $res
[ "${2:-0}" -gt 100 ] && [ "${4:-1}" -eq 0 ]
check "rtl.fst: the trace's writes (rd_q[K], od_q[K], dbg_wr_val_o) and issues in cycle t's nanosecond t..t+1 ($res)" $?
res=$(awk -f tests/fst_events.awk "$tmp/m/model.trace" "$tmp/m.vcd" | tail -1)
set -- $res
[ "${2:-0}" -gt 100 ] && [ "${4:-1}" -eq 0 ]
check "model.fst: the same checks at the same times ($res)" $?

# the time base: 1 ns per cycle, the rising edge of cycle t at t ns
fl=$(grep -m1 '^# fst ' "$tmp/r/rtl.trace")
ts_r=$(awk '/^\$timescale/ { getline; print $1; exit }' "$tmp/r.vcd") ts_m=$(awk '/^\$timescale/ { getline; print $1; exit }' "$tmp/m.vcd")
clk=$(awk '$1 == "$var" && $5 == "clk_i" && !id { id = $4 } /^#[0-9]/ { T = substr($1, 2) + 0 } id && $0 == "1" id && T > 0 { print T; n++ } n == 3 { exit }' "$tmp/r.vcd" | tr '\n' ' ')
[ "$fl" = "# fst t0=0 period=1000" ] && [ "$ts_r" = 1ps ] && [ "$ts_m" = 1ps ] && [ "$clk" = "1000 2000 3000 " ]
check "time base: '$fl', timescales $ts_r and $ts_m, the RTL's clock rises at ${clk}ps (cycles 1, 2, 3)" $?

# the comparison sees a difference: another program's registers
"$TCPA" run regress/programs/matmul.pla --param N=2 --param M=2 --param K=2 --pes 2x2 --seed 4 \
  --engine model --out-dir "$tmp/m4" >/dev/null 2>&1
fst2vcd "$tmp/m4/model.fst" >"$tmp/m4.vcd" 2>/dev/null
sample "$tmp/m4.vcd" 0 "${cycles:-0}" >"$tmp/m4.s"
[ -s "$tmp/m4.s" ] && ! cmp -s "$tmp/m4.s" "$tmp/r.s"
check "the comparison sees other inputs (seed 4) as different register values" $?
exit $fail
