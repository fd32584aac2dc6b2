# tap.sh: sourced by the test scripts tests/*.sh: the tcpa under test
# ($TCPA, default build/bin/tcpa), a temporary directory $tmp removed on
# exit, and the two ways of recording a TAP verdict. $n counts the checks,
# $fail is 1 once one failed. Also the helpers several scripts share:
# harness, unbuilt, run_seeds (the random programs of gen_program*.sh).
TCPA=${TCPA:-build/bin/tcpa}
tmp=$(mktemp -d); trap 'echo "1..$n"; rm -rf "$tmp"' EXIT  # the TAP plan, at the end
n=0 fail=0

# Records check NAME ($1) as passed when the status $2 is 0.
check() {
  n=$((n + 1))
  if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi
}

# Records check NAME ($1) as passed when the shell expression $2 is true.
check_eval() {
  n=$((n + 1))
  if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi
}

# The tier of this run (tests/run.sh): fast (make test) or full (make
# test-full). full_tier returns 0 in the full tier: the parts of a script
# that only the full tier runs are wrapped in `if full_tier; then ... fi`
# (they print nothing in the fast tier: they are not skips).
TCPA_TIER=${TCPA_TIER:-fast}
full_tier() { [ "$TCPA_TIER" = full ]; }

# Records a skipped check NAME ($1) for a reason ($2) that must be a tool
# this machine lacks, never something the project builds (those fail).
skip() {
  n=$((n + 1))
  echo "ok $n - $1 # SKIP $2"
}

# unbuilt WHAT: what a harness that did not build leaves untested fails.
unbuilt() { n=$((n + 1)); echo "not ok $n - $1: its harness did not build"; fail=1; }

# Prints the path of the Verilated harness of kind $2 (rtl, mutants, sc,
# cov; default rtl) for the architecture file $1 (default: the embedded
# default), building it when it is missing (`tcpa harness`, docs/rtl.md
# "Harness cache"); returns non-zero, with tcpa's message on stderr, when
# it cannot be built. Callers record that as a failing check:
#   RTL=$(harness configs/big1d.ini); check "the big1d harness builds" $?
# (the cache's harness even where a script exported TCPA_RTL or TCPA_SC
# for its runs: those name a binary instead of the cache's)
harness() {
  env -u TCPA_RTL -u TCPA_SC -u TCPA_RTL_MUTANTS -u TCPA_RTL_COV "$TCPA" harness ${1:+--arch "$1"} --kind "${2:-rtl}"
}

# run_seeds NAME ARGS...: `tcpa gen program --check ARGS` (docs/fuzz.md
# "Random programs"), its log in $tmp/run.N.log; one check that no seed
# FAILs (the FAIL lines in the message), the totals as a comment.
run_seeds() {
  local name=$1 log="$tmp/run.$n.log" st
  shift
  nice "$TCPA" gen program --check --out-dir "$tmp/out.$n" "$@" >"$log" 2>&1
  st=$?
  echo "# $name: $(tail -n 1 "$log")"
  grep -A1 ': FAIL:' "$log" | sed 's/^/# /'
  check "$name: no seed fails (exit $st)" $st
}
