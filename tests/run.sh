#!/usr/bin/env bash
# run.sh: runs the tests of one tier and prints, at the end, the ten
# slowest test programs, every skip with its reason, and the closing line
# `N passed, N failed, N skipped` (docs/testing.md).
#
#   tests/run.sh [-j N] [PATTERN...]
#
# The test programs are the unit tests ($BUILD/tests/test_*) and the
# scripts tests/*.sh. Each prints TAP: a plan line `1..N` and one line
# `ok N - ...` or `not ok N - ...` per check (`prove -j2` runs them too).
# PATTERN (a shell glob on the program's name, e.g. 'engine*' or
# 'test_map*') runs a subset. TCPA_TIER selects the tier: `fast` (make
# test), `full` (make test-full) or `nightly` (make nightly: the full tier
# and the long campaigns); a script with a `# tier: full` header line runs
# in the full and nightly tiers only, one with `# tier: nightly` in the
# nightly tier only, the others run the parts of their tier (tests/tap.sh,
# full_tier, nightly_tier).
#
# Shards: a script with a `# shards: N` header line runs, in the full and
# nightly tiers, as N programs NAME.sh:1 .. NAME.sh:N side by side, each
# with TCPA_SHARD=K and TCPA_SHARDS=N in its environment: each takes its
# part of the script's campaigns (tap.sh: shard_range, mine, first_shard).
# The programs start longest first, by the times of the tier's last run
# ($BUILD/test-times.TIER, written at the end: one `SECONDS NAME` a line;
# a program not in it counts as long), so that the long ones do not start
# last; the outputs are printed in that order. -j N (default: the number of cores) runs N programs at a time;
# their outputs are printed whole, one program after the other, with each
# program's time. A program that exits non-zero without a failing line, or
# prints no plan, counts as one failure of its own. A skip is allowed only
# for a tool the machine lacks (tests/tap.sh, `skip`).
#
# Only the TAP (standard output) reaches the console: a program's standard
# error, where the negative tests' expected `error:` messages go, is kept
# in $BUILD/test-logs/NAME.log, and its last lines are printed when the
# program fails. A script that calls a command which does not exist (an
# undefined helper) fails: bash runs the exported command_not_found_handle
# below for it, in every bash script the runner starts.
set -u
BUILD=${BUILD:-build}
export BUILD TCPA="$PWD/$BUILD/bin/tcpa" TCPA_TIER=${TCPA_TIER:-fast}
jobs=$(nproc 2>/dev/null || echo 2)
if [ "${1:-}" = -j ]; then jobs=$2; shift 2; fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
logs=$BUILD/test-logs; mkdir -p "$logs"

# Records the command $1 a test called that does not exist in
# $TCPA_TEST_MISSING (the runner's file for that program); returns 127, as
# bash does.
command_not_found_handle() {
  echo "$1 (${BASH_SOURCE[1]:-?}:${BASH_LINENO[0]})" >>"${TCPA_TEST_MISSING:-/dev/null}"
  echo "bash: $1: command not found" >&2
  return 127
}
export -f command_not_found_handle

# Returns 0 when test program name $1 matches one of the patterns (all
# match when none is given).
selected() {
  [ $# -le 1 ] && return 0
  local name=$1 p; shift
  for p in "$@"; do
    # shellcheck disable=SC2254
    case "$name" in ${p%.sh}) return 0 ;; esac  # a script named with or without .sh
  done
  return 1
}

# Runs test program $1 (name) with command $2...; writes its standard
# output to $work/$1.out, its standard error to $logs/$1.log, the commands
# it called that do not exist to $work/$1.missing and "STATUS SECONDS" to
# $work/$1.rc.
run_one() {
  local name=$1; shift
  local t0; t0=$(date +%s.%N)
  TCPA_TEST_MISSING=$work/$name.missing "$@" >"$work/$name.out" 2>"$logs/$name.log"
  local rc=$?
  echo "$rc $(echo "$(date +%s.%N) - $t0" | bc)" >"$work/$name.rc"
}

# Prints the output of test program $1 and adds its verdicts to the totals.
report_one() {
  local name=$1 out=$work/$1.out rc secs
  read -r rc secs <"$work/$name.rc"
  printf '# %s (%.1f s)\n' "$name" "$secs"
  cat "$out"
  local p f s plan
  s=$(grep -Ec '^ok .*# (SKIP|skip)' "$out")
  p=$(( $(grep -c '^ok ' "$out") - s )); f=$(grep -c '^not ok ' "$out")
  plan=$(grep -cE '^1\.\.[0-9]+' "$out")
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "not ok - $name exited with status $rc"; f=1
  elif [ "$plan" -eq 0 ]; then
    echo "not ok - $name printed no TAP plan (1..N)"; f=$((f + 1))
  fi
  if [ -s "$work/$name.missing" ]; then
    echo "not ok - $name called commands that do not exist: $(sort -u "$work/$name.missing" | paste -sd ' ' -)"
    f=$((f + 1))
  fi
  if [ "$f" -gt 0 ] && [ -s "$logs/$name.log" ]; then
    echo "# the last lines of its standard error ($logs/$name.log):"
    tail -n 20 "$logs/$name.log" | sed 's/^/#   /'
  fi
  grep -E '^ok .*# (SKIP|skip)' "$out" | sed "s/^/$name: /" >>"$work/skips"
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  printf '%8.1f  %s\n' "$secs" "$name" >>"$work/times"
}

names=() cmds=()
for t in "$BUILD"/tests/test_*; do
  [ -x "$t" ] || continue
  [ -f "tests/unit/$(basename "$t").c" ] || continue  # a binary whose source went away
  selected "$(basename "$t")" "$@" && { names+=("$(basename "$t")"); cmds+=("$t"); }
done
# Prints the value of header line `# KEY: VALUE` ($2) of script $1 (its
# first comment lines, up to the first line of code).
header() { awk -v k="# $2: " '!/^#/ { exit } index($0, k) == 1 { split(substr($0, length(k) + 1), w, " "); print w[1]; exit }' "$1"; }

# Returns 0 when script $1 runs in this tier (its `# tier:` line).
in_tier() {
  local t
  t=$(header "$1" tier)
  case "$t:$TCPA_TIER" in
    :* | full:full | full:nightly | nightly:nightly) return 0 ;;
  esac
  return 1
}
for t in tests/*.sh; do
  case "$(basename "$t")" in run.sh | tap.sh | refcmp.sh) continue ;; esac  # the runner, two libraries
  in_tier "$t" || continue
  selected "$(basename "$t" .sh)" "$@" || continue
  shards=$(header "$t" shards)
  if [ "$TCPA_TIER" = fast ] || [ "${shards:-1}" -le 1 ]; then
    names+=("$(basename "$t")"); cmds+=("bash $t")
  else
    for k in $(seq 1 "$shards"); do
      names+=("$(basename "$t"):$k"); cmds+=("env TCPA_SHARD=$k TCPA_SHARDS=$shards bash $t")
    done
  fi
done
if [ ${#names[@]} -eq 0 ]; then
  other=()
  for t in tests/*.sh; do
    [ -n "$(header "$t" tier)" ] && ! in_tier "$t" && selected "$(basename "$t" .sh)" "$@" && other+=("$(basename "$t")")
  done
  if [ ${#other[@]} -gt 0 ]; then
    echo "run.sh: ${other[*]}: not in the $TCPA_TIER tier (make test-full T=... or make nightly T=...)" >&2
  else
    echo "run.sh: no test program matches: $*" >&2
  fi
  exit 2
fi

# the longest first, by the last run's times (unknown ones first of all)
times_file=$BUILD/test-times.$TCPA_TIER
if [ -s "$times_file" ]; then
  order=$(for i in "${!names[@]}"; do
    echo "$(awk -v n="${names[$i]}" '$2 == n { t = $1 } END { print (t == "" ? 1e9 : t) }' "$times_file") $i"
  done | sort -s -k1,1 -rg | awk '{ print $2 }')
  sorted_names=() sorted_cmds=()
  for i in $order; do sorted_names+=("${names[$i]}"); sorted_cmds+=("${cmds[$i]}"); done
  names=("${sorted_names[@]}") cmds=("${sorted_cmds[@]}")
fi

# the estimate from those times: the sum over the cores, or the longest
est=
if [ -s "$times_file" ]; then
  est=$(for nm in "${names[@]}"; do awk -v n="$nm" '$2 == n { print $1 }' "$times_file"; done |
    awk -v j="$jobs" '{ s += $1; if ($1 > m) m = $1; k++ } END { if (k) printf "%d", (s / j > m ? s / j : m) }')
fi

passed=0 failed=0 skipped=0
: >"$work/skips"; : >"$work/times"
t_start=$(date +%s)
echo "# tier $TCPA_TIER: ${#names[@]} test programs, $jobs at a time${est:+ (about $est s by the times of the last run)}"
running=0 next_report=0
for i in "${!names[@]}"; do
  # shellcheck disable=SC2086
  run_one "${names[$i]}" ${cmds[$i]} &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
  # print, in order, every program that has finished
  while [ "$next_report" -le "$i" ] && [ -f "$work/${names[$next_report]}.rc" ]; do
    report_one "${names[$next_report]}"; next_report=$((next_report + 1))
  done
done
wait
while [ "$next_report" -lt ${#names[@]} ]; do
  report_one "${names[$next_report]}"; next_report=$((next_report + 1))
done

echo "# the ten slowest test programs (seconds):"
sort -rn "$work/times" | head -10 | sed 's/^/#  /'
if [ -s "$work/skips" ]; then
  echo "# skipped checks (a tool this machine lacks):"
  sed 's/^/#   /' "$work/skips"
fi
echo "# the standard error of each program: $logs/NAME.log"
# this run's times over the last ones (a run of a few programs keeps the
# others' times)
{ awk '{ print $1, $2 }' "$work/times"; [ -f "$times_file" ] && cat "$times_file"; } |
  awk '!seen[$2]++' | sort -rg >"$times_file.tmp" && mv "$times_file.tmp" "$times_file"
echo "# tier $TCPA_TIER took $(( $(date +%s) - t_start )) s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
