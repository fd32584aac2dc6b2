#!/usr/bin/env bash
# bench.sh: `make bench`. First the speed of the reference interpreter, as
# a table; then the paper's Tables 1 and 2 on this flow
# (scripts/bench_tables.sh), the processor classes of every benchmark on
# 1-D and 2-D regions (scripts/bench_classes.sh), the mapping-quality table
# (scripts/bench_quality.sh), the fit table (scripts/bench_fit.sh), the
# compile-time table (scripts/bench_compile.sh) and the simulator-speed
# table (scripts/bench_speed.sh) and the several-regions table
# (scripts/bench_regions.sh). The interpreter table: runs each
# benchmark program through `tcpa run --engine ref` at a size large enough
# to time, reads `instances` (equation instances evaluated) and
# `ref_seconds` (the evaluation's wall time) from summary.json, and prints
# instances per second. A benchmark, never an assertion: it exits 0 however
# slow the interpreter is (non-zero only when a run itself fails).
#
# Environment: BUILD (default build), TCPA (default $BUILD/bin/tcpa),
# REPEAT (runs per row, the fastest is kept; default 3); the other scripts
# read the same BUILD and TCPA.
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
REPEAT=${REPEAT:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# program|parameters|goal (instances/s, empty for none)
CASES=(
  "matmul|N=64 M=64 K=64|5e6"
  "matmul|N=32 M=32 K=32|"
  "conv|CO=16 R=32 C=32 CI=4 KR=3 KC=3|"
  "fir|N=16384 T=64|"
  "trimv|N=1024|"
  "maxpool|R=256 C=256|"
  "jacobi|T=512 N=2048|"
  "gcd|N=4096 S=64|"
  "editdist|N=1024 M=1024|"
  "dotprod|N=1000000|"
  "satarith|N=1000000|"
  "bitextract|N=1000000|"
  "band|N=4096 W=64|"
)

# Prints the number after "KEY": in the JSON file $1 (empty when absent).
json_num() {
  grep -o "\"$2\" *: *[-0-9.eE+]*" "$1" 2>/dev/null | head -n 1 | sed 's/.*: *//'
}

[ -x "$TCPA" ] || { echo "bench: $TCPA is not built (run make)" >&2; exit 2; }
echo "Reference interpreter speed (tcpa run --engine ref; best of $REPEAT runs)"
echo
fmt="%-11s %-30s %12s %10s %14s  %s\n"
printf "$fmt" program params instances seconds "instances/s" goal
printf "$fmt" ----------- ------------------------------ ------------ ---------- -------------- ----
status=0
for c in "${CASES[@]}"; do
  IFS='|' read -r prog ps goal <<<"$c"
  args=(); for p in $ps; do args+=(--param "$p"); done
  best= inst=
  for ((k = 0; k < REPEAT; k++)); do
    rm -rf "$tmp/run"
    if ! "$TCPA" run "regress/programs/$prog.pla" --engine ref "${args[@]}" --seed 1 \
        --out-dir "$tmp/run" >/dev/null 2>"$tmp/err"; then
      echo "bench: $prog $ps failed: $(head -n 1 "$tmp/err")" >&2; status=1; best=; break
    fi
    inst=$(json_num "$tmp/run/summary.json" instances)
    s=$(json_num "$tmp/run/summary.json" ref_seconds)
    [ -n "$s" ] && { [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; } && best=$s
  done
  if [ -z "$best" ] || [ -z "$inst" ]; then
    printf "$fmt" "$prog" "$ps" - - - "${goal:+goal: >= $goal instances/s}"
    continue
  fi
  rate=$(awk -v n="$inst" -v s="$best" 'BEGIN { if (s > 0) printf "%.3g", n / s; else print "inf" }')
  note=
  if [ -n "$goal" ]; then
    met=$(awk -v r="$rate" -v g="$goal" 'BEGIN { print (r == "inf" || r + 0 >= g + 0) ? "met" : "NOT met" }')
    note="goal: >= $goal instances/s ($met)"
  fi
  printf "$fmt" "$prog" "$ps" "$inst" "$(awk -v s="$best" 'BEGIN { printf "%.4f", s }')" "$rate" "$note"
done
for t in scripts/bench_tables.sh scripts/bench_classes.sh scripts/bench_quality.sh scripts/bench_fit.sh scripts/bench_compile.sh \
    scripts/bench_speed.sh scripts/bench_regions.sh; do
  [ -f "$t" ] || continue
  echo
  BUILD=$BUILD TCPA=$TCPA bash "$t" || status=1
done
exit $status
