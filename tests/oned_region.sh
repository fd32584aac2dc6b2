#!/usr/bin/env bash
# covers: docs/user-guide.md "tcpa run"
# oned_region.sh: a program of one loop dimension on an RxC region (R > 1
# and C > 1) of configs/default.ini runs on one line of the region, its
# first row (1xC) when C >= R, else its first column (Rx1), at the region's
# origin (regress/engine_build.c engine_line_pick; docs/user-guide.md
# `--pes`), where it exited 3 ("an RxC region tiles two loop dimensions
# onto its rows and columns, program 'bitextract' has 1"). TAP.
#   - bitextract N=13 and dotprod N=10 on 2x2, 4x4 and 4x2 in the model:
#     exit 0, verdict pass (outputs equal to the reference), the mapping
#     line names the row or the column ("on the first row of the 2x2
#     region (1x2)"), summary.json's line is [1, C] or [R, 1] and pes_used
#     the PEs of that line (at most its length);
#   - the same program on the line itself (1xC or Rx1) gives the same
#     stream, byte for byte;
#   - `--map i` (one index) is accepted for it, as on a 1-D region;
#   - bitextract on 2x2 and dotprod on 4x2 in cosim (the default rtl
#     harness): model and RTL traces agree, verdict pass;
#   - `tcpa regress` carries the line into its report (summary.json's
#     runs[].line "1x2"), for the sign-off's "fits (row)" cells;
#   - a 2-D program (fir) with one --map index on 2x2 still exits 2.
# Environment: TCPA (default build/bin/tcpa).
set -u
. tests/tap.sh

# run ENGINE PES PROGRAM PARAM [MAP]: tcpa run into $tmp/r (stdout in
# $tmp/out); returns its status.
run() {
  local eng=$1 pes=$2 prog=$3 par=$4 map=${5:-}
  rm -rf "$tmp/r"
  "$TCPA" run "regress/programs/$prog.pla" --param "$par" --pes "$pes" ${map:+--map "$map"} --engine "$eng" \
    --out-dir "$tmp/r" > "$tmp/out" 2> "$tmp/err"
}

# line_of PES: the line a 1-D program runs on ("1x2", "4x1").
line_of() {
  local r=${1%x*} c=${1#*x}
  if [ "$c" -ge "$r" ]; then echo "1x$c"; else echo "${r}x1"; fi
}

for job in "bitextract N=13" "dotprod N=10"; do
  set -- $job
  prog=$1 par=$2
  for pes in 2x2 4x4 4x2; do
    line=$(line_of "$pes")
    lr=${line%x*} lc=${line#*x}
    what=$([ "$lr" = 1 ] && echo row || echo column)
    run model "$pes" "$prog" "$par"
    st=$?
    check_eval "$prog $par on $pes (model): exit 0, verdict pass $(sed -n '1s/^/(/;1s/$/)/p' "$tmp/err")" \
      "[ $st -eq 0 ] && grep -qx 'verdict   pass' $tmp/out"
    check_eval "$prog on $pes: the mapping line says the first $what ($line)" \
      "grep -q '^mapping   i tiled onto [0-9]* PEs* on the first $what of the $pes region ($line), ' $tmp/out"
    used=$(sed -n 's/^  "pes_used": \([0-9]*\),$/\1/p' "$tmp/r/summary.json")
    len=$((lr * lc))
    check_eval "$prog on $pes: summary.json line [$lr, $lc], pes_used $used of the line's $len" \
      "tr -d ' \n' < $tmp/r/summary.json | grep -q '\"line\":\[$lr,$lc\]' && [ \"\${used:-0}\" -ge 1 ] && [ \"\$used\" -le $len ]"
    cp "$tmp/r/config.bin" "$tmp/rxc.bin"
    run model "$line" "$prog" "$par"
    check_eval "$prog on $pes: the same stream as on $line, byte for byte" \
      "[ $? -eq 0 ] && cmp -s $tmp/rxc.bin $tmp/r/config.bin && tr -d ' \n' < $tmp/r/summary.json | grep -q '\"line\":null'"
  done
done

run model 2x2 bitextract N=13 i
check_eval "bitextract on 2x2 with --map i: exit 0 on the first row $(sed -n '1s/^/(/;1s/$/)/p' "$tmp/err")" \
  "[ $? -eq 0 ] && grep -q 'on the first row of the 2x2 region (1x2)' $tmp/out"

# cosim on the default configuration's RTL (the fast tier builds it)
if RTL=$(harness); then
  for job in "2x2 bitextract N=13" "4x2 dotprod N=10"; do
    set -- $job
    TCPA_RTL=$RTL run cosim "$@"
    st=$?
    check_eval "cosim: $2 $3 on $1: model and RTL agree, verdict pass $(sed -n '1s/^/(/;1s/$/)/p' "$tmp/err")" \
      "[ $st -eq 0 ] && grep -qx 'cosim     traces agree' $tmp/out && grep -qx 'verdict   pass' $tmp/out"
  done
else
  unbuilt "cosim of a 1-D program on an RxC region"
fi

# tcpa regress: the line in the report
printf 'suite oned\nrun bitextract N=13 pes=2x2,1x2 arch=default engine=model expect=pass\n' > "$tmp/oned.suite"
"$TCPA" regress "$tmp/oned.suite" -j 1 --out-dir "$tmp/reg" > "$tmp/reg.out" 2>&1
st=$?
check_eval "tcpa regress: bitextract on 2x2 passes, the report says its line 1x2 (and none on 1x2)" \
  "[ $st -eq 0 ] && tr -d ' \n' < $tmp/reg/summary.json | grep -q '\"pes\":\"2x2\"[^}]*\"line\":\"1x2\"' &&
   tr -d ' \n' < $tmp/reg/summary.json | grep -q '\"pes\":\"1x2\"[^}]*\"line\":null'"

# a 2-D program with one --map index on an RxC region: still invalid
"$TCPA" run regress/programs/fir.pla --param N=9 --param T=3 --pes 2x2 --map i --engine model \
  > "$tmp/out" 2> "$tmp/err"
st=$?
check_eval "fir (2-D) on 2x2 with --map i: exit 2, two indices needed" \
  "[ $st -eq 2 ] && grep -q 'tiles two loop indices' $tmp/err"
exit $fail
