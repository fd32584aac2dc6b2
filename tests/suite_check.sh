#!/usr/bin/env bash
# covers: docs/testing.md "Checking the tests themselves",
#   "Finding the tests of a feature"
# suite_check.sh: the test suite itself (docs/testing.md "Checking the
# tests themselves"):
#   - every script of tests/ and scripts/ parses (`bash -n`);
#   - every command a test script calls exists (scripts/test-calls.py): a
#     function the script or a file it sources defines, a bash builtin, a
#     program on PATH, or a tool the script probes first; and the scanner
#     itself finds an undefined helper, one in a `$( )` inside double
#     quotes, one after `if !` and one in a case, in a script written
#     here, and nothing in tap.sh's own helpers;
#   - no check reads `$?` after a `$( )` in its own arguments (the
#     status of the substitution: such a check cannot fail);
#   - every test starts with a covers: line whose documents and sections
#     exist, and tests/INDEX.md is what scripts/test-index.py makes of
#     them (docs/testing.md "Finding the tests of a feature"); the check
#     fails on a scratch copy with a stale INDEX.md, a script without its
#     covers: line, a section that does not exist;
#   - the runner (tests/run.sh) fails a program that calls a command that
#     does not exist, and keeps a program's standard error (the expected
#     `error:` messages of negative tests) out of the console, in
#     $BUILD/test-logs/NAME.log;
#   - the runner's tiers and shards: a `# shards: 2` script runs once in
#     the fast tier and as two programs in the full one, each with its
#     part of a seed range and of a list (tap.sh shard_range, mine); a
#     `# tier: nightly` script only in the nightly tier; the longest
#     program by the last run's times starts first, and the runner prints
#     the estimate those times give.
# Prints TAP lines.
set -u
. "$(dirname "$0")/tap.sh"
BUILD=${BUILD:-build}

# -- every script parses ----------------------------------------------------
bad=
for f in tests/*.sh scripts/*.sh fuzz/*.sh; do
  [ -f "$f" ] || continue
  bash -n "$f" 2>"$tmp/n.err" || bad="$bad $f"
  sed 's/^/# /' "$tmp/n.err"
done
check "every script of tests/, scripts/ and fuzz/ parses (bash -n):${bad:- all}" "$([ -z "$bad" ]; echo $?)"

# -- every called command exists --------------------------------------------
python3 scripts/test-calls.py tests/*.sh >"$tmp/calls" 2>&1
st=$?
sed 's/^/# /' "$tmp/calls"
check "every command the test scripts call exists, no check reads a stale \$? (exit $st; $(wc -l <"$tmp/calls") problems)" $st

mkdir -p "$tmp/t"
cp tests/tap.sh "$tmp/t/"
cat >"$tmp/t/bad.sh" <<'EOF'
#!/usr/bin/env bash
. "$(dirname "$0")/tap.sh"
defined_here() { :; }
if full_tier; then defined_here; fi
x="value $(helper_in_quotes "$x")"
if ! helper_after_not; then :; fi
case $x in a | b) helper_in_case ;; esac
echo 'not_a_call; nor_this' | grep -q not_a_call && check "x" 0
[ -n "$x" ]
check "the status of the substitution, not of the test: $(echo "$x")" $?
[ -n "$x" ]
ok=$?; check "the test's status: $(echo "$x")" $ok
EOF
python3 scripts/test-calls.py "$tmp/t/bad.sh" >"$tmp/bad.out" 2>&1
st=$?
got=$(sed 's/^[^:]*:\([0-9]*\): \([^ ]*\).*/\1:\2/' "$tmp/bad.out" | paste -sd ' ' -)
[ $st -eq 1 ] && [ "$got" = "5:helper_in_quotes 6:helper_after_not 7:helper_in_case 10:\$?" ]
ok=$?; check "the scanner finds the three undefined helpers and the stale \$? of a seeded script, nothing else (exit $st: $got)" $ok

# -- covers: lines and tests/INDEX.md --------------------------------------
python3 scripts/test-index.py --check >"$tmp/index" 2>&1
st=$?
sed 's/^/# /' "$tmp/index"
check "every test starts with a covers: line naming sections that exist, and tests/INDEX.md is current (exit $st; make test-index writes it)" $st

# the check fails on a stale INDEX.md, a test without a covers: line, a
# section that does not exist (a scratch copy of tests/, docs/, scripts/)
mkdir -p "$tmp/ix"
cp -r tests docs scripts README.md "$tmp/ix/"
# index_case NAME EXPECTED-PROBLEM: `test-index.py --check` in the copy
# exits 1 with a line containing EXPECTED-PROBLEM, and 0 after a restore.
index_case() {
  local out st
  out=$(cd "$tmp/ix" && python3 scripts/test-index.py --check 2>&1); st=$?
  [ $st -eq 1 ] && grep -qF -- "$2" <<<"$out"
  ok=$?; check "test-index.py --check fails on $1 (exit $st): $(head -1 <<<"$out")" $ok
}
echo "| tests/old.sh | fast | docs/isa.md |" >>"$tmp/ix/tests/INDEX.md"
index_case "a stale INDEX.md" "tests/INDEX.md: stale"
cp tests/INDEX.md "$tmp/ix/tests/INDEX.md"
sed -i '2d' "$tmp/ix/tests/golden.sh"
index_case "a script without a covers: line" "tests/golden.sh: does not start with a covers: line"
cp tests/golden.sh "$tmp/ix/tests/"
sed -i '1s/"Word layout"/"Word layouts of old"/' "$tmp/ix/tests/unit/test_isa.c"
index_case "a section the document does not have" 'tests/unit/test_isa.c: covers: docs/isa.md has no section "Word layouts of old"'
cp tests/unit/test_isa.c "$tmp/ix/tests/unit/"
(cd "$tmp/ix" && python3 scripts/test-index.py --check >/dev/null 2>&1)
check "test-index.py --check passes on the restored copy" $?

# -- the runner: missing commands fail, standard error goes to the log ------
mkdir -p "$tmp/r/tests"
cp tests/run.sh tests/tap.sh "$tmp/r/tests/"
cat >"$tmp/r/tests/neg.sh" <<'EOF'
#!/usr/bin/env bash
. "$(dirname "$0")/tap.sh"
echo "tcpa: error: an expected message of a negative test" >&2
check "a passing check" 0
EOF
cat >"$tmp/r/tests/undef.sh" <<'EOF'
#!/usr/bin/env bash
. "$(dirname "$0")/tap.sh"
if ! undefined_helper; then check "after the undefined helper" 0; fi
EOF
(cd "$tmp/r" && BUILD=b TCPA_TIER=fast bash tests/run.sh -j 1 neg) >"$tmp/r/neg.out" 2>&1
st=$?
! grep -q 'error:' "$tmp/r/neg.out" && grep -q 'expected message' "$tmp/r/b/test-logs/neg.sh.log" &&
  grep -q '^1 passed, 0 failed' "$tmp/r/neg.out"
check "run.sh: a negative test's error: line goes to b/test-logs/neg.sh.log, not the console (exit $st)" $?
(cd "$tmp/r" && BUILD=b TCPA_TIER=fast bash tests/run.sh -j 1 undef) >"$tmp/r/undef.out" 2>&1
st=$?
[ $st -ne 0 ] && grep -q '^not ok - undef.sh called commands that do not exist: undefined_helper' "$tmp/r/undef.out" &&
  grep -q '^1 passed, 1 failed' "$tmp/r/undef.out"
check "run.sh: a script calling an undefined helper fails (exit $st), naming it" $?
sed -n '/^not ok/p' "$tmp/r/undef.out" | sed 's/^/# /'

# -- the runner: tiers, shards, the longest first --------------------------
rm -f "$tmp/r/tests/neg.sh" "$tmp/r/tests/undef.sh"
cat >"$tmp/r/tests/camp.sh" <<'EOF'
#!/usr/bin/env bash
# shards: 2
. "$(dirname "$0")/tap.sh"
first_shard && check "the once-only part" 0
r=$(shard_range 1-9)
items=; for i in 0 1 2 3 4; do mine $i && items="$items$i"; done
check "shard $TCPA_SHARD of $TCPA_SHARDS: seeds $r, items $items" 0
sleep 1
EOF
cat >"$tmp/r/tests/night.sh" <<'EOF'
#!/usr/bin/env bash
# tier: nightly
. "$(dirname "$0")/tap.sh"
full_tier && nightly_tier
check "full_tier and nightly_tier hold in the nightly tier" $?
EOF
# runner TIER: the runner in the scratch copy, its output in $tmp/r/TIER.out
runner() { (cd "$tmp/r" && BUILD=b TCPA_TIER=$1 bash tests/run.sh -j 2) >"$tmp/r/$1.out" 2>&1; }
runner fast; st=$?
[ $st -eq 0 ] && grep -q '^ok 2 - shard 1 of 1: seeds 1-9, items 01234' "$tmp/r/fast.out" &&
  ! grep -q 'night.sh' "$tmp/r/fast.out" && grep -q '^2 passed, 0 failed' "$tmp/r/fast.out"
check "run.sh, fast tier: a sharded script runs once, as shard 1 of 1; a nightly script not at all (exit $st)" $?
runner full; st=$?
[ $st -eq 0 ] && grep -q '^# camp.sh:1 ' "$tmp/r/full.out" && grep -q '^# camp.sh:2 ' "$tmp/r/full.out" &&
  grep -q 'shard 1 of 2: seeds 1-4, items 024$' "$tmp/r/full.out" &&
  grep -q 'shard 2 of 2: seeds 5-9, items 13$' "$tmp/r/full.out" && ! grep -q 'night.sh' "$tmp/r/full.out" &&
  grep -q '^3 passed, 0 failed' "$tmp/r/full.out"
check "run.sh, full tier: the script's two shards side by side, each its part of seeds and items (exit $st)" $?
runner nightly; st=$?
[ $st -eq 0 ] && grep -q '^ok 1 - full_tier and nightly_tier hold' "$tmp/r/nightly.out" &&
  grep -q '^4 passed, 0 failed' "$tmp/r/nightly.out"
check "run.sh, nightly tier: the full tier's programs and the nightly script (exit $st)" $?
printf '1.0 camp.sh:1\n5.0 camp.sh:2\n' >"$tmp/r/b/test-times.full"
runner full
first=$(sed -n 's/^# \(camp.sh:[12]\) (.*/\1/p' "$tmp/r/full.out" | head -1)
[ "$first" = camp.sh:2 ] && grep -q '^# tier full: 2 test programs, 2 at a time (about 5 s by the times' "$tmp/r/full.out" &&
  grep -Eq '^[0-9.]+ camp.sh:1$' "$tmp/r/b/test-times.full" && ! grep -q '^1.0 camp' "$tmp/r/b/test-times.full"
check "run.sh: the longest program by the last run's times starts first (${first:-none}), the estimate printed, the times updated" $?
exit $fail
