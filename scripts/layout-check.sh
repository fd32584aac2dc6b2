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
#   cmodel/            common
#   tb/                common, cmodel
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

folders="common compiler/front compiler/interp compiler/map compiler/inst compiler/asm cmodel tb regress cli"
declare -A allowed=(
  [common]="common"
  [compiler/front]="common compiler/front"
  [compiler/interp]="common compiler/front compiler/interp"
  [compiler/map]="common compiler/front compiler/map"
  [compiler/inst]="common compiler/front compiler/map compiler/inst"
  [compiler/asm]="common compiler/front compiler/asm"
  [cmodel]="common cmodel"
  [tb]="common cmodel tb"
  [regress]="common compiler/front compiler/interp compiler/map compiler/inst compiler/asm cmodel tb regress"
  [cli]="$folders"
)

for d in $folders; do
  [ -d "$d" ] || { echo "layout-check: folder $d is missing in $root" >&2; exit 2; }
done
# Any C or C++ source directly in compiler/ (not in a stage's subfolder)
# is a layout error of its own.
stray=$(find compiler -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \) | sort)

# Returns (prints) the folder whose file x is, searched beside `self` first.
owner() {
  local self=$1 x=$2 d
  if [ -f "$self/$x" ]; then echo "$self"; return; fi
  for d in $folders; do
    if [ -f "$d/$x" ]; then echo "$d"; return; fi
  done
}

bad=0 files=0 incs=0
for f in $stray; do
  echo "$f: a source file directly in compiler/; it belongs in one stage's folder" >&2
  bad=$((bad + 1))
done
for d in $folders; do
  # (common/gen/: the programs printing the copies of common's contracts,
  # held to common's rule)
  for f in $(find "$d" -maxdepth 2 -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) | sort); do
    self=$(dirname "$f")
    files=$((files + 1))
    while IFS=: read -r line x; do
      incs=$((incs + 1))
      o=$(owner "$self" "$x")
      [ -n "$o" ] || continue
      [ "$o" = "$self" ] && continue
      case " ${allowed[$d]} " in *" $o "*) continue ;; esac
      echo "$f:$line: $d/ must not include \"$x\" (found in $o/; README.md \"Layout\")" >&2
      bad=$((bad + 1))
    done < <(awk '/^[ \t]*#[ \t]*include[ \t]*"/ {
               s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); print FNR ":" s }' "$f")
  done
done
if [ "$bad" -gt 0 ]; then
  echo "layout-check: $bad include(s) against the layout in $files files" >&2
  exit 1
fi
echo "layout-check: $files files, $incs project includes, every one in the layout's direction"
