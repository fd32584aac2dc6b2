# refcmp.sh: sourced by tests/programs.sh and tests/unseen.sh (after
# tap.sh, which gives $tmp): the comparison of what `tcpa run --out-dir`
# wrote with what tests/tools/refimpl wrote.

# ref_outputs_compare REFIMPL GOT WANT: 0 when every file REFIMPL wrote to
# WANT is in GOT with the same values (read through `REFIMPL --normalize`,
# so decimal and hexadecimal agree) and GOT has no other output; prints
# the first differences as TAP comments otherwise.
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
    [ -f "$want/$(basename "$f")" ] || { echo "#   unexpected output $(basename "$f")"; bad=1; }
  done
  return $bad
}
