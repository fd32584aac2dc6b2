#!/usr/bin/env bash
# covers: docs/fuzz.md "Building and running", "In make test"
# fuzz.sh: the short fuzzing run of `make test` (docs/fuzz.md). For each
# libFuzzer target of `make fuzz` (build-fuzz/fuzz_parse: language parser
# and checker, fuzz_arch: INI reader, fuzz_stream: the model's stream
# loader and a bounded run, fuzz_json: the JSON reader of tcpa regress;
# FUZZ_TARGETS="json ..." picks some):
#   - every input of fuzz/regress/TARGET/ (inputs that once crashed it, one
#     per bug fixed) runs once without a crash: one TAP line each;
#   - the seed corpus build-fuzz/seeds/TARGET (fuzz/seeds.sh) runs once;
#   - the target fuzzes for FUZZ_SECS seconds (default 20) from the seeds:
#     libFuzzer must exit 0, report its runs, and leave no crash, leak or
#     timeout artifact.
# ASan and UBSan are built in (-fno-sanitize-recover): any memory error or
# undefined behaviour stops the run with a non-zero exit. Prints TAP; the
# whole script is skipped (`# SKIP`) only when clang is absent.
# tier: full (the libFuzzer targets of make fuzz)
set -u
. "$(dirname "$0")/tap.sh"
FB=${FUZZ_BUILD:-build-fuzz}
SECS=${FUZZ_SECS:-20}
targets=${FUZZ_TARGETS:-parse arch stream json}

if ! command -v clang >/dev/null 2>&1 && [ ! -x "$FB/fuzz_parse" ]; then
  echo "ok 1 - fuzzing # SKIP clang is not installed (scripts/setup.sh installs it)"
  exit 0
fi

# Runs target $1 with the remaining arguments (and its dictionary
# fuzz/$1.dict when there is one), its output in $tmp/$1.log; returns its
# exit status.
fuzz_run() {
  local t=$1 dict=; shift
  [ -f "fuzz/$t.dict" ] && dict=-dict=fuzz/$t.dict
  timeout 600 "$FB/fuzz_$t" $dict -close_fd_mask=3 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$tmp/art-$t-" "$@" >"$tmp/$t.log" 2>&1
}

for t in $targets; do
  [ -x "$FB/fuzz_$t" ]
  check "fuzz_$t is built (make fuzz)" $? || continue
  for f in fuzz/regress/$t/*; do
    [ -f "$f" ] || continue
    fuzz_run "$t" "$f"
    vst=$?; check "fuzz_$t: regression input $(basename "$f") runs without a crash" $vst
  done
  seeds=$FB/seeds/$t
  nseeds=$(ls "$seeds" 2>/dev/null | wc -l)
  [ "$nseeds" -ge 5 ]
  check "fuzz_$t: seed corpus $seeds has $nseeds inputs (at least 5)" $?
  fuzz_run "$t" -runs=0 "$seeds"
  st=$?
  [ $st -eq 0 ] && grep -q 'INITED' "$tmp/$t.log"
  check "fuzz_$t: every seed runs without a crash (exit $st)" $?
  mkdir -p "$tmp/corpus-$t"
  fuzz_run "$t" -max_total_time="$SECS" -print_final_stats=1 "$tmp/corpus-$t" "$seeds"
  st=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.log")
  cov=$(grep -o 'cov: [0-9]*' "$tmp/$t.log" | tail -n 1)
  arts=$(ls "$tmp" | grep -c "^art-$t-")
  [ $st -eq 0 ] && [ "${runs:-0}" -gt 0 ] && [ "$arts" -eq 0 ]
  check "fuzz_$t: ${SECS}s of fuzzing, ${runs:-no} executions, ${cov:-cov: ?}, exit $st, $arts crash artifacts" $?
  if [ $st -ne 0 ]; then
    grep -E 'ERROR|SUMMARY|runtime error' "$tmp/$t.log" | head -n 5 | sed 's/^/# /'
    for a in "$tmp"/art-$t-*; do [ -f "$a" ] && echo "# artifact: $(basename "$a") $(od -An -c "$a" | head -c 300 | tr -s ' \n' ' ')"; done
  fi
done
exit $fail
