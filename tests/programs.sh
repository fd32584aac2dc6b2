#!/usr/bin/env bash
# covers: docs/language.md "The benchmark programs",
#   docs/user-guide.md "The benchmark programs and their checks"
# programs.sh: the benchmark programs of regress/programs/ against their
# independent plain-C implementations (tests/tools/refimpl.c).
#
# For each program: `tcpa check` must accept it; then, at several parameter
# sets (1, primes, odd sizes, more taps than samples, ...) and two seeds,
# `tcpa run --engine ref --out-dir TMP` must pass, and every output file it
# writes must hold the same numbers as refimpl computes from TMP/inputs/
# (compared value by value, whitespace and notation ignored). Also: inputs
# given with --in reproduce a run, hand-picked edge values (INT_MIN, zero
# divisors, saturation) agree, and parameters breaking a program's
# constraint are refused with exit status 2. Prints TAP lines.
#
# Environment: TCPA (default build/bin/tcpa), BUILD (default build),
# REFIMPL (default $BUILD/tests/tools/refimpl).
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
REFIMPL=${REFIMPL:-$BUILD/tests/tools/refimpl}
PROGS=regress/programs
tmp=$(mktemp -d); trap 'echo "1..$n"; rm -rf "$tmp"' EXIT  # the TAP plan, at the end
n=0
. "$(dirname "$0")/refcmp.sh"

# The parameter sets of each program, one quoted set per word.
declare -A SETS=(
  [bitextract]="'N=1' 'N=7' 'N=40'"
  [fir]="'N=1 T=1' 'N=13 T=5' 'N=7 T=11' 'N=20 T=3'"
  [matmul]="'N=1 M=1 K=1' 'N=7 M=5 K=3' 'N=13 M=1 K=9' 'N=4 M=11 K=2'"
  [conv]="'CO=1 R=1 C=1 CI=1 KR=1 KC=1' 'CO=2 R=5 C=3 CI=3 KR=3 KC=2' 'CO=3 R=4 C=7 CI=2 KR=1 KC=3' 'CO=1 R=3 C=2 CI=1 KR=5 KC=5'"
  [trimv]="'N=1' 'N=7' 'N=13'"
  [maxpool]="'R=1 C=1' 'R=3 C=5' 'R=7 C=2'"
  [dotprod]="'N=1' 'N=7' 'N=31'"
  [jacobi]="'T=1 N=3' 'T=5 N=7' 'T=13 N=11' 'T=2 N=4'"
  [gcd]="'N=1 S=1' 'N=7 S=5' 'N=13 S=47'"
  [editdist]="'N=1 M=1' 'N=7 M=5' 'N=13 M=13' 'N=2 M=9'"
  [satarith]="'N=1' 'N=7' 'N=13'"
  [band]="'N=1 W=1' 'N=7 W=2' 'N=13 W=1' 'N=5 W=9' 'N=11 W=10'"
)
PROGRAMS=(bitextract fir matmul conv trimv maxpool dotprod jacobi gcd editdist satarith band)
SEEDS=(1 2)

# Prints a TAP line for test `name`: ok when $1 is 0.
tap() {
  n=$((n + 1))
  if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# Prints `--param A=1 --param B=2` for the set "A=1 B=2".
param_args() {
  local p
  for p in $1; do printf -- '--param %s ' "$p"; done
}

# compare_dirs GOT WANT: ref_outputs_compare (tests/refcmp.sh) with $REFIMPL.
compare_dirs() { ref_outputs_compare "$REFIMPL" "$1" "$2"; }

# Runs program $1 with parameter set $2 and seed $3 (extra tcpa arguments
# after), checks it against refimpl; returns 0 on agreement.
run_case() {
  local prog=$1 ps=$2 seed=$3; shift 3
  local dir="$tmp/run" want="$tmp/want"
  rm -rf "$dir" "$want"; mkdir -p "$want"
  # shellcheck disable=SC2046
  timeout 60 "$TCPA" run "$PROGS/$prog.pla" --engine ref $(param_args "$ps") \
      --seed "$seed" --out-dir "$dir" "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "#   tcpa run exited with status $rc:"; head -n 5 "$tmp/out" | sed 's/^/#     /'
    return 1
  fi
  if ! grep -q '"status" *: *"pass"' "$dir/summary.json" 2>/dev/null; then
    echo "#   summary.json missing or its status is not \"pass\""; return 1
  fi
  # shellcheck disable=SC2046
  if ! "$REFIMPL" "$prog" $(param_args "$ps") --in-dir "$dir/inputs" --out-dir "$want" \
      >"$tmp/out" 2>&1; then
    echo "#   refimpl failed:"; head -n 5 "$tmp/out" | sed 's/^/#     /'
    return 1
  fi
  compare_dirs "$dir" "$want"
}

if [ ! -x "$REFIMPL" ]; then
  echo "not ok 1 - refimpl not built ($REFIMPL): run make $REFIMPL"
  exit 1
fi

# 1. Every program passes the rule checks.
for prog in "${PROGRAMS[@]}"; do
  timeout 60 "$TCPA" check "$PROGS/$prog.pla" >"$tmp/out" 2>&1; rc=$?
  [ $rc -ne 0 ] && head -n 8 "$tmp/out" | sed 's/^/#   /'
  tap $rc "check $prog.pla"
done

# 2. Every program, every parameter set, two seeds, against refimpl.
for prog in "${PROGRAMS[@]}"; do
  eval "sets=(${SETS[$prog]})"
  for ps in "${sets[@]}"; do
    for seed in "${SEEDS[@]}"; do
      run_case "$prog" "$ps" "$seed"; tap $? "$prog $ps seed $seed"
    done
  done
done

# 3. Inputs given with --in reproduce the random run they came from.
rm -rf "$tmp/first" && mkdir -p "$tmp/first"
if timeout 60 "$TCPA" run "$PROGS/matmul.pla" --engine ref --param N=5 --param M=3 --param K=7 \
    --seed 9 --out-dir "$tmp/first" >/dev/null 2>&1; then
  cp -r "$tmp/first/inputs" "$tmp/given"
  run_case matmul "N=5 M=3 K=7" 4 --in "A=$tmp/given/A.txt" --in "B=$tmp/given/B.txt"; rc=$?
  if [ $rc -eq 0 ] && ! diff <("$REFIMPL" --normalize "$tmp/first/C.txt") \
      <("$REFIMPL" --normalize "$tmp/run/C.txt") >/dev/null; then
    echo "#   C differs from the run the inputs came from"; rc=1
  fi
else
  rc=1
fi
tap $rc "matmul N=5 M=3 K=7: --in files reproduce the run of seed 9"

# 4. Edge values given with --in (hex and decimal): INT_MIN, INT_MAX, zeros.
edge="$tmp/edge"; mkdir -p "$edge"
printf '0x7fffffff -2147483648 -1 0 5 0x80000000 2147483647\n' >"$edge/a.txt"
printf '1 -1 -2147483648 0 -7 -0x80000000 0x7fffffff\n' >"$edge/b.txt"
echo 33 >"$edge/sh.txt"; echo -10 >"$edge/lo.txt"; echo 100 >"$edge/hi.txt"
run_case satarith "N=7" 1 --in "a=$edge/a.txt" --in "b=$edge/b.txt" --in "sh=$edge/sh.txt" \
  --in "lo=$edge/lo.txt" --in "hi=$edge/hi.txt"
tap $? "satarith N=7 edge values (saturation both ways, shift by 33)"
run_case gcd "N=7 S=6" 1 --in "a=$edge/a.txt" --in "b=$edge/b.txt"
tap $? "gcd N=7 S=6 edge values (INT_MIN, zero divisors)"
run_case dotprod "N=7" 1 --in "a=$edge/a.txt" --in "b=$edge/b.txt"
tap $? "dotprod N=7 edge values (abs of INT_MIN, wrap-around)"
printf '%s\n' -2147483648 2147483647 2147483647 -2147483648 -1 1 -7 >"$edge/x.txt"
run_case jacobi "T=4 N=7" 1 --in "x=$edge/x.txt"
tap $? "jacobi T=4 N=7 edge values (wrapping sums, negative quotients)"

# 5. Parameters outside a program's constraints are refused (exit 2).
timeout 60 "$TCPA" run "$PROGS/jacobi.pla" --engine ref --param T=3 --param N=2 \
  --out-dir "$tmp/bad" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ]; tap $? "jacobi N=2 refused by N >= 3 (exit $rc, want 2)"
timeout 60 "$TCPA" run "$PROGS/fir.pla" --engine ref --param N=0 --param T=3 \
  --out-dir "$tmp/bad" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ]; tap $? "fir N=0 refused, parameters are >= 1 (exit $rc, want 2)"
