#!/usr/bin/env bash
# covers: docs/user-guide.md "summary.json", docs/symbolic.md "What fits"
# nofit_sweep.sh: every no-fit message can be acted on. Every benchmark of
# regress/programs/ (the parameters of regress/suites/full) runs with
# `tcpa run --engine model` on each configs/*.ini (nightly tier; the full
# tier: default, big1d and unseen-2x3) and region 1x1, 1x4,
# 2x2, 4x4 (the fast tier: configs/default.ini on 2x2 and 4x4, where 5 of
# the 12 do not fit; on big1d.ini every one fits now); for each run
# that exits 3, every item of summary.json's no-fit record has needed and
# available numbers and a configuration key, or is a property of the
# program (resource enable_form, start_delay, tile_size, cfg_successors:
# no key sizes them). TAP.
. tests/tap.sh
if nightly_tier; then cfgs=(configs/*.ini) regions=(1x1 1x4 2x2 4x4)
elif full_tier; then cfgs=(configs/default.ini configs/big1d.ini configs/unseen-2x3.ini) regions=(1x1 1x4 2x2 4x4); else cfgs=(configs/default.ini) regions=(2x2 4x4); fi
nofit=0
while read -r _ prog rest; do
  ps=()
  for kv in $rest; do ps+=(--param "$kv"); done
  for cfg in "${cfgs[@]}"; do
    for pes in "${regions[@]}"; do
      d=$tmp/$prog-$(basename "$cfg" .ini)-$pes
      mkdir -p "$d"
      "$TCPA" run "regress/programs/$prog.pla" "${ps[@]}" --arch "$cfg" --pes "$pes" --engine model --out-dir "$d" \
        >/dev/null 2>&1
      [ $? -eq 3 ] || continue
      nofit=$((nofit + 1))
      bad=$(python3 - "$d/summary.json" <<'PY'
import json, sys
prop = {"enable_form", "start_delay", "tile_size", "cfg_successors"}
for r in json.load(open(sys.argv[1]))["nofit"]:
    if r["needed"] is None or r["available"] is None or not (r["key"] or r["resource"] in prop):
        print(r["resource"], repr(r["key"]), r["needed"], r["available"])
PY
      )
      check_eval "$prog on $pes of $(basename "$cfg"): every no-fit item has a key (or is the program's) and counts${bad:+ ($bad)}" \
        '[ -z "$bad" ]'
    done
  done
done < <(grep '^run' regress/suites/full | head -12)
check_eval "some runs do not fit ($nofit)" '[ $nofit -gt 0 ]'
exit $fail
