#!/usr/bin/env bash
# stream-compare.sh: runs every benchmark of regress/programs (the
# parameters of regress/suites/full) on configurations and regions through
# `tcpa run --engine model --out-dir` with two tcpa binaries and compares
# what they built: the exit status, the II (summary.json) and the stream
# (config.bin) byte for byte. A mapping change that only improves the II
# is reported as such; any other difference is listed as DIFFERENT.
#
# usage: scripts/stream-compare.sh [-a "default big1d"] [-r "1x1 1x4 2x2 4x4"]
#            OLD_TCPA NEW_TCPA WORKDIR
# OLD's outputs are kept in WORKDIR/old and reused when present (delete
# the directory to rerun them); NEW_TCPA "-" only runs OLD. Exit 0 when no run differs other than by
# a lower II, or a smaller stream at the same II (the mapping search's
# fewer program words, exit 0 both; listed), 1 otherwise.
set -u
archs="default big1d"
regions="1x1 1x4 2x2 4x4"
while getopts "a:r:" o; do
  case $o in
    a) archs=$OPTARG ;;
    r) regions=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || { echo "usage: $0 [-a ARCHS] [-r REGIONS] OLD_TCPA NEW_TCPA WORKDIR" >&2; exit 2; }
old=$1 new=$2 work=$3
root=$(cd "$(dirname "$0")/.." && pwd)
benches="bitextract:N=13 fir:N=9,T=3 matmul:N=2,M=3,K=4 conv:CO=1,R=3,C=3,CI=1,KR=2,KC=2 trimv:N=7
maxpool:R=4,C=4 dotprod:N=10 jacobi:T=2,N=4 gcd:N=5,S=6 editdist:N=4,M=5 satarith:N=10 band:N=5,W=4"

# run BIN DIR PROG PARAMS ARCH PES: one run into DIR; its exit status in DIR/rc
run() {
  local bin=$1 dir=$2 prog=$3 params=$4 arch=$5 pes=$6 args=()
  [ -f "$dir/rc" ] && return
  mkdir -p "$dir"
  for p in ${params//,/ }; do args+=(--param "$p"); done
  nice "$bin" run "$root/regress/programs/$prog.pla" --arch "$root/configs/$arch.ini" "${args[@]}" --pes "$pes" \
    --engine model --traces on-failure --out-dir "$dir" > "$dir/stdout.txt" 2> "$dir/stderr.txt"
  echo $? > "$dir/rc"
}

# ii DIR: the II summary.json reports, or -
ii() { grep -o '"ii": *[0-9]*' "$1/summary.json" 2>/dev/null | grep -o '[0-9]*$' || echo -; }

bad=0 same=0 better=0 smaller=0 nofit=0
for arch in $archs; do
  for pes in $regions; do
    for b in $benches; do
      prog=${b%%:*} params=${b#*:}
      id="$arch-$pes-$prog"
      run "$old" "$work/old/$id" "$prog" "$params" "$arch" "$pes"
      [ "$new" = - ] && continue
      run "$new" "$work/new/$id" "$prog" "$params" "$arch" "$pes"
      ro=$(cat "$work/old/$id/rc") rn=$(cat "$work/new/$id/rc")
      io=$(ii "$work/old/$id") in=$(ii "$work/new/$id")
      if [ "$ro" = 3 ] && [ "$rn" = 3 ]; then
        nofit=$((nofit + 1))
      elif [ "$ro" != "$rn" ]; then
        echo "DIFFERENT $id: exit $ro -> $rn (II $io -> $in)"
        [ "$ro" = 3 ] && [ "$rn" = 0 ] || bad=1
      elif cmp -s "$work/old/$id/config.bin" "$work/new/$id/config.bin"; then
        same=$((same + 1))
      elif [ "$io" != - ] && [ "$in" != - ] && [ "$in" -lt "$io" ]; then
        echo "II improved $id: II $io -> $in (exit $rn)"
        better=$((better + 1))
      elif [ "$io" = "$in" ] && [ "$rn" = 0 ] &&
           [ "$(stat -c %s "$work/new/$id/config.bin")" -lt "$(stat -c %s "$work/old/$id/config.bin")" ]; then
        echo "Smaller $id: II $in, stream $(stat -c %s "$work/old/$id/config.bin") -> $(stat -c %s "$work/new/$id/config.bin") bytes (fewer program words)"
        smaller=$((smaller + 1))
      else
        echo "DIFFERENT $id: stream differs at II $io -> $in (exit $ro -> $rn)"
        bad=1
      fi
    done
  done
done
echo "identical $same, II improved $better, smaller at the same II $smaller, does not fit (both) $nofit"
exit $bad
