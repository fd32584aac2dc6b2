#!/usr/bin/env bash
# run.sh: runs every test of the project and prints the closing line
# `N passed, N failed, N skipped`. Each test program (the unit tests in $BUILD/tests,
# the scripts tests/*.sh) prints TAP lines (`ok ...`, `not ok ...`); this
# script counts them. A test program that exits non-zero without a failing
# line counts as one failure of its own.
set -u
BUILD=${BUILD:-build}
export BUILD TCPA="$PWD/$BUILD/bin/tcpa"
passed=0 failed=0 skipped=0
log=$(mktemp); trap 'rm -f "$log"' EXIT

# Runs one test program, echoes its output, and adds up its verdicts.
run_one() {
  local name=$1; shift
  echo "# $name"
  "$@" >"$log" 2>&1; local rc=$?
  cat "$log"
  local p f s
  s=$(grep -Ec '^ok .*# (SKIP|skip)' "$log")
  p=$(( $(grep -c '^ok ' "$log") - s )); f=$(grep -c '^not ok ' "$log")
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "not ok - $name exited with status $rc"; f=1
  fi
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
}

for t in "$BUILD"/tests/test_*; do
  [ -x "$t" ] && run_one "$(basename "$t")" "$t"
done
for t in tests/*.sh; do
  case "$(basename "$t")" in run.sh | tap.sh) continue ;; esac
  run_one "$(basename "$t")" bash "$t"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
