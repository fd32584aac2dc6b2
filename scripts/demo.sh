#!/usr/bin/env bash
# demo.sh: the main job of `make demo`. Runs every benchmark program of
# regress/programs/ through `tcpa check` and `tcpa run --engine ref` on
# configs/default.ini at a representative parameter set, checks the outputs
# against the independent plain-C implementations (tests/tools/refimpl.c,
# built here if missing), and prints a table: program, parameters,
# iteration-space dimensions, equations, equation instances evaluated,
# interpreter time, verdict. Exits non-zero when any benchmark fails.
#
# Environment: BUILD (default build), TCPA (default $BUILD/bin/tcpa),
# ARCH (default configs/default.ini).
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
ARCH=${ARCH:-configs/default.ini}
REFIMPL=$BUILD/tests/tools/refimpl
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# program and parameter set, in the order of the table
CASES=(
  "bitextract|N=32"
  "fir|N=64 T=16"
  "matmul|N=16 M=16 K=16"
  "conv|CO=4 R=8 C=8 CI=3 KR=3 KC=3"
  "trimv|N=48"
  "maxpool|R=16 C=16"
  "dotprod|N=256"
  "jacobi|T=32 N=64"
  "gcd|N=64 S=48"
  "editdist|N=40 M=33"
  "satarith|N=256"
  "band|N=100 W=7"
)

# Prints the number after "KEY": in the JSON file $1 (empty when absent).
json_num() {
  grep -o "\"$2\" *: *[-0-9.eE+]*" "$1" 2>/dev/null | head -n 1 | sed 's/.*: *//'
}

# Returns 0 when every output refimpl computes from $1/inputs equals the
# file tcpa wrote to $1 (program $2, parameter arguments after).
refimpl_agrees() {
  local dir=$1 prog=$2 f; shift 2
  rm -rf "$tmp/want"; mkdir -p "$tmp/want"
  "$REFIMPL" "$prog" "$@" --in-dir "$dir/inputs" --out-dir "$tmp/want" >/dev/null 2>&1 || return 1
  for f in "$tmp/want"/*.txt; do
    cmp -s <("$REFIMPL" --normalize "$f") <("$REFIMPL" --normalize "$dir/$(basename "$f")" 2>/dev/null) \
      || return 1
  done
}

[ -x "$TCPA" ] || { echo "demo: $TCPA is not built (run make)" >&2; exit 2; }
[ -x "$REFIMPL" ] || make -s BUILD="$BUILD" "$REFIMPL" >/dev/null 2>&1 || { echo "demo: cannot build $REFIMPL" >&2; exit 2; }

echo "Reference interpreter on every benchmark (arch $ARCH, seed 1);"
echo "outputs checked against independent plain-C implementations."
echo
fmt="%-11s %-31s %4s %4s %10s %9s  %s\n"
printf "$fmt" program params dims eqs instances time verdict
printf "$fmt" ----------- ------------------------------- ---- ---- ---------- --------- -------
failed=0
for c in "${CASES[@]}"; do
  prog=${c%%|*} ps=${c#*|}
  args=(); for p in $ps; do args+=(--param "$p"); done
  dims=- eqs=- inst=- secs=- verdict=pass
  if ! line=$("$TCPA" check "regress/programs/$prog.pla" 2>"$tmp/err"); then
    verdict="FAIL (check: $(head -n 1 "$tmp/err"))"
  else
    eqs=$(sed -n 's/.*OK (\([0-9]*\) equation.*/\1/p' <<<"$line")
    dims=$(sed -n 's/.* \([0-9]*\)-D iteration space.*/\1/p' <<<"$line")
    dir="$tmp/$prog"
    "$TCPA" run "regress/programs/$prog.pla" --arch "$ARCH" --engine ref "${args[@]}" \
      --seed 1 --out-dir "$dir" >/dev/null 2>"$tmp/err"; rc=$?
    inst=$(json_num "$dir/summary.json" instances)
    s=$(json_num "$dir/summary.json" ref_seconds)
    [ -n "$s" ] && secs=$(awk -v s="$s" 'BEGIN { printf "%.0f us", s * 1e6 }')
    if [ $rc -ne 0 ]; then
      verdict="FAIL (tcpa run exit $rc: $(head -n 1 "$tmp/err"))"
    elif ! grep -q '"status" *: *"pass"' "$dir/summary.json" 2>/dev/null; then
      verdict="FAIL (summary.json status is not pass)"
    elif ! refimpl_agrees "$dir" "$prog" "${args[@]}"; then
      verdict="FAIL (differs from refimpl)"
    fi
  fi
  [ "$verdict" = pass ] || failed=$((failed + 1))
  printf "$fmt" "$prog" "$ps" "${dims:--}" "${eqs:--}" "${inst:--}" "$secs" "$verdict"
done
echo
if [ $failed -eq 0 ]; then
  echo "demo: all ${#CASES[@]} benchmarks pass"
else
  echo "demo: $failed of ${#CASES[@]} benchmarks FAILED"
  exit 1
fi
