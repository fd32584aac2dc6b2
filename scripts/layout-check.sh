#!/usr/bin/env bash
# layout-check.sh: the include-direction check of README.md "Layout" (make
# layout-check, run by make test). Each folder of the C/C++ sources may
# include only from itself and from the folders it depends on:
#
#   common/            nothing else: the contracts (docs/arch.md, isa.md,
#                      stream.md, trace.md) and their support
#   compiler/front/    common
#   compiler/interp/   common, front
#   compiler/map/      common, front
#   compiler/inst/     common, front, map
#   compiler/asm/      common, front
#   compiler/dfg/      common (DSAGEN's DFG files -> loop program text)
#   compiler/host/     common, front, map, inst (host programs, tcpa host)
#   cmodel/            common
#   tb/                common, cmodel
#   runtime/           common, compiler/*, cmodel, tb
#   regress/           all of the above
#   cli/               all of the above and regress
#
# Every `#include "x"` of a file is resolved as the compiler resolves it:
# beside the file first, then in the folders of the build's -I list; an
# include found in no project folder (a generated header such as
# tcpa_params.h or Vtcpa_top.h, a library's) is not the layout's business.
# Usage: layout-check.sh [ROOT] (default: the repository). Prints each
# violation as FILE:LINE: FOLDER must not include X (found in FOLDER2) and
# exits 1 when there is one; 0 and a one-line summary otherwise.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2

folders="common compiler/front compiler/interp compiler/map compiler/inst compiler/asm compiler/dfg compiler/host cmodel tb runtime regress cli"
declare -A allowed=(
  [common]="common"
  [compiler/front]="common compiler/front"
  [compiler/interp]="common compiler/front compiler/interp"
  [compiler/map]="common compiler/front compiler/map"
  [compiler/inst]="common compiler/front compiler/map compiler/inst"
  [compiler/asm]="common compiler/front compiler/asm"
  [compiler/dfg]="common compiler/dfg"
  [compiler/host]="common compiler/front compiler/map compiler/inst compiler/host"
  [cmodel]="common cmodel"
  [tb]="common cmodel tb"
  [runtime]="common compiler/front compiler/interp compiler/map compiler/inst compiler/asm cmodel tb runtime"
  [regress]="common compiler/front compiler/interp compiler/map compiler/inst compiler/asm compiler/dfg compiler/host cmodel tb runtime regress"
  [cli]="$folders"
)

for d in $folders; do
  [ -d "$d" ] || { echo "layout-check: folder $d is missing in $root" >&2; exit 2; }
done
# Any C or C++ source directly in compiler/ (not in a stage's subfolder)
# is a layout error of its own.
stray=$(find compiler -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \) | sort)

# One awk pass over every source (a process per include was most of the
# check's time): the first input lists every file of the folders, so an
# include is resolved beside its file first, then in the folders' order.
srcs=()
for d in $folders; do
  # (common/gen/: the programs printing the copies of common's contracts,
  # held to common's rule)
  while IFS= read -r f; do srcs+=("$f"); done < <(find "$d" -maxdepth 2 -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) | sort)
done
known=$(mktemp) && trap 'rm -f "$known"' EXIT
find $folders -type f >"$known"
allow=
for d in $folders; do allow="$allow$d=${allowed[$d]};"; done
for f in $stray; do
  echo "$f: a source file directly in compiler/; it belongs in one stage's folder" >&2
done
res=$(awk -v known="$known" -v folders="$folders" -v allow="$allow" -v bad="$(echo $stray | wc -w)" '
  BEGIN {
    nf = split(folders, F, " ")
    n = split(allow, A, ";")
    for (i = 1; i <= n; i++) if (A[i] != "") { k = A[i]; sub(/=.*/, "", k); v = A[i]; sub(/^[^=]*=/, "", v); ok[k] = " " v " " }
  }
  FILENAME == known { exists[$0] = 1; next }
  FNR == 1 {
    self = FILENAME; sub(/\/[^\/]*$/, "", self)
    dir = ""
    for (i = 1; i <= nf; i++) if (index(FILENAME, F[i] "/") == 1 && length(F[i]) > length(dir)) dir = F[i]
  }
  /^[ \t]*#[ \t]*include[ \t]*"/ {
    x = $0; sub(/^[^"]*"/, "", x); sub(/".*/, "", x)
    incs++
    o = ""
    if ((self "/" x) in exists) o = self
    else for (i = 1; i <= nf && o == ""; i++) if ((F[i] "/" x) in exists) o = F[i]
    if (o == "" || o == self || index(ok[dir], " " o " ")) next
    printf "%s:%d: %s/ must not include \"%s\" (found in %s/; README.md \"Layout\")\n", FILENAME, FNR, dir, x, o > "/dev/stderr"
    bad++
  }
  END { print bad + 0, incs + 0 }' "$known" "${srcs[@]}")
read -r bad incs <<<"$res"
files=${#srcs[@]}
if [ "$bad" -gt 0 ]; then
  echo "layout-check: $bad include(s) against the layout in $files files" >&2
  exit 1
fi
echo "layout-check: $files files, $incs project includes, every one in the layout's direction"
