#!/usr/bin/env bash
# bench_classes.sh: the processor classes of every benchmark of
# regress/programs on the regions 1x4, 1x16, 1x32, 2x2 and 4x4 of
# configs/default.ini and configs/array32.ini (a region larger than the
# array is left out). Each cell maps the program as `tcpa run` does
# (`tcpa compile --pes R --param ...`: the mapping search instantiating
# every attempt on the region; `--map` of the program's first two
# dimensions on a 2-D region) and instantiates it, and prints the classes
# `tcpa instantiate` reports (after merging classes with equal programs,
# docs/instantiate.md step 2), or `-` with the resource when it does not
# fit. The parameters give full tiles of 2 along every mapped dimension
# (p = 2 on every region: the last PE's tile is as full as the others, as
# in the paper's Table 1, so that classes count what differs between PEs,
# not a partial last tile). A benchmark, not an assertion: exits 0 unless
# the tools are missing.
#
# Environment: BUILD (default build), TCPA (default $BUILD/bin/tcpa),
# CLASSES_ARCHS (default "default array32"), CLASSES_REGIONS, CLASSES_PROGS.
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
ARCHS=${CLASSES_ARCHS:-default array32}
REGIONS=${CLASSES_REGIONS:-1x4 1x16 1x32 2x2 4x4}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -x "$TCPA" ] || { echo "bench: $TCPA is not built (run make)" >&2; exit 2; }

# program|parameters: A is the extent of the first mapped dimension (twice
# the PEs along it: tiles p = 2), B that of the second (2-D regions; 4 on
# 1-D regions), M the larger of the two
CASES=(
  "bitextract|N=A"
  "fir|N=A T=B"
  "matmul|N=A M=B K=4"
  "conv|CO=A R=B C=2 CI=1 KR=2 KC=2"
  "trimv|N=M"
  "maxpool|R=A C=B"
  "dotprod|N=A"
  "jacobi|T=A N=B"
  "gcd|N=A S=B"
  "editdist|N=A M=B"
  "satarith|N=A"
  "band|N=M W=4"
)
PROGS=${CLASSES_PROGS:-}

# cell PROG ARCH REGION PARAMS...: prints the classes, or `-` and why.
cell() {
  local prog=$1 arch=$2 region=$3; shift 3
  local args=() p map=()
  for p in "$@"; do args+=(--param "$p"); done
  case $region in 1x*) ;; *) map=(--map 0,1) ;; esac
  if ! "$TCPA" compile "regress/programs/$prog.pla" --arch "configs/$arch.ini" "${map[@]}" \
       --pes "$region" "${args[@]}" -o "$tmp/p.sym" > /dev/null 2> "$tmp/err"; then
    echo "- ($(why))"; return
  fi
  if ! out=$("$TCPA" instantiate "$tmp/p.sym" --arch "configs/$arch.ini" "${args[@]}" --pes "$region" \
             -o "$tmp/p.bin" 2> "$tmp/err"); then
    echo "- ($(why))"; return
  fi
  sed -n 's/.*, \([0-9]*\) processor class\(es\)\{0,1\},.*/\1/p' <<<"$out"
}

# Prints the resource of the failure in $tmp/err, shortly: `1-D` for a
# program of one dimension on a 2-D region, else the message's first words
# after "does not fit:".
why() {
  if grep -q -- "--map 0,1: no such dimension" "$tmp/err"; then echo "1-D"; return; fi
  sed -n '1{s/^tcpa: error: //;s/^[^ ]*: //;s/^does not fit: //;s/[:(;,].*//;p}' "$tmp/err" | cut -c1-20
}

arch_rows() { sed -n 's/^rows *= *\([0-9]*\).*/\1/p' "configs/$1.ini"; }
arch_cols() { sed -n 's/^cols *= *\([0-9]*\).*/\1/p' "configs/$1.ini"; }

echo "Processor classes per benchmark and region (after merging equal programs)"
echo
printf "%-11s %-8s" program arch
for r in $REGIONS; do printf " %-24s" "$r"; done
echo
for c in "${CASES[@]}"; do
  IFS='|' read -r prog ps <<<"$c"
  [ -z "$PROGS" ] || grep -qw "$prog" <<<"$PROGS" || continue
  for a in $ARCHS; do
    printf "%-11s %-8s" "$prog" "$a"
    for r in $REGIONS; do
      rr=${r%x*} cc=${r#*x}
      if [ "$rr" -gt "$(arch_rows "$a")" ] || [ "$cc" -gt "$(arch_cols "$a")" ]; then
        printf " %-24s" "n/a"; continue
      fi
      if [ "$rr" = 1 ]; then A=$((2 * cc)) B=4; else A=$((2 * rr)) B=$((2 * cc)); fi
      M=$((A > B ? A : B))
      pr=$(sed "s/=A\b/=$A/g;s/=B\b/=$B/g;s/=M\b/=$M/g" <<<"$ps")
      # shellcheck disable=SC2086
      printf " %-24s" "$(cell "$prog" "$a" "$r" $pr)"
    done
    echo
  done
done
exit 0
