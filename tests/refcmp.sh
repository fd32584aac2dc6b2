# refcmp.sh: sourced by tests/programs.sh, tests/unseen.sh,
# tests/engine_cli.sh and tests/systemc_cli.sh (after $tmp is set): the
# comparison of the outputs `tcpa run --out-dir` wrote (DIR/NAME.txt: the
# chosen engine's values, docs/user-guide.md) with what tests/tools/refimpl
# wrote from the same inputs.

# ref_outputs_compare REFIMPL GOT WANT: 0 when every file REFIMPL wrote to
# WANT is in GOT with the same values (read through `REFIMPL --normalize`,
# so decimal and hexadecimal agree) and GOT has no other output; prints
# the first differences as TAP comments otherwise. GOT's diff.txt,
# divergence.txt and divergence-insn.txt (a failed run's reports, the save
# file's instruction filter) are not outputs unless WANT has
# them too.
ref_outputs_compare() {
  local ref=$1 got=$2 want=$3 f name bad=0
  for f in "$want"/*.txt; do
    name=$(basename "$f")
    if [ ! -f "$got/$name" ]; then
      echo "#   output $name missing from tcpa's --out-dir"; bad=1; continue
    fi
    if ! diff <("$ref" --normalize "$f" 2>&1) <("$ref" --normalize "$got/$name" 2>&1) >"$tmp/diff"; then
      echo "#   $name differs (line k = element k-1; < refimpl, > tcpa):"
      head -n 8 "$tmp/diff" | sed 's/^/#     /'
      bad=1
    fi
  done
  for f in "$got"/*.txt; do
    name=$(basename "$f")
    [ -f "$want/$name" ] && continue
    case $name in diff.txt | diff-outputs.txt | divergence.txt | divergence-insn.txt) continue ;; esac
    echo "#   unexpected output $name"; bad=1
  done
  return $bad
}

# ref_outputs_engine DIR: prints whose values DIR/NAME.txt hold, from
# DIR/summary.json's outputs.engine ("model", "rtl", "ref"; empty: none).
ref_outputs_engine() {
  sed -n '/^  "outputs": {/,/^  }/s/^    "engine": "\([a-z]*\)",\{0,1\}$/\1/p' "$1/summary.json" 2>/dev/null | head -n 1
}

# ref_param_args ARGS...: prints the --param arguments among ARGS (for
# refimpl's command line).
ref_param_args() {
  local prev=
  for a in "$@"; do
    [ "$prev" = --param ] && printf -- '--param %s ' "$a"
    prev=$a
  done
}
