#!/usr/bin/env bash
# regress-parallel.sh: runs a regression as N shards with GNU parallel, on
# this machine or on several hosts (--sshlogin), and merges the shards'
# results into one report (docs/regress.md "Beyond one machine").
#
#   scripts/regress-parallel.sh [-n N] [-S LOGINS] [-o OUT] [--return] SUITE... [-- OPTION...]
#   scripts/regress-parallel.sh --explore [-n N] [-S LOGINS] -- EXPLORE-OPTION...
#
#   -n N        shards (default: 4, or the number of hosts in LOGINS times 2)
#   -S LOGINS   GNU parallel --sshlogin list, e.g. '4/alice@h1,4/h2,:' (':' is
#               this machine; 'K/' caps the shards run at once on a host).
#               Default ':' (this machine only, one shard at a time).
#   -o OUT      output directory (default build/regress/<first suite>-parallel):
#               OUT/shard-K-of-N per shard, OUT/merged the merged report
#   --return    the hosts do not share this directory: copy each shard's
#               output back (parallel --return) and remove it there
#   -- OPTION   passed to every `tcpa regress` (e.g. --timeout 300 -j 8)
#   --explore   a design-space exploration instead (docs/explore.md "Several
#               hosts"): shard K is `tcpa explore EXPLORE-OPTION... --shard K/N`
#               (its points into the --out directory's cache, which the hosts
#               must share), then `tcpa explore EXPLORE-OPTION...` here answers
#               from the cache (its exit status is the script's)
#
# Each shard is `tcpa regress SUITE... --shard K/N --out-dir OUT/shard-K-of-N`,
# run in this directory on every host (--workdir $PWD: the project must be
# checked out and built at the same path, or on a shared file system).
# Environment: TCPA (default build/bin/tcpa), passed to remote hosts with the
# TCPA_* variables (--env). Exit status: that of `tcpa regress --merge`
# (0 every run as expected, 1 otherwise); 2 on a usage error or when a
# shard wrote no summary.
set -u
TCPA=${TCPA:-build/bin/tcpa}
usage() { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2; exit 2; }

n= logins=: out= ret=0 suites=() extra=() explore=0
while [ $# -gt 0 ]; do
  case $1 in
    -n) n=${2:?}; shift ;;
    -S|--sshlogin) logins=${2:?}; shift ;;
    -o) out=${2:?}; shift ;;
    --return) ret=1 ;;
    --explore) explore=1 ;;
    -h|--help) usage ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "regress-parallel: unknown option '$1'" >&2; usage ;;
    *) suites+=("$1") ;;
  esac
  shift
done
[ ${#suites[@]} -gt 0 ] || [ $explore -eq 1 ] || usage
command -v parallel >/dev/null || { echo "regress-parallel: GNU parallel is not installed (scripts/setup.sh)" >&2; exit 2; }
[ -x "$TCPA" ] || { echo "regress-parallel: $TCPA is not built (make)" >&2; exit 2; }
if [ -z "$n" ]; then
  hosts=$(tr ',' '\n' <<<"$logins" | grep -c .)
  n=$(( hosts > 1 ? hosts * 2 : 4 ))
fi
case $n in ''|*[!0-9]*|0) echo "regress-parallel: -n: expected a positive integer, got '$n'" >&2; exit 2 ;; esac
envs=()
for v in TCPA $(compgen -v TCPA_); do envs+=(--env "$v"); done
if [ $explore -eq 1 ]; then
  [ ${#suites[@]} -eq 0 ] && [ ${#extra[@]} -gt 0 ] || usage
  parallel --will-cite -q -j 1 -S "$logins" --workdir "$PWD" "${envs[@]}" --tag --line-buffer \
    "$TCPA" explore "${extra[@]}" --shard "{}/$n" -q ::: $(seq 1 "$n") || exit 2
  exec "$TCPA" explore "${extra[@]}"
fi
first=$(basename "${suites[0]}")
out=${out:-build/regress/${first%.suite}-parallel}
mkdir -p "$out"
rm -rf "$out"/shard-*-of-* "$out/merged"

rflags=()
[ $ret -eq 1 ] && rflags=(--return "$out/shard-{}-of-$n" --cleanup)
# one shard per job; `tcpa regress` runs its shard's runs in parallel itself
parallel --will-cite -q -j 1 -S "$logins" --workdir "$PWD" "${envs[@]}" "${rflags[@]}" \
  --tag --line-buffer \
  "$TCPA" regress "${suites[@]}" --shard "{}/$n" --out-dir "$out/shard-{}-of-$n" "${extra[@]}" \
  ::: $(seq 1 "$n")
dirs=()
for k in $(seq 1 "$n"); do
  d=$out/shard-$k-of-$n
  [ -s "$d/summary.json" ] || { echo "regress-parallel: shard $k/$n wrote no $d/summary.json" >&2; exit 2; }
  dirs+=("$d")
done
"$TCPA" regress --merge "${dirs[@]}" --out-dir "$out/merged"
