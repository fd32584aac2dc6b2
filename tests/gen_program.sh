#!/usr/bin/env bash
# covers: docs/fuzz.md "Random programs",
#   docs/user-guide.md "Random programs"
# gen_program.sh: random valid loop programs through the whole flow
# (`tcpa gen program`, regress/gen_program.c, regress/gen_run.c;
# docs/fuzz.md "Random programs").
#
# Fast tier: the same seed prints the same text, with its seed and its
# `// params:` line, on stdout and with -o; 12 seeds through check, the
# reference and the C model on the embedded configs/default.ini, region
# 1x2: none may FAIL (a program check rejects is a generator bug, a
# mismatch an engine bug), the fraction that fits is printed; 4 seeds in
# cosim on 1x1 (1-D to 4-D, all fit; the default harness, built once by `tcpa harness`); the
# shrinker, end to end: a wrapper of tcpa ($TCPA_GEN_SELF) whose model
# "miscomputes" every program with `>>`, so the runner must report FAIL,
# shrink, and leave a smaller min.pla that still has `>>` and a repro.sh;
# `--values` on seeds 1-12 (the operand value classes reached, each missed
# one named) and `tcpa run --inputs edge`'s inputs;
# one test per bug the generator found (docs/fuzz.md).
# Full tier: 100 seeds on random configurations (tcpa gen arch) and
# regions, 60 on the default 1x2 (nightly tier: 400 and 200, docs/testing.md
# "The nightly campaigns"); the cosim seeds of the full tier are
# tests/gen_program_cosim.sh's (run beside this script).
# Seeds fixed; GEN_SEEDS=A-B runs those in the fast part instead.
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
. tests/tap.sh
tcpa_abs=$(cd "$(dirname "$TCPA")" && pwd)/$(basename "$TCPA")


# -- the same seed, the same text ------------------------------------------
"$TCPA" gen program --seed 7 >"$tmp/a.pla"; st=$?
"$TCPA" gen program --seed 7 -o "$tmp/b.pla"; st2=$?
check_eval "gen program --seed 7 prints a program, twice the same (stdout and -o)" \
  '[ $st -eq 0 ] && [ $st2 -eq 0 ] && [ -s "$tmp/a.pla" ] && cmp -s "$tmp/a.pla" "$tmp/b.pla"'
check_eval "the text names its seed and its parameters" \
  'grep -q "^// tcpa gen program --seed 7:" "$tmp/a.pla" && grep -Eq "^// params:( [A-Z]=[0-9]+)+$" "$tmp/a.pla"'
"$TCPA" gen program --seed 8 >"$tmp/c.pla"
check_eval "another seed, another program" '! cmp -s "$tmp/a.pla" "$tmp/c.pla"'
"$TCPA" check "$tmp/a.pla" >"$tmp/check.log" 2>&1
check "tcpa check accepts it" $?
"$TCPA" gen program --seeds 5-3 >/dev/null 2>&1; st=$?
check_eval "--seeds 5-3 is a bad option (exit 2)" '[ $st -eq 2 ]'
"$TCPA" gen program >/dev/null 2>&1; st=$?
check_eval "no seed is a bad option (exit 2)" '[ $st -eq 2 ]'

# -- seeds through the flow -------------------------------------------------
# the fast tier 12 seeds a run (the full tier's runs below have 200 and 400)
run_seeds "seeds ${GEN_SEEDS:-1-12}, model, default.ini 1x2" --seeds "${GEN_SEEDS:-1-12}" --pes 1x2
fits=$(tail -n 1 "$tmp/run.$((n - 1)).log" 2>/dev/null)
check_eval "some seeds fit and pass ($fits)" '[ "$(echo "$fits" | sed -n "s/.*: \([0-9]*\) pass.*/\1/p")" -gt 0 ]'

# operand values: the runs' inputs biased to zero and the extremes
# (tcpa run --inputs edge), operators drawn by class, operand constants:
# seeds 1-12 on 1x2 reach 64 of default.ini's 101 value classes (the FUs
# of a kind together; before the bias, 30 seeds reached 54); each missed
# class named, exit 1 while one is missed
nice "$TCPA" gen program --check --seeds 1-12 --pes 1x2 --values --out-dir "$tmp/vals" >"$tmp/vals.log" 2>&1; st=$?
vhit=$(sed -n 's/^value coverage: \([0-9]*\) of \([0-9]*\) value classes hit over [0-9]* runs.*/\1 \2/p' "$tmp/vals.log")
read -r vh va _ <<<"$vhit 0 0"
check_eval "--values: seeds 1-12 reach at least 60 of 101 value classes ($vh of $va), each missed one named, exit 1" \
  '[ "$va" -eq 101 ] && [ "$vh" -ge 60 ] && [ $(grep -c "^missed: value\.[a-z]*\.[a-z]*\." "$tmp/vals.log") -eq $((va - vh)) ] &&
   [ $st -eq 1 ] && ! grep -q ": FAIL:" "$tmp/vals.log"'
grep -q "^missed: value.alu[0-9]" "$tmp/vals.log" && echo "# a value class named by FU, not by kind"
check_eval "--values: the classes by FU kind (value.alu.CLASS..., no FU number)" '! grep -q "^missed: value\.[a-z]*[0-9]" "$tmp/vals.log"'
"$TCPA" gen program --seeds 1-2 --values >/dev/null 2>&1; st=$?
check_eval "--values without --check is a bad option (exit 2)" '[ $st -eq 2 ]'
printf '%s\n' 'program cp(N) {' '  in int32 A[N];' '  out int32 O[N];' '  par (0 <= i < N) {' '    O[i] = A[i];' '  }' '}' \
  >"$tmp/cp.pla"
"$TCPA" run "$tmp/cp.pla" --param N=2 --engine ref --inputs wide >/dev/null 2>&1; st=$?
"$TCPA" run "$tmp/cp.pla" --param N=200 --engine ref --inputs edge --out-dir "$tmp/cp" >/dev/null 2>&1; st2=$?
"$TCPA" run "$tmp/cp.pla" --param N=200 --engine ref --out-dir "$tmp/cpu" >/dev/null 2>&1
ins=$(tr -s ' \n' '\n' <"$tmp/cp/inputs/A.txt" | grep -v '^#' | grep -cxE -- '0|1|-1|-2147483648|2147483647')
each=0
for v in 0 1 -1 -2147483648 2147483647; do grep -qw -- "$v" "$tmp/cp/inputs/A.txt" && each=$((each + 1)); done
check_eval "tcpa run --inputs edge: half the inputs 0, 1, -1 or the extremes ($ins of 200), each there; uniform: in [-1000, 1000]; a bad distribution exit 2" \
  '[ $st -eq 2 ] && [ $st2 -eq 0 ] && [ "$ins" -ge 70 ] && [ "$ins" -le 130 ] &&
   [ $each -eq 5 ] &&
   [ -z "$(tr -s " \n" "\n" <"$tmp/cpu/inputs/A.txt" | grep -v "^#" | awk "\$1 < -1000 || \$1 > 1000")" ]'

run_seeds "seeds 34000-34004, model, default.ini 2x2, --random-map" --seeds 34000-34004 --pes 2x2 --random-map
maplog="$tmp/run.$((n - 1)).log"
check_eval "--random-map tiles other dimensions on 2x2 (map 1,0 or a dimension 2)" \
  'grep -Eq "model 2x2 map ([1-3],0|[0-3],[2-3])" "$maplog"'

RTL=$(harness 2>"$tmp/harness.log"); st=$?
if [ $st -ne 0 ]; then
  unbuilt "gen program in cosim"
else
  run_seeds "seeds 10-13, cosim, default.ini 1x1" --seeds 10-13 --engine cosim --pes 1x1
fi

# -- the shrinker, end to end -----------------------------------------------
cat >"$tmp/fake.sh" <<EOF
#!/usr/bin/env bash
# a tcpa whose model fails every program with an arithmetic shift right
if [ "\$1" = run ] && grep -q ' >> ' "\$2" && printf '%s\n' "\$@" | grep -qx model; then
  echo "tcpa: error: model: fake mismatch on >>" >&2; exit 1
fi
exec "$tcpa_abs" "\$@"
EOF
chmod +x "$tmp/fake.sh"
seed=""
for s in $(seq 1 60); do # the first seed whose program has a `>>`
  "$TCPA" gen program --seed "$s" | grep -q ' >> ' && { seed=$s; break; }
done
TCPA_GEN_SELF="$tmp/fake.sh" "$TCPA" gen program --check --seeds "$seed" --pes 1x1 \
  --out-dir "$tmp/shrink" >"$tmp/shrink.log" 2>&1; st=$?
d="$tmp/shrink/seed$seed"
check_eval "a failing seed ($seed) is reported FAIL (exit 1) and shrunk" \
  '[ $st -eq 1 ] && grep -q "FAIL: engine model exit 1" "$tmp/shrink.log" && grep -q "shrunk in" "$tmp/shrink.log"'
check_eval "min.pla is smaller than prog.pla, still has >>, passes check" \
  '[ $(wc -c <"$d/min.pla") -lt $(wc -c <"$d/prog.pla") ] && grep -q " >> " "$d/min.pla" && "$TCPA" check "$d/min.pla" >/dev/null 2>&1'
TCPA="$tmp/fake.sh" sh "$d/repro.sh" >/dev/null 2>&1; st=$?
check_eval "repro.sh shows the failure (exit 1)" '[ $st -eq 1 ]'
sed -n 's/^/# /p' "$tmp/shrink.log" | head -3

# -- bugs the generator found (docs/fuzz.md "Random programs") ---------------
# 1. An instruction has one immediate: `3 + 1` computed 1 + 1 (seed 28).
printf '%s\n' 'program lit2(N) {' '  out int32 o;' '  par (0 <= i < N) {' \
  '    v[i] = (3 + 1) + (7 << 2);' '    w[i] = (v[i] > 5) ? 10 : (-3);' '    o = w[i] - v[i] if (i == N - 1);' \
  '  }' '}' >"$tmp/lit2.pla"
"$TCPA" run "$tmp/lit2.pla" --param N=2 --engine model >"$tmp/lit2.log" 2>&1
check "two different literals in one operation (3 + 1, c ? 10 : -3) on the model" $?
#    The benchmark satarith had it latent: `a[i] < 0 ? 0x80000000 : 0x7fffffff`
#    saturated to one value for both signs (random inputs never overflow).
printf '2147483647 -2147483648 5 2000000000\n' >"$tmp/sa.txt"
printf '1 -1 5 2000000000\n' >"$tmp/sb.txt"
"$TCPA" run regress/programs/satarith.pla --arch configs/big1d.ini --param N=4 --in a="$tmp/sa.txt" \
  --in b="$tmp/sb.txt" --engine model --out-dir "$tmp/sat" >"$tmp/sat.log" 2>&1; st=$?
check_eval "satarith saturates both ways on the model (exit $st: $(cat "$tmp/sat/sat.txt" 2>/dev/null))" \
  '[ $st -eq 0 ] && [ "$(tr -s " \n" " " <"$tmp/sat/sat.txt")" = "2147483647 -2147483648 10 2147483647 " ]'
# 2. A branch to the FU's `nop ; halt` word: done one cycle after the
#    schedule's prediction (seed 65, N=3 on 1x2).
printf '%s\n' 'program late(N) {' '  out int32 o;' '  par (0 <= i < N) {' '    v[i] = v[i-1] if (i >= 1);' \
  '    v[i] = 0 if (i <= 0);' '    o = v[i] if (i == 0);' '  }' '}' >"$tmp/late.pla"
for pr in "3 1x2" "5 1x3" "8 1x2"; do
  set -- $pr
  "$TCPA" run "$tmp/late.pla" --param N=$1 --pes $2 --engine model >"$tmp/late.log" 2>&1
  check "halt reached by a branch: done as predicted (N=$1, $2)" $?
done

# 3. Two pieces of one fd value (a multiply and an ALU op) written II or
#    more cycles apart: wconflict faults with 4 ALUs (seed 1194 on a random
#    configuration, shrunk; now aligned, or a larger II).
printf '%s\n' 'program g1194(N, M) {' '  out int32 O0[N, N, M];' \
  '  par (0 <= i < N, 0 <= j < N, 0 <= k < M, i <= l < N) {' \
  '    v0[i,j,k,l] = (max(0, 1) < 0);' '    v1[i,j,k,l] = (v0[i,j,k,l] * v1[i,j,k,l-1]) if (i - l <= -1);' \
  '    v1[i,j,k,l] = (max(0, 1) < 0) if (i - l >= 0);' '    O0[N-i-1,j,k] = 0 if (l == N - 1);' '  }' '}' >"$tmp/fd.pla"
printf '[pe]\nalu = 4\nrd = 32\nimem = 128\n' >"$tmp/alu4.ini"
"$TCPA" run "$tmp/fd.pla" --param N=3 --param M=1 --arch "$tmp/alu4.ini" --engine model >"$tmp/fd.log" 2>&1
check "the pieces of an fd value write less than II apart (no wconflict)" $?
# 4. A value read at two fd distances and nowhere in an rd (v1[i-1] and
#    v1[i-2]): the producer wrote one fd and a copy read its rd, the other
#    fd was never written (seeds 20371 and 21275, shrunk to 5 equations).
printf '%s\n' 'program g20371(N) {' '  out int32 O0;' '  par (0 <= i < N) {' '    v0[i] = v1[i-2] if (i >= 2);' \
  '    v0[i] = 0 if (i <= 1);' '    v1[i] = v1[i-1] if (i >= 1);' '    v1[i] = 1 if (i <= 0);' \
  '    O0 = v0[i] if (i == N - 1);' '  }' '}' >"$tmp/fd2.pla"
for pr in "3 1x1" "4 1x1"; do
  set -- $pr
  "$TCPA" run "$tmp/fd2.pla" --param N=$1 --pes $2 --engine model >"$tmp/fd2.log" 2>&1
  check "a value read at two fd distances (N=$1, $2)" $?
done
# 5. A mov of a literal forwarded to a reader with a literal of its own:
#    `add od1, #1, #1` for v0 + 1 where v0 = 0 (seeds 30095, 34155, 34225,
#    32062, shrunk to 3 equations; one immediate per instruction).
printf '%s\n' 'program g34155(N) {' '  out int32 O0[N];' '  par (0 <= i < N) {' '    v0[i] = v0[i-1] if (i >= 1);' \
  '    v0[i] = 0 if (i <= 0);' '    O0[i] = (v0[i] + 1);' '  }' '}' >"$tmp/imm2.pla"
for pr in "1 1x1" "3 1x1" "4 1x2"; do
  set -- $pr
  "$TCPA" run "$tmp/imm2.pla" --param N=$1 --pes $2 --engine model --out-dir "$tmp/imm2.out" >"$tmp/imm2.log" 2>&1
  check "a forwarded literal beside the reader's own (N=$1, $2)" $?
done

if nightly_tier; then
  run_seeds "seeds 1000-1399, model, random configurations and regions" --seeds 1000-1399 --arch random
  run_seeds "seeds 2000-2199, model, default.ini 1x2" --seeds 2000-2199 --pes 1x2
elif full_tier; then
  run_seeds "seeds 1000-1059, model, random configurations and regions" --seeds 1000-1059 --arch random
  run_seeds "seeds 2000-2039, model, default.ini 1x2" --seeds 2000-2039 --pes 1x2
fi
exit $fail
