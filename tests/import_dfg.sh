#!/usr/bin/env bash
# covers: docs/dfg.md "The command", "The mapping", "rec arrays", "ctrl=", "Jobs", "The workload", "Refused", "The examples"
# import_dfg.sh: `tcpa import-dfg` from the outside (docs/dfg.md) on the
# DFG files of regress/dfg/, written from DSAGEN's description of the
# format: vectorized ports (vecadd, recvec), rec arrays (prefix: distance
# 1, recvec: two lanes, distance 2), ctrl= resets (prefix), $RegN and
# immediates (vecadd, stencil, bfs), two sub-DFGs sharing arrays (stencil:
# a job). Every program imported runs on the model (--engine model checks
# each output against the reference interpreter) at the workload's N and
# region on configs/big1d.ini; the shared array's data passed by hand
# from one sub-DFG to the next; the job runs; the workload's weights are
# the frequencies and tcpa explore reads it; every file of
# regress/dfg/bad/ exits 2 at the FILE:LINE:COL its `# expect:` line
# gives, writing nothing. Full tier: prefix (rec array and ctrl=) in
# cosim on the default configuration. Prints TAP lines.
set -u
. tests/tap.sh

arch=configs/big1d.ini
"$TCPA" import-dfg --help >$tmp/help 2>&1; rc=$?
check_eval "import-dfg --help exits 0 and names -o, --len, --pes" \
  "[ $rc -eq 0 ] && grep -q -- '-o, --out DIR' $tmp/help && grep -q -- '--len N' $tmp/help && grep -q -- '--pes RxC' $tmp/help"

for f in regress/dfg/*.dfg; do
  b=$(basename $f .dfg) d=$tmp/$b
  "$TCPA" import-dfg $f -o $d >$tmp/$b.out 2>$tmp/$b.err; rc=$?
  check_eval "$b: imported (exit $rc): $(grep -c '\.pla' $tmp/$b.out) programs and $b.wl" \
    "[ $rc -eq 0 ] && [ -s $d/$b.wl ] && ls $d/${b}_*.pla >/dev/null 2>&1"
  # every workload entry (and the frequency-0 ones it names) runs on the model
  progs=$(ls $d/${b}_*.pla 2>/dev/null | wc -l)
  entries=$(grep -c '^[^#]' $d/$b.wl 2>/dev/null)
  check_eval "$b: one workload entry per program ($entries of $progs)" "[ '$entries' = '$progs' ]"
  while read -r prog par pes w; do
    case $prog in \#*|'') continue ;; esac
    "$TCPA" run $d/$prog --arch $arch --param $par --pes $pes --engine model >$tmp/run.out 2>&1; rc=$?
    check_eval "$b: $prog $par on $pes: model equals the reference (exit $rc; $(grep -o 'II [0-9]*' $tmp/run.out | head -1))" \
      "[ $rc -eq 0 ] && grep -q '^verdict   pass' $tmp/run.out"
  done <$d/$b.wl
done

# the mapping as written: lanes, rec, registers, weights
d=$tmp/vecadd
check_eval "vecadd: lanes are the second dimension (a[N, 4], b[N, 2]), c's 2 lanes from c_0, c_1, \$Reg0 a scalar input" \
  "grep -q 'in  int32 a\[N, 4\], b\[N, 2\], Reg0;' $d/vecadd_1.pla && grep -q 'out int32 c\[N, 2\];' $d/vecadd_1.pla"
check_eval "vecadd: the sub-DFG of declarations only (frequency 0) makes no program" "[ ! -e $d/vecadd_0.pla ]"
check_eval "recvec: rec r (4 elements, 2 lanes) is a dependence of distance 2, N >= 2" \
  "grep -q 'N >= 2' $tmp/recvec/recvec_1.pla && grep -q 'v_T_0\[e-2\] if (e >= 2)' $tmp/recvec/recvec_1.pla"
check_eval "prefix: Acc64 with ctrl=K & 3{3: r} restarts after K & 3 == 3" \
  "grep -q '((K\[e\] & 3) == 3) ? 0 : v_Z\[e\]' $tmp/prefix/prefix_1.pla"
check_eval "weights are the frequencies: stencil 90 and 3, vecadd 255, bfs 1 (no pragma) and 4" \
  "awk '{ print \$1, \$4 }' $tmp/stencil/stencil.wl | grep -q 'stencil_1.pla 90' &&
   awk '{ print \$1, \$4 }' $tmp/stencil/stencil.wl | grep -q 'stencil_2.pla 3' &&
   grep -q 'vecadd_1.pla N=12 1x1 255' $tmp/vecadd/vecadd.wl &&
   grep -q 'bfs_0.pla N=16 1x1 1$' $tmp/bfs/bfs.wl && grep -q 'bfs_1.pla N=16 1x1 4$' $tmp/bfs/bfs.wl"

# the prefix sum through the rec array, recomputed: y[e] = acc_init + x[0..e]
"$TCPA" run $tmp/prefix/prefix_1.pla --arch $arch --param N=20 --engine model --out-dir $tmp/px >/dev/null 2>&1
check_eval "prefix: y is the running sum of x from acc_init, acc_final its last value (recomputed with awk)" \
  "awk 'FNR == 1 { f++ } { for (i = 1; i <= NF; i++) v[f, n[f]++] = \$i }
        END { s = v[1, 0]; for (e = 0; e < n[2]; e++) { s = s + v[2, e]; s = (s + 2^31) % 2^32 - 2^31; if (s != v[3, e]) exit 1 }
              exit (s != v[4, 0]) }' $tmp/px/inputs/acc_init.txt $tmp/px/inputs/X.txt $tmp/px/Y.txt $tmp/px/acc_final.txt"

# two sub-DFGs sharing arrays: the job, and the data of b passed by hand
d=$tmp/stencil
check_eval "stencil: a job lists the two sub-DFGs sharing a and b, each in a corner of the 4x4 array" \
  "[ \$(grep -c '^\[run ' $d/stencil.job.ini) -eq 2 ] && grep -q '^#   b: written by stencil_1 (O), read by stencil_2 (P)' $d/stencil.job.ini &&
   grep -q '^pes = 1x1@0,0' $d/stencil.job.ini && grep -q '^pes = 1x1@0,3' $d/stencil.job.ini"
check_eval "bfs: no array shared, no job; Q, Mo = DivRem64(U, V) is a div and a mod" \
  "[ ! -e $tmp/bfs/bfs.job.ini ] && grep -q 'v_Q\[e\] = U\[e\] / V\[e\];' $tmp/bfs/bfs_1.pla && grep -q 'v_Mo\[e\] = U\[e\] % V\[e\];' $tmp/bfs/bfs_1.pla"
"$TCPA" run $d/stencil.job.ini --arch $arch --engine model >$tmp/job.out 2>&1; rc=$?
check_eval "stencil: the job runs on the model, both programs equal their references (exit $rc)" \
  "[ $rc -eq 0 ] && grep -q '^verdict   pass' $tmp/job.out && [ \$(grep -c 'outputs equal to the reference, pass' $tmp/job.out) -eq 2 ]"
"$TCPA" run $d/stencil_1.pla --arch $arch --param N=24 --engine model --out-dir $tmp/s1 >/dev/null 2>&1; rc1=$?
"$TCPA" run $d/stencil_2.pla --arch $arch --param N=24 --engine model --in P=$tmp/s1/O.txt \
  --in Q=$tmp/s1/inputs/A.txt --out-dir $tmp/s2 >/dev/null 2>&1; rc2=$?
check_eval "stencil: stencil_2 on stencil_1's b (and a) passes; R = max(O - A, 0), recomputed with awk" \
  "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && paste -d' ' <(tr -s ' \n' '\n\n' <$tmp/s1/O.txt | grep .) \
     <(tr -s ' \n' '\n\n' <$tmp/s1/inputs/A.txt | grep .) <(tr -s ' \n' '\n\n' <$tmp/s2/R.txt | grep .) |
   awk '{ d = \$1 - \$2; d = (d + 2^31) % 2^32 - 2^31; if ((d > 0 ? d : 0) != \$3) bad = 1; n++ } END { exit bad || n != 24 }'"

# the workload is one tcpa explore reads (one point: the base configuration)
printf '[pe]\nrd = 8\n' >$tmp/one.space
"$TCPA" explore --workload $d/stencil.wl --space $tmp/one.space --arch $arch --out $tmp/ex -q >$tmp/ex.out 2>&1; rc=$?
check_eval "tcpa explore reads stencil.wl: both entries fit, weighted cycles = 90 x c1 + 3 x c2 (exit $rc)" \
  "[ $rc -eq 0 ] && awk -F'\t' 'FNR == 1 { f++; for (i = 1; i <= NF; i++) h[i] = \$i; next }
     f == 1 && \$4 == \"ok\" { w = (\$2 ~ /stencil_1/) ? 90 : 3; s += w * \$6; k++ }
     f == 2 { for (i = 1; i <= NF; i++) if (h[i] == \"weighted_cycles\") got = \$i } END { exit k != 2 || got != s }' $tmp/ex/entries.tsv $tmp/ex/points.tsv"

# options
"$TCPA" import-dfg regress/dfg/stencil.dfg -o $tmp/o2 --len 8 --pes 1x2 --arch $arch -q >/dev/null 2>&1; rc=$?
check_eval "--len 8 --pes 1x2 --arch go into the workload and the job" \
  "[ $rc -eq 0 ] && grep -q 'stencil_1.pla N=8 1x2 90' $tmp/o2/stencil.wl && grep -q '^pes = 1x2@0,2' $tmp/o2/stencil.job.ini &&
   grep -q '^arch = $arch' $tmp/o2/stencil.job.ini"
"$TCPA" run $tmp/o2/stencil.job.ini --engine model >$tmp/job2.out 2>&1; rc=$?
check_eval "that job runs on its own arch line, 1x2 regions (exit $rc)" "[ $rc -eq 0 ] && grep -q '^verdict   pass' $tmp/job2.out"
"$TCPA" import-dfg regress/dfg/stencil.dfg -o $tmp/o4 --pes 3x3 >/dev/null 2>$tmp/o4.err; rc=$?
check_eval "--pes 3x3: two 3x3 regions do not fit the corners of 4x4: the programs, no job, a note (exit $rc)" \
  "[ $rc -eq 0 ] && [ -e $tmp/o4/stencil_2.pla ] && [ ! -e $tmp/o4/stencil.job.ini ] && grep -q '1 regions of 3x3 fit' $tmp/o4.err"
"$TCPA" import-dfg regress/dfg/recvec.dfg -o $tmp/o3 --len 1 >/dev/null 2>$tmp/o3.err; rc=$?
check_eval "--len below a recurrence distance exits 2 and writes nothing" \
  "[ $rc -eq 2 ] && grep -q 'recurrence distance 2' $tmp/o3.err && [ ! -e $tmp/o3 ]"
"$TCPA" import-dfg regress/dfg/vecadd.dfg >/dev/null 2>&1; rc=$?
check "no -o DIR exits 2" $([ $rc -eq 2 ]; echo $?)

# invalid files: FILE:LINE:COL of their `# expect:` line, exit 2, nothing written
for f in regress/dfg/bad/*.dfg; do
  b=$(basename $f .dfg)
  want=$(sed -n 's/^# expect: \([0-9]*:[0-9]*\) \(.*\)/\1/p' $f) msg=$(sed -n 's/^# expect: [0-9]*:[0-9]* \(.*\)/\1/p' $f)
  "$TCPA" import-dfg $f -o $tmp/bad/$b >/dev/null 2>$tmp/$b.err; rc=$?
  check_eval "bad/$b: exit $rc at $(head -1 $tmp/$b.err | cut -d: -f2,3) (want $want: $msg), a caret line, nothing written" \
    "[ $rc -eq 2 ] && head -1 $tmp/$b.err | grep -qF '$f:$want: error: ' && head -1 $tmp/$b.err | grep -qF \"$msg\" &&
     grep -q '^ *\^' $tmp/$b.err && [ ! -e $tmp/bad/$b ]"
done

if full_tier; then
  # the rec array and the ctrl= reset through the RTL, cycle by cycle
  "$TCPA" run $tmp/prefix/prefix_1.pla --param N=20 --engine cosim --out-dir $tmp/cos >$tmp/cos.out 2>&1; rc=$?
  check_eval "prefix in cosim on the default configuration: model and RTL agree, outputs equal the reference (exit $rc)" \
    "[ $rc -eq 0 ] && grep -q '^verdict   pass' $tmp/cos.out"
fi
exit $fail
