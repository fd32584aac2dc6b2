#!/usr/bin/env bash
# regress-slurm.sh: writes the Slurm batch files that run a regression as a
# job array of N shards and merge them (docs/regress.md "Beyond one
# machine"); with --submit it also submits them.
#
#   scripts/regress-slurm.sh [-n N] [-o OUT] [-c CPUS] [-t TIME] [-p PARTITION]
#                            [--submit] SUITE... [-- OPTION...]
#   scripts/regress-slurm.sh --explore [-n N] [-o OUT] ... -- EXPLORE-OPTION...
#
#   -n N          shards, the array's tasks 1..N (default 8)
#   -o OUT        output directory (default build/regress/<first suite>-slurm):
#                 OUT/shard-K-of-N per task, OUT/merged the merged report,
#                 OUT/slurm-*.log the jobs' logs
#   -c CPUS       --cpus-per-task, and `tcpa regress -j` (default 4)
#   -t TIME       --time per task (default 02:00:00)
#   -p PARTITION  --partition (default: the cluster's default)
#   --submit      sbatch the array, then the merge job after it
#                 (--dependency=afterany:ARRAY_JOB)
#   -- OPTION     passed to every `tcpa regress` (e.g. --timeout 600)
#   --explore     a design-space exploration instead (docs/explore.md "Several
#                 hosts"): task K runs `tcpa explore EXPLORE-OPTION... --shard
#                 K/N -j CPUS` (its points into the --out directory's cache, on
#                 the shared file system), the merge job `tcpa explore
#                 EXPLORE-OPTION...` (the answer, from the cache); OUT holds the
#                 batch files and logs only (default build/explore-slurm)
#
# Writes OUT/regress.sbatch (the array: task K runs `tcpa regress SUITE...
# --shard K/N --out-dir OUT/shard-K-of-N`; a task whose runs fail exits 0,
# so that the merge still runs; exit 2, invalid input, fails the task) and
# OUT/merge.sbatch (`tcpa regress --merge OUT/shard-*-of-N --out-dir
# OUT/merged`, whose exit status is the regression's). Both cd to this
# directory (absolute path) first: the cluster's nodes must see it (a shared
# file system). Prints the two sbatch commands. Environment: TCPA (default
# build/bin/tcpa; made absolute).
set -u
TCPA=${TCPA:-build/bin/tcpa}
usage() { sed -n '2,/^set -u/p' "$0" | sed -e '/^set -u/d' -e 's/^# \{0,1\}//' >&2; exit 2; }

n=8 out= cpus=4 time=02:00:00 part= submit=0 suites=() extra=() explore=0
while [ $# -gt 0 ]; do
  case $1 in
    -n) n=${2:?}; shift ;;
    -o) out=${2:?}; shift ;;
    -c) cpus=${2:?}; shift ;;
    -t) time=${2:?}; shift ;;
    -p) part=${2:?}; shift ;;
    --submit) submit=1 ;;
    --explore) explore=1 ;;
    -h|--help) usage ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "regress-slurm: unknown option '$1'" >&2; usage ;;
    *) suites+=("$1") ;;
  esac
  shift
done
if [ $explore -eq 1 ]; then
  [ ${#suites[@]} -eq 0 ] && [ ${#extra[@]} -gt 0 ] || usage
  suites=(explore)
fi
[ ${#suites[@]} -gt 0 ] || usage
for v in "$n" "$cpus"; do
  case $v in ''|*[!0-9]*|0) echo "regress-slurm: -n and -c take positive integers, got '$v'" >&2; exit 2 ;; esac
done
first=$(basename "${suites[0]}")
out=${out:-build/regress/${first%.suite}-slurm}
[ $explore -eq 1 ] && out=${out/#build\/regress\/explore-slurm/build\/explore-slurm}
mkdir -p "$out"
root=$PWD
case $TCPA in /*) ;; *) TCPA=$root/$TCPA ;; esac
case $out in /*) aout=$out ;; *) aout=$root/$out ;; esac

# Prints its arguments shell-quoted, separated by spaces.
quote() { local a s=""; for a in "$@"; do s+="$(printf '%q' "$a") "; done; printf '%s' "${s% }"; }

name=tcpa-regress-${first%.suite}
tmpf=$(mktemp "$out/.regress.sbatch.XXXXXX")
{
  echo "#!/bin/bash"
  echo "#SBATCH --job-name=$name"
  echo "#SBATCH --array=1-$n"
  echo "#SBATCH --cpus-per-task=$cpus"
  echo "#SBATCH --time=$time"
  echo "#SBATCH --output=$aout/slurm-%A_%a.log"
  [ -n "$part" ] && echo "#SBATCH --partition=$part"
  echo "# written by scripts/regress-slurm.sh: shard \$SLURM_ARRAY_TASK_ID of $n of $(quote "${suites[@]}")"
  echo "set -u"
  echo "cd $(quote "$root") || exit 2"
  echo "k=\${SLURM_ARRAY_TASK_ID:?not run as a Slurm array task}"
  if [ $explore -eq 1 ]; then
    echo "$(quote "$TCPA") explore $(quote "${extra[@]}") --shard \"\$k/$n\" -j \"\${SLURM_CPUS_PER_TASK:-$cpus}\" -q"
  else
    echo "$(quote "$TCPA") regress $(quote "${suites[@]}") --shard \"\$k/$n\" -j \"\${SLURM_CPUS_PER_TASK:-$cpus}\" \\"
    echo "  --out-dir $(quote "$aout")/shard-\"\$k\"-of-$n $(quote "${extra[@]+"${extra[@]}"}")"
  fi
  echo "st=\$?"
  echo "# runs that fail (1) are in the shard's report; invalid input (2) fails the task"
  echo "[ \$st -le 1 ]"
} >"$tmpf"
chmod +x "$tmpf"
mv "$tmpf" "$out/regress.sbatch"

tmpf=$(mktemp "$out/.merge.sbatch.XXXXXX")
{
  echo "#!/bin/bash"
  echo "#SBATCH --job-name=$name-merge"
  echo "#SBATCH --cpus-per-task=1"
  echo "#SBATCH --time=00:10:00"
  echo "#SBATCH --output=$aout/slurm-merge-%j.log"
  [ -n "$part" ] && echo "#SBATCH --partition=$part"
  echo "# written by scripts/regress-slurm.sh: merges the $n shards of $(quote "${suites[@]}")"
  echo "set -u"
  echo "cd $(quote "$root") || exit 2"
  if [ $explore -eq 1 ]; then
    echo "$(quote "$TCPA") explore $(quote "${extra[@]}")"
  else
    echo "dirs=()"
    echo "for k in \$(seq 1 $n); do dirs+=($(quote "$aout")/shard-\$k-of-$n); done"
    echo "$(quote "$TCPA") regress --merge \"\${dirs[@]}\" --out-dir $(quote "$aout")/merged"
  fi
} >"$tmpf"
chmod +x "$tmpf"
mv "$tmpf" "$out/merge.sbatch"

echo "wrote $out/regress.sbatch ($n array tasks) and $out/merge.sbatch"
if [ $submit -eq 1 ]; then
  command -v sbatch >/dev/null || { echo "regress-slurm: sbatch not found (Slurm is not installed here)" >&2; exit 2; }
  jid=$(sbatch --parsable "$out/regress.sbatch") || exit 2
  sbatch --dependency=afterany:"${jid%%;*}" "$out/merge.sbatch" || exit 2
else
  echo "submit with:"
  echo "  jid=\$(sbatch --parsable $out/regress.sbatch) && sbatch --dependency=afterany:\${jid%%;*} $out/merge.sbatch"
fi
