#!/usr/bin/env bash
# covers: README.md "Layout"
# layout_check.sh: the include-direction check (scripts/layout-check.sh,
# README.md "Layout"): the tree passes it; a scratch copy of the source
# folders with one include against the layout added fails it, naming the
# file, the line and the folder the header lives in, for each of the
# dependencies the layout forbids (table below: the including file and the
# header it must not include); a source file put directly into compiler/
# fails it too. Prints TAP.
cd "$(dirname "$0")/.." || exit 2
source tests/tap.sh

out=$(bash scripts/layout-check.sh 2>&1); st=$?
check "the tree includes only in the layout's direction ($out)" $st

# file | header it must not include | the folder that header is in
cases="common/arch.c|ast.h|compiler/front
common/stream.c|model.h|cmodel
compiler/front/parse.c|map.h|compiler/map
compiler/map/map.c|inst.h|compiler/inst
compiler/inst/inst_run.c|interp.h|compiler/interp
cmodel/model.c|inst.h|compiler/inst
cmodel/model_load.c|engine.h|tb
tb/engine_model.c|ast.h|compiler/front
tb/lockstep.c|engine_flow.h|regress
tb/engine_model.c|tcpa_rt.h|runtime
runtime/rt_engine.c|engine_flow.h|regress
regress/engine_run.c|cli.h|cli"
while IFS='|' read -r file header owner; do
  rm -rf "$tmp/src" && mkdir -p "$tmp/src"
  cp -r common compiler cmodel tb runtime regress cli "$tmp/src/"
  line=$(($(wc -l < "$tmp/src/$file") + 1))
  echo "#include \"$header\"" >> "$tmp/src/$file"
  msg=$(bash scripts/layout-check.sh "$tmp/src" 2>&1 >/dev/null); st=$?
  check_eval "$file including $header ($owner/) fails, named at $file:$line" \
    '[ $st -eq 1 ] && [[ "$msg" == *"$file:$line: "*"\"$header\" (found in $owner/"* ]]'
done <<< "$cases"

rm -rf "$tmp/src" && mkdir -p "$tmp/src" && cp -r common compiler cmodel tb runtime regress cli "$tmp/src/"
echo 'int x;' > "$tmp/src/compiler/stray.c"
msg=$(bash scripts/layout-check.sh "$tmp/src" 2>&1 >/dev/null); st=$?
check_eval "a file directly in compiler/ fails" '[ $st -eq 1 ] && [[ "$msg" == *"compiler/stray.c: a source file directly in compiler/"* ]]'
exit $fail
