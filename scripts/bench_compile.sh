#!/usr/bin/env bash
# bench_compile.sh: the compile-time table of `make bench`
# (docs/symbolic.md "Sets"). For every benchmark in regress/programs/ and
# every configuration of CONFIGS it runs `tcpa compile` (1xC region,
# dimension 0, the whole mapping search with its instantiation checks)
# REPEAT times and prints the smallest CPU time (user + system; the
# machine is shared, so CPU time is steadier than wall time). With
# TCPA_OLD set to another tcpa binary, each row also gives that binary's
# time, the ratio new/old and whether the two .sym files are byte-identical,
# so a change of the mapper shows what it costs. A benchmark, never an
# assertion: it exits 0 however slow a compile is (non-zero only when
# TCPA is missing).
#
# Environment: BUILD (default build), TCPA (default $BUILD/bin/tcpa),
# TCPA_OLD (none), REPEAT (default 3), CONFIGS (default: default big1d
# wide linear array32 unseen-2x3, the configurations in configs/).
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
TCPA_OLD=${TCPA_OLD:-}
REPEAT=${REPEAT:-3}
CONFIGS=${CONFIGS:-$(cd configs && ls *.ini | sed 's/\.ini$//' | tr '\n' ' ')}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -x "$TCPA" ] || { echo "bench_compile: $TCPA is not built (run make)" >&2; exit 2; }

# cpu BIN PROG CFG SYM: prints the best CPU seconds of REPEAT compiles
# into SYM and "rc=N" of the last; "-" when the binary crashed.
cpu() {
  local bin=$1 prog=$2 cfg=$3 sym=$4 best= t rc=0 k
  for ((k = 0; k < REPEAT; k++)); do
    t=$( { TIMEFORMAT='%U %S'; time "$bin" compile "regress/programs/$prog.pla" --arch "configs/$cfg.ini" \
          -o "$sym" >/dev/null 2>"$tmp/err"; echo "rc=$?" >"$tmp/rc"; } 2>&1 | awk '{ print $1 + $2 }')
    rc=$(sed 's/rc=//' "$tmp/rc")
    [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }' && best=$t
  done
  echo "$best $rc"
}

echo "Compile time: tcpa compile (1xC, dimension 0), CPU seconds, best of $REPEAT runs"
echo
if [ -n "$TCPA_OLD" ]; then
  fmt="%-11s %-11s %4s %9s %9s %7s  %s\n"
  printf "$fmt" program config exit new old new/old .sym
  printf "$fmt" ----------- ----------- ---- --------- --------- ------- ----
else
  fmt="%-11s %-11s %4s %9s\n"
  printf "$fmt" program config exit seconds
  printf "$fmt" ----------- ----------- ---- ---------
fi
tot_new=0 tot_old=0 same=0 differ=0
for f in regress/programs/*.pla; do
  prog=$(basename "$f" .pla)
  for cfg in $CONFIGS; do
    read -r tn rn < <(cpu "$TCPA" "$prog" "$cfg" "$tmp/new.sym")
    tot_new=$(awk -v a="$tot_new" -v b="$tn" 'BEGIN { print a + b }')
    if [ -z "$TCPA_OLD" ]; then
      printf "$fmt" "$prog" "$cfg" "$rn" "$tn"
      continue
    fi
    rm -f "$tmp/new.sym.keep" && [ -f "$tmp/new.sym" ] && mv "$tmp/new.sym" "$tmp/new.sym.keep"
    read -r to ro < <(cpu "$TCPA_OLD" "$prog" "$cfg" "$tmp/old.sym")
    tot_old=$(awk -v a="$tot_old" -v b="$to" 'BEGIN { print a + b }')
    sym=-
    if [ "$rn" = 0 ] && [ "$ro" = 0 ]; then
      if cmp -s "$tmp/new.sym.keep" "$tmp/old.sym"; then sym=identical; same=$((same + 1))
      else sym=DIFFERENT; differ=$((differ + 1)); fi
    elif [ "$rn" != "$ro" ]; then sym="exit differs (old $ro)"; differ=$((differ + 1))
    fi
    rm -f "$tmp/new.sym.keep" "$tmp/old.sym"
    printf "$fmt" "$prog" "$cfg" "$rn" "$tn" "$to" \
      "$(awk -v a="$tn" -v b="$to" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')" "$sym"
  done
done
echo
if [ -n "$TCPA_OLD" ]; then
  echo "total CPU seconds: new $tot_new, old $tot_old ($(awk -v a="$tot_new" -v b="$tot_old" \
    'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }') new/old); .sym identical $same, different $differ"
else
  echo "total CPU seconds: $tot_new"
fi
echo "Exit 3: the program does not fit the configuration (its time is that of the whole search)."
