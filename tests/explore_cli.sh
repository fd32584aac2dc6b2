#!/usr/bin/env bash
# covers: docs/explore.md "The command", "The workload", "The space",
#   "The outputs", "The answers", "Search", "Several hosts", "The cache", "Area", "Errors"
# explore_cli.sh: tests of `tcpa explore` from the outside (docs/explore.md)
# on regress/explore/small.wl (dotprod 1x1, fir 1x2, trimv 1x1) over
# regress/explore/small.space (array.cols 1..2 x pe.alu 1,2: 4 points).
# The table and the tables' rows; fir's no-fit record on one column; the
# Pareto front recomputed here with awk (non-dominated, and every point
# off it dominated); smallest.ini loads with the smallest point's
# fingerprint; a rerun and a widened space reuse the cache; a space where
# nothing fits exits 3; the SVG picture is made; bad keys, values and
# workload lines exit 2 with file:line. Prints TAP lines.
set -u
. tests/tap.sh

wl=regress/explore/small.wl sp=regress/explore/small.space d=$tmp/ex
"$TCPA" explore --workload $wl --space $sp --out $d -j 2 >$tmp/out1 2>$tmp/err1; rc=$?
check "explore on 4 points exits 0 (a point runs every entry)" $rc
check_eval "the table has a row per point and names the smallest" \
  "[ \$(grep -cE '^ +[1-4] ' $tmp/out1) -eq 4 ] && grep -q '^smallest configuration running every entry: point ' $tmp/out1"
check_eval "progress lines on stderr: 4 points, 0 cached, each point evaluated" \
  "grep -q '4 points, 0 cached' $tmp/err1 && [ \$(grep -c 'explore: point [0-9]* evaluated' $tmp/err1) -eq 4 ]"
check_eval "points.tsv: a header and 4 rows, fits 2/3 on one column, 3/3 on two" \
  "[ \$(wc -l <$d/points.tsv) -eq 5 ] &&
   awk -F'\t' 'NR > 1 { if ((\$4 == 1) != (\$6 == \"2/3\")) bad = 1; if (\$4 == 2 && \$6 != \"3/3\") bad = 1 } END { exit bad }' $d/points.tsv"
check_eval "entries.tsv: fir on 1 column carries the no-fit record array.cols need 2 have 1" \
  "awk -F'\t' '\$2 ~ /^fir/ && \$4 == \"nofit\" && \$8 == \"array.cols\" && \$9 == 2 && \$10 == 1 { n++ } END { exit n != 2 }' $d/entries.tsv"
check_eval "entries.tsv: every entry that fits has II >= 1 and cycles >= 1" \
  "awk -F'\t' 'NR > 1 && \$4 == \"ok\" && (\$5 < 1 || \$6 < 1) { bad = 1 } END { exit bad }' $d/entries.tsv"
# weighted cycles: recomputed from entries.tsv and the weights of the workload (2, 1, 1)
check_eval "weighted cycles = sum of weight x cycles (recomputed)" \
  "awk -F'\t' 'FNR == 1 { f++; next }
     f == 1 && \$4 == \"ok\" { w = (\$2 ~ /^dotprod/) ? 2 : 1; s[\$1] += w * \$6 }
     f == 2 && \$7 != \"-\" && \$7 != s[\$1] { bad = 1 } f == 2 && \$7 != \"-\" { n++ }
     END { exit bad || n != 2 }' $d/entries.tsv $d/points.tsv"
# The Pareto front, recomputed: pareto.tsv's points are exactly those of
# points.tsv fitting every entry that no other such point dominates.
awk -F'\t' 'NR > 1 && $6 == "3/3" { print $1, $8, $7 }' $d/points.tsv >$tmp/fit.txt
awk 'NR == FNR { p[NR] = $1; a[NR] = $2; c[NR] = $3; n = NR; next }
     END { for (i = 1; i <= n; i++) { dom = 0
             for (j = 1; j <= n; j++) if (j != i && a[j] <= a[i] && c[j] <= c[i] && (a[j] < a[i] || c[j] < c[i])) dom = 1
             if (!dom) print p[i] } }' $tmp/fit.txt $tmp/fit.txt | sort >$tmp/front.want
awk -F'\t' 'NR > 1 { print $1 }' $d/pareto.tsv | sort >$tmp/front.got
check_eval "pareto.tsv is the non-dominated set of the fitting points (recomputed with awk)" \
  "[ -s $tmp/front.got ] && cmp -s $tmp/front.want $tmp/front.got"
best=$(sort -k2,2n -k3,3n $tmp/fit.txt | head -n 1 | cut -d' ' -f1)
fp=$(awk -F'\t' -v p="$best" '$1 == p { print $2 }' $d/points.tsv)
check_eval "smallest.ini loads with the fingerprint of the smallest fitting point ($best)" \
  "[ -n '$fp' ] && [ \"\$('$TCPA' arch $d/smallest.ini --fingerprint)\" = '$fp' ]"
check_eval "each point's INI is in points/ under its fingerprint" \
  "[ \$(ls $d/points/*.ini | wc -l) -eq 4 ] && [ -s $d/points/\${fp#0x}.ini ]"
check_eval "pareto.svg is made (an SVG document drawn by gnuplot)" \
  "[ -s $d/pareto.svg ] && head -c 200 $d/pareto.svg | grep -q '<?xml' && grep -q '<svg' $d/pareto.svg && grep -q 'Pareto front' $d/pareto.svg"

# sensitivity.tsv, recomputed from points.tsv (cols $4, alu $5) and
# entries.tsv: for array.cols 1 -> 2 the entries gained, for pe.alu 1 -> 2
# the mean relative change of cycles of the entries fitting at both.
awk -F'\t' 'FNR == 1 { f++; next }
  f == 1 { cols[$1] = $4; alu[$1] = $5; next }
  f == 2 { st[$1, $2] = $4; cy[$1, $2] = $6; ent[$2] = 1; next }
  END {
    for (p in cols) for (q in cols) {
      if (cols[p] == 1 && cols[q] == 2 && alu[p] == alu[q])
        for (e in ent) if (st[p, e] != "ok" && st[q, e] == "ok") g++
      if (alu[p] == 1 && alu[q] == 2 && cols[p] == cols[q])
        for (e in ent) if (st[p, e] == "ok" && st[q, e] == "ok") { n++; s += 100 * (cy[q, e] - cy[p, e]) / cy[p, e] }
    }
    printf "%d %.2f\n", g, s / n }' $d/points.tsv $d/entries.tsv >$tmp/sens.want
awk -F'\t' '$1 == "array.cols" { g = $5 } $1 == "pe.alu" { c = $10 } END { print g, c }' $d/sensitivity.tsv >$tmp/sens.got
check_eval "sensitivity.tsv: entries gained by array.cols 1 -> 2 and pe.alu's cycle change, recomputed ($(cat $tmp/sens.got))" \
  "[ \$(wc -l <$d/sensitivity.tsv) -eq 3 ] && cmp -s $tmp/sens.want $tmp/sens.got"
check_eval "the sensitivity table is printed, array.cols relieving array_cols" \
  "grep -q '^sensitivity' $tmp/out1 && grep -qE '^  array.cols +1 -> 2 .* array_cols \\(' $tmp/out1"
# --budget: between the two fitting points' areas, below both
a3=$(awk -F'\t' '$6 == "3/3" { print $8 }' $d/points.tsv | sort -n | head -1)
"$TCPA" explore --workload $wl --space $sp --out $d --budget "$a3" >$tmp/outb 2>/dev/null; rc=$?
fpb=$(awk -F'\t' -v a="$a3" '$6 == "3/3" && $8 == a { print $2 }' $d/points.tsv)
check_eval "--budget $a3 (the smallest fitting area): fastest.ini is that point" \
  "[ $rc -eq 0 ] && grep -q '^fastest configuration within area $a3: point' $tmp/outb &&
   [ \"\$('$TCPA' arch $d/fastest.ini --fingerprint)\" = '$fpb' ]"
fpf=$(awk -F'\t' '$6 == "3/3"' $d/points.tsv | sort -t"$(printf '\t')" -k7,7n | head -1 | cut -f2)
"$TCPA" explore --workload $wl --space $sp --out $d --budget 1000000000 >$tmp/outb 2>/dev/null
check_eval "--budget above every area: fastest.ini is the point of fewest weighted cycles" \
  "[ \"\$('$TCPA' arch $d/fastest.ini --fingerprint)\" = '$fpf' ]"
"$TCPA" explore --workload $wl --space $sp --out $d --budget $((a3 - 1)) >$tmp/outb 2>/dev/null; rc=$?
check_eval "--budget below every fitting area: said, and no fastest.ini left" \
  "grep -q '^no point running every entry has an area of at most $((a3 - 1))' $tmp/outb && [ ! -e $d/fastest.ini ]"

# --search descent on regress/explore/large.space (25088 points, refused
# by brute force) with one entry: the answer runs it (tcpa run on the
# model), and no key can go one value lower: each key is at its list's
# minimum, or points.tsv has a point that does not fit with that key one
# value lower and every other key at least the answer's (so, resources
# being monotone, the answer's neighbour below does not fit either).
cp regress/programs/dotprod.pla $tmp/
printf 'dotprod.pla N=16 1x1 1\n' >$tmp/one.wl
"$TCPA" explore --workload $tmp/one.wl --space regress/explore/large.space --out $tmp/lg >$tmp/lg.out 2>$tmp/lg.err; rc=$?
check_eval "brute force on 25088 points exits 2 and points to --search descent" \
  "[ $rc -eq 2 ] && grep -q '25088 points; at most 20000 are evaluated by brute force (--search descent' $tmp/lg.err"
"$TCPA" explore --workload $tmp/one.wl --space regress/explore/large.space --out $tmp/lg -j 2 --search descent \
  >$tmp/lg.out 2>$tmp/lg.err; rc=$?
n=$(($(wc -l <$tmp/lg/points.tsv) - 1))
check_eval "--search descent answers with $n of 25088 points evaluated (at most 2 + 15 + 6 + 6 + 3 + 1 + 3)" \
  "[ $rc -eq 0 ] && [ $n -ge 7 ] && [ $n -le 36 ] && grep -q '^search (descent): $n of the space.s 25088 points' $tmp/lg.out"
"$TCPA" run regress/programs/dotprod.pla --arch $tmp/lg/smallest.ini --param N=16 --pes 1x1 --engine model \
  >$tmp/lg.run 2>&1
check "the search's smallest.ini runs the entry on the model (tcpa run: verdict pass)" $?
ans=$(awk -F'\t' 'NR > 1 && $9 == "1/1" { print $11, $0 }' $tmp/lg/points.tsv | sort -n | head -1 | cut -d' ' -f2-)
awk -F'\t' -v ans="$ans" 'BEGIN { split(ans, a, "\t"); split("1 2 2 1 1 1", lo, " ") }
  NR > 1 && $9 == "0/1" { for (c = 3; c <= 8; c++) if ($c == a[c] - 1) {
      above = 1; for (j = 3; j <= 8; j++) if (j != c && $j < a[j]) above = 0
      if (above) below[c] = 1 } }
  END {
    for (c = 3; c <= 8; c++)
      if (a[c] != lo[c - 2] && !below[c]) { print "key column " c " could go lower"; bad = 1 }
    exit bad }' $tmp/lg/points.tsv >$tmp/lg.min
check_eval "no key of the answer can go one value lower (a point above it with that key one lower does not fit)" \
  "[ -n '$ans' ] && [ ! -s $tmp/lg.min ]"

# --shard K/N and the launchers (docs/explore.md "Several hosts"): two
# shards evaluate disjoint halves into one cache, a run without --shard
# answers from it with the table of the plain run above; the same through
# scripts/regress-parallel.sh --explore and the batch files of
# scripts/regress-slurm.sh --explore (their tasks run here by hand)
for k in 1 2; do
  "$TCPA" explore --workload $wl --space $sp --out $tmp/sh --shard $k/2 >$tmp/sh$k.out 2>&1 || echo "shard $k exit $?" >>$tmp/sh.bad
done
"$TCPA" explore --workload $wl --space $sp --out $tmp/sh >$tmp/sh.out 2>$tmp/sh.err
check_eval "--shard 1/2 and 2/2: 2 points each; the answer after them evaluates none ($(tail -n 1 $tmp/sh1.out))" \
  "[ ! -e $tmp/sh.bad ] && grep -q '^explore: shard 1/2: 2 points evaluated' $tmp/sh1.out &&
   grep -q '^explore: shard 2/2: 2 points evaluated .* 2 cached before' $tmp/sh2.out &&
   grep -q '4 points, 4 cached' $tmp/sh.err && ! grep -q evaluated $tmp/sh.err &&
   cut -f1-9 $tmp/sh/points.tsv | cmp -s - <(cut -f1-9 $d/points.tsv)"
TCPA="$TCPA" bash scripts/regress-parallel.sh --explore -n 2 -- --workload $wl --space $sp --out $tmp/par \
  >$tmp/par.out 2>$tmp/par.err; rc=$?
check_eval "regress-parallel.sh --explore -n 2: exit $rc, the shards then the answer, same table" \
  "[ $rc -eq 0 ] && [ \$(grep -c 'shard [12]/2: 2 points evaluated' $tmp/par.out) -eq 2 ] &&
   cut -f1-9 $tmp/par/points.tsv | cmp -s - <(cut -f1-9 $d/points.tsv)"
TCPA="$TCPA" bash scripts/regress-slurm.sh --explore -n 2 -o $tmp/sl -- --workload $wl --space $sp --out $tmp/slx \
  >$tmp/sl.out 2>&1; rc=$?
for k in 1 2; do SLURM_ARRAY_TASK_ID=$k bash $tmp/sl/regress.sbatch >>$tmp/sl.tasks 2>&1 || echo "task $k" >>$tmp/sl.bad; done
bash $tmp/sl/merge.sbatch >$tmp/sl.merge 2>&1; rc2=$?
check_eval "regress-slurm.sh --explore: batch files whose tasks and merge give the same table (exit $rc, $rc2)" \
  "[ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ ! -e $tmp/sl.bad ] && grep -q -- '--shard \"\\\$k/2\"' $tmp/sl/regress.sbatch &&
   cut -f1-9 $tmp/slx/points.tsv | cmp -s - <(cut -f1-9 $d/points.tsv)"
"$TCPA" explore --workload $wl --space $sp --out $tmp/sh --shard 3/2 >/dev/null 2>$tmp/e1; r1=$?
"$TCPA" explore --workload $wl --space $sp --out $tmp/sh --shard 1/2 --search descent >/dev/null 2>$tmp/e2; r2=$?
check_eval "--shard 3/2 and --shard with --search exit 2 ($r1 $r2)" \
  "[ $r1 -eq 2 ] && [ $r2 -eq 2 ] && grep -q 'expected K/N' $tmp/e1"

cut -f1-9 $d/points.tsv >$tmp/points1
"$TCPA" explore --workload $wl --space $sp --out $d >$tmp/out2 2>$tmp/err2; rc=$?
check_eval "a rerun takes every point from the cache and gives the same table" \
  "[ $rc -eq 0 ] && grep -q '4 points, 4 cached' $tmp/err2 && grep -q '(4 from the cache)' $tmp/out2 &&
   ! grep -q 'evaluated' $tmp/err2 && cut -f1-9 $d/points.tsv | cmp -s - $tmp/points1"
printf '[array]\nrows = 1\ncols = 1..2\n[pe]\nalu = 1..3\n' >$tmp/wide.space
"$TCPA" explore --workload $wl --space $tmp/wide.space --out $d >$tmp/out3 2>$tmp/err3; rc=$?
check_eval "a widened space (6 points) reuses the 4 cached and evaluates 2" \
  "[ $rc -eq 0 ] && grep -q '6 points, 4 cached' $tmp/err3 && [ \$(grep -c 'evaluated' $tmp/err3) -eq 2 ] &&
   [ \$(awk -F'\t' '\$10 == \"yes\"' $d/points.tsv | wc -l) -eq 4 ]"
printf '[array]\nrows = 1\ncols = 1\n[pe]\nalu = 1,2\n' >$tmp/narrow.space
"$TCPA" explore --workload $wl --space $tmp/narrow.space --out $d >$tmp/out4 2>&1; rc=$?
check_eval "a space where no point runs every entry exits 3, no smallest.ini claimed" \
  "[ $rc -eq 3 ] && grep -q 'no point runs every entry' $tmp/out4 && [ ! -e $d/smallest.ini ]"

# invalid input: exit 2 with file:line. bad_input NAME FILE TEXT PATTERN:
# FILE (a .space or a .wl, written with printf TEXT) given to explore must
# exit 2 with a message on stderr matching the grep pattern PATTERN.
bad_input() {
  printf "$3" >"$tmp/$2"
  local w=$wl s=$sp
  case $2 in *.space) s=$tmp/$2 ;; *) w=$tmp/$2 ;; esac
  "$TCPA" explore --workload "$w" --space "$s" --out $d >/dev/null 2>$tmp/err; rc=$?
  check_eval "$1 exits 2 with file:line" "[ $rc -eq 2 ] && grep -q \"$4\" $tmp/err"
}
cp regress/programs/dotprod.pla $tmp/
bad_input "an unknown key in the space" bad.space '[array]\ncols = 1,2\n[pe]\nalus = 1,2\n' \
  'bad.space:4:1: error: unknown key .alus. in section \[pe\]'
bad_input "a value out of the key's range" range.space '[pe]\nalu = 0..2\n' 'range.space:2:'
bad_input "an empty range" rev.space '[pe]\nalu = 2..1\n' 'rev.space:2:7: error: pe.alu: range 2..: expected an upper bound'
bad_input "a bad region in the workload" bad.wl 'dotprod.pla N=16 1x1 1\ndotprod.pla N=16 1y1 1\n' \
  'bad.wl:2:18: error: region: expected RxC'
bad_input "an unknown parameter" param.wl 'dotprod.pla M=16 1x1 1\n' "param.wl:1: program 'dotprod' has no parameter 'M'"
"$TCPA" explore --space $sp >/dev/null 2>&1; rc=$?
check "a missing --workload exits 2" $([ $rc -eq 2 ]; echo $?)
exit $fail
