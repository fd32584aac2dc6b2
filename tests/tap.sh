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

# The tier of this run (tests/run.sh): fast (make test), full (make
# test-full) or nightly (make nightly: the full tier and the long
# campaigns). full_tier returns 0 in the full and nightly tiers: the parts
# of a script that only they run are wrapped in `if full_tier; then ...
# fi` (they print nothing in the fast tier: they are not skips);
# nightly_tier returns 0 in the nightly tier only (the campaigns too long
# for the full tier's 45 minutes, docs/testing.md "The nightly campaigns").
TCPA_TIER=${TCPA_TIER:-fast}
full_tier() { [ "$TCPA_TIER" = full ] || [ "$TCPA_TIER" = nightly ]; }
nightly_tier() { [ "$TCPA_TIER" = nightly ]; }

# The shard of this run: a script with a `# shards: N` header line runs
# as N programs in the full and nightly tiers (tests/run.sh), shard
# TCPA_SHARD of TCPA_SHARDS, and as one (shard 1 of 1) in the fast tier.
TCPA_SHARD=${TCPA_SHARD:-1} TCPA_SHARDS=${TCPA_SHARDS:-1}
# Returns 0 in the first shard: the checks a sharded script makes once.
first_shard() { [ "$TCPA_SHARD" -eq 1 ]; }
# Returns 0 when item $1 (a number from 0) is this shard's: every
# TCPA_SHARDS-th item, from TCPA_SHARD - 1.
mine() { [ $(($1 % TCPA_SHARDS)) -eq $((TCPA_SHARD - 1)) ]; }
# Prints this shard's part of the seeds A-B ($1) as A'-B', contiguous
# parts of (almost) equal size; prints nothing when the part is empty.
shard_range() {
  local a=${1%-*} b=${1#*-} lo hi
  lo=$((a + (b - a + 1) * (TCPA_SHARD - 1) / TCPA_SHARDS))
  hi=$((a + (b - a + 1) * TCPA_SHARD / TCPA_SHARDS - 1))
  [ "$lo" -le "$hi" ] && echo "$lo-$hi"
}

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

# compare_shot NAME DIR: a person's view of DIR's compare.fst: GTKWave as
# `tcpa wave DIR --compare` starts it, under Xvfb (1600x1000), with a Tcl
# script printing `marker T`, `dumpfile F` and `displayed NAMES...` to
# $tmp/NAME.out, and a screenshot of its window found by its title (xwd
# -name fails while no window has it) in $tmp/NAME.png. One check: the
# window shown, the screenshot 1600x1000, no warning on stderr. Returns 1
# after a skip when a tool is missing (the caller skips what follows).
compare_shot() {
  local name=$1 D=$2 st size bad
  if ! command -v xvfb-run >/dev/null || ! command -v gtkwave >/dev/null || ! command -v xwd >/dev/null ||
     ! command -v xwdtopnm >/dev/null; then
    n=$((n + 1))  # a skip (not skip(): wave_cli.sh has its own)
    echo "ok $n - $name: GTKWave's view # SKIP xvfb-run, gtkwave, xwd or netpbm missing (scripts/setup.sh installs xvfb, gtkwave, x11-apps, netpbm)"
    return 1
  fi
  printf '%s\n' 'puts "marker [gtkwave::getMarker]"' 'puts "dumpfile [gtkwave::getDumpFileName]"' \
    'puts "displayed [gtkwave::getDisplayedSignals]"' > "$tmp/$name.tcl"
  printf '#!/bin/sh\nexec gtkwave "$@" --script %s\n' "$tmp/$name.tcl" > "$tmp/$name-gw.sh"
  {
    echo '#!/bin/sh'
    echo "TCPA_GTKWAVE=$tmp/$name-gw.sh \"$TCPA\" wave \"$D\" --compare >\"$tmp/$name.out\" 2>\"$tmp/$name.err\" &"
    echo 'pid=$!'
    echo "for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do"
    echo "  sleep 1"
    echo "  xwd -silent -name \"GTKWave - $D/compare.fst\" -out \"$tmp/$name.xwd\" 2>/dev/null && break"
    echo "done"
    echo "sleep 3"
    echo "xwd -silent -name \"GTKWave - $D/compare.fst\" -out \"$tmp/$name.xwd\""
    echo 'st=$?'
    echo 'kill $pid'
    echo 'exit $st'
  } > "$tmp/$name-shot.sh"
  chmod +x "$tmp/$name-shot.sh" "$tmp/$name-gw.sh"
  timeout 90 xvfb-run -a -s "-screen 0 1600x1000x24" "$tmp/$name-shot.sh"
  st=$?
  xwdtopnm "$tmp/$name.xwd" 2>/dev/null | pnmtopng > "$tmp/$name.png" 2>/dev/null
  size=$(xwdtopnm "$tmp/$name.xwd" 2>/dev/null | pnmfile | sed -n 's/.* \([0-9]*\) by \([0-9]*\) .*/\1x\2/p')
  bad=$(grep -viE "gtk-|glib|dbus|dbind|accessibility|fontconfig|dconf" "$tmp/$name.err" |
    grep -iE "error|could not|cannot|warning|failed|not found|unknown" | head -2 | tr '\n' ' ')
  [ $st -eq 0 ] && [ "$size" = 1600x1000 ] && [ "$(wc -c < "$tmp/$name.png")" -gt 20000 ] && [ -z "$bad" ]
  check "$name: GTKWave (Xvfb 1600x1000) shows a window titled 'GTKWave - DIR/compare.fst'; screenshot $size, no warning on stderr${bad:+ ($bad)}" $?
}

# The save files and waveforms of a divergence (tests/divergence_units.sh,
# tests/systemc_cli.sh): run NAME's --out-dir is $tmp/NAME.
# first_one VCD SCOPE NAME: the first time NAME in SCOPE is 1
first_one() {
  awk -v want="$2.$3" '$1 == "$scope" { s[++d] = $3 } $1 == "$upscope" { d-- }
    $1 == "$var" { v = s[1]; for (i = 2; i <= d; i++) v = v "." s[i]; if (v "." $5 == want) id = $4 }
    /^#[0-9]/ { T = substr($1, 2) } id != "" && $0 == "1" id { print T; exit }' "$1"
}
# divergence_group GTKW: the signal names of the group labelled `divergence...`
# (the save files' focus group, first after the clock)
divergence_group() { awk '/^-divergence/ { g = 1; next } /^@1000200/ && g { exit } g && !/^[-@^]/ { print $NF }' "$1"; }

# unit_waves NAME UNIT: the save files and compare.fst of run NAME: the first
# group of divergence.gtkw holds a signal of UNIT (a scope, regex), the
# first group of compare.gtkw holds model.UNIT and rtl.UNIT signals, and
# compare.fst's mismatch of the event's class (the PE's, or the machine's
# for gc) and mismatch.any are first 1 at the divergence cycle
# unit_saves NAME UNIT: the save files only (an edited event stream leaves the
# FSTs agreeing: no mismatch signal rises)
unit_saves() {
  local d=$tmp/$1 r
  divergence_group "$d/divergence.gtkw" | grep -Eq "^$2(\.|\[|$)"; r=$?
  check "$1: divergence.gtkw opens on the unit: $(divergence_group "$d/divergence.gtkw" | grep -E "^$2" | head -2 | tr '\n' ' ')" $r
  divergence_group "$d/compare.gtkw" | grep -Eq "^model\.$2(\.|\[|$)" && divergence_group "$d/compare.gtkw" | grep -Eq "^rtl\.$2(\.|\[|$)"; r=$?
  check "$1: compare.gtkw opens on the unit on both sides: $(divergence_group "$d/compare.gtkw" | grep -E "^(model|rtl)\.$2" | head -2 | tr '\n' ' ')" $r
}
unit_waves() {
  local d=$tmp/$1 c kind fm fa pe
  unit_saves "$1" "$2"
  c=$(sed -n 's/^lockstep: DIVERGENCE at cycle \([0-9]*\),.*/\1/p' "$d/divergence.txt" | head -1)
  kind=$(sed -n 's/^  event: *\([a-z]*\) .*/\1/p' "$d/divergence.txt" | head -1)
  fst2vcd "$d/compare.fst" >"$tmp/$1.vcd" 2>/dev/null
  pe=$(sed -n 's/^lockstep: DIVERGENCE at cycle [0-9]*, PE (\([0-9]*\),\([0-9]*\)).*/g_row[\1].g_col[\2]/p' "$d/divergence.txt" | head -1)
  fm=$(first_one "$tmp/$1.vcd" "mismatch${pe:+.$pe}" "$kind") fa=$(first_one "$tmp/$1.vcd" mismatch any)
  [ -n "$c" ] && [ "$fm" = "$((c * 1000))" ] && [ "$fa" = "$fm" ]
  check "$1: compare.fst: mismatch${pe:+.$pe}.$kind and mismatch.any first 1 at ${fm:-never} and ${fa:-never} ps (cycle ${c:-?})" $?
}
