#!/usr/bin/env bash
# stream-compare.sh: checks that two builds of tcpa write the same bytes.
#
#   scripts/stream-compare.sh BASE_TCPA [NEW_TCPA]
#
# For every regress/programs/*.pla on configs/default.ini and
# configs/big1d.ini (where all of them fit), runs `tcpa compile` and then
# `tcpa instantiate` (the smoke suite's parameters, regress/suites/smoke,
# on 1x1 and 1x2 regions) with both binaries, and compares exit status,
# stdout, stderr and the bytes of the .sym, the stream (docs/stream.md), the
# listing and the layout. A refactoring that must not change behaviour
# runs it against a build of the branch point. Prints one line per
# difference and `N cases, N differ`; exits 1 when any differs.
set -u
base=${1:?usage: scripts/stream-compare.sh BASE_TCPA [NEW_TCPA]}
new=${2:-build/bin/tcpa}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
declare -A PARAMS=(
  [bitextract]="N=13" [fir]="N=9 T=3" [matmul]="N=2 M=3 K=4"
  [conv]="CO=1 R=3 C=3 CI=1 KR=2 KC=2" [trimv]="N=7" [maxpool]="R=4 C=4"
  [dotprod]="N=10" [jacobi]="T=2 N=4" [gcd]="N=5 S=6" [editdist]="N=4 M=5"
  [satarith]="N=10" [band]="N=5 W=4")

# Runs binary $1 on the case into directory $2: compile of program $3 for
# architecture $4, then instantiate on region $5; leaves rc, err and outputs.
run_case() {
  local bin=$1 d=$2 prog=$3 arch=$4 pes=$5 name p args=()
  name=$(basename "$prog" .pla)
  mkdir -p "$d"
  for p in ${PARAMS[$name]:-}; do args+=(--param "$p"); done
  "$bin" compile "$prog" --arch "$arch" -o "$d/p.sym" >"$d/compile.out" 2>"$d/compile.err"
  echo "compile $?" >"$d/rc"
  [ -f "$d/p.sym" ] || return 0
  "$bin" instantiate "$d/p.sym" --arch "$arch" "${args[@]}" --pes "$pes" \
    -o "$d/p.bin" --listing "$d/p.lst" --layout "$d/p.lay" >"$d/inst.out" 2>"$d/inst.err"
  echo "instantiate $?" >>"$d/rc"
}

cases=0 differ=0
for prog in regress/programs/*.pla; do
  for arch in configs/default.ini configs/big1d.ini; do
    for pes in 1x1 1x2; do
      cases=$((cases + 1))
      # both in the same directory: messages name the output paths
      run_case "$base" "$tmp/run" "$prog" "$arch" "$pes"; mv "$tmp/run" "$tmp/a"
      run_case "$new" "$tmp/run" "$prog" "$arch" "$pes"; mv "$tmp/run" "$tmp/b"
      if ! diff -r "$tmp/a" "$tmp/b" >/dev/null; then
        differ=$((differ + 1))
        echo "differs: $prog $arch $pes: $(diff -rq "$tmp/a" "$tmp/b" | tr '\n' ' ')"
      fi
      rm -rf "$tmp/a" "$tmp/b"
    done
  done
done
echo "$cases cases, $differ differ"
[ "$differ" -eq 0 ]
