#!/usr/bin/env bash
# bench_quality.sh: the mapping-quality table of `make bench`
# (docs/symbolic.md). For every benchmark in regress/programs/ and every configuration
# in configs/, `tcpa compile` (1xC region, dimension 0) gives the lowered
# equations and the ops per iteration they became (one op per variable and
# operation, forwarding, copies: docs/symbolic.md), ResMII (with the
# operations per unit class and, where ops of disjoint conditions share
# them, the slots), RecMII, the II reached and, when the II
# is above max(ResMII, RecMII), the reason the mapper printed after the II
# ("(no reason printed)" when it printed none), and the registers used per
# register class; `tcpa instantiate --listing` at a small representative
# parameter set on a 1x2 region gives the program-memory words of every
# functional unit of the largest processor class (the words of one FU
# program must fit pe.imem). A program that does not fit prints
# "does not fit: <resource>" from exit status 3 with the tool's message,
# saying whether it fails at a lower bound (`tcpa compile --bounds` marks
# a bound over the configuration: the architecture's) or above (the
# compiler's), docs/symbolic.md "Lower bounds".
# Four more columns (docs/symbolic.md "Mapping quality"): the ops per
# iteration before merging (one op per equation, as the mapping of before
# had it) and after it (the RDG operations left after one op per
# variable and operation, common subexpressions and output forwarding,
# without the mapper's copies; "L<n>" when the mapper fell back to rewrite
# level n), both from the "merging:" line of `tcpa compile`; the paper's pi
# beside our II; and the processor classes of the 1x2 instantiation with
# their kernel classes (summed over every FU program) beside the paper's
# processor classes. The paper's figures are its Table 1 (section 7,
# Witterauf et al., "Symbolic loop compilation for tightly coupled
# processor arrays"), kept in scripts/bench_paper.txt: pi, and the classes
# on 1, 16 and 32 PEs / 4x4, 8x8 and 32x32 regions; "-" where the paper has
# no such benchmark or region.
# A table, not an assertion: exits 0 unless the tools are missing.
#
# Environment: BUILD (default build), TCPA (default $BUILD/bin/tcpa).
set -u
BUILD=${BUILD:-build}
TCPA=${TCPA:-$BUILD/bin/tcpa}
PAPER=scripts/bench_paper.txt
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Representative parameters (dimension 0 spans both PEs of 1x2); a
# program not listed gets 8 for every parameter.
PARAMS=(
  "bitextract|N=13"
  "fir|N=9 T=3"
  "matmul|N=4 M=3 K=4"
  "conv|CO=4 R=2 C=2 CI=1 KR=2 KC=2"
  "trimv|N=6"
  "maxpool|R=4 C=4"
  "dotprod|N=10"
  "jacobi|T=4 N=6"
  "gcd|N=5 S=6"
  "editdist|N=4 M=5"
  "satarith|N=10"
  "band|N=5 W=4"
)

# Prints the parameters of program $1 (file $2): listed, or NAME=8 each.
params_of() {
  local c
  for c in "${PARAMS[@]}"; do [ "${c%%|*}" = "$1" ] && { echo "${c#*|}"; return; }; done
  sed -n 's/^ *program *[A-Za-z_0-9]* *(\([^)]*\)).*/\1/p' "$2" | head -n 1 | tr -d ' ' | tr ',' '\n' \
    | sed 's/$/=8/' | tr '\n' ' '
}

# Prints the first error line of $1 without the tool's prefixes.
errmsg() {
  head -n 1 "$1" | sed -e 's/^tcpa: error: //' -e 's/^instantiate: [^ ]*: //' -e 's/^[^ ]*\.pla: //' \
    -e 's/^does not fit: //'
}

# Prints "unit W ..." for the processor class with the most program words
# in listing $1, then the largest single FU program "max W (fu)".
imem_words() {
  awk '
    /^  class [0-9]+:/ { cls = $2; sub(":", "", cls) }
    /^    [a-z]+[0-9]+: .* words/ {
      fu = $1; sub(":", "", fu)
      for (i = 2; i <= NF; i++) if ($(i + 1) ~ /^words/) { w = $i; break }
      txt[cls] = txt[cls] sprintf("%s %d ", fu, w); tot[cls] += w
      if (w > max) { max = w; maxfu = fu }
    }
    END {
      best = ""; for (c in tot) if (best == "" || tot[c] > tot[best]) best = c
      if (best == "") { print "-"; exit }
      printf "%s(class %s); max %d (%s)", txt[best], best, max, maxfu
    }' "$1"
}

# Prints the paper's pi of program $1 (Table 1), or "-".
paper_pi() {
  awk -v p="$1" '$1 == "t1" && $2 == p { print $3; f = 1 } END { if (!f) print "-" }' "$PAPER" 2>/dev/null
}

# Prints the paper's processor classes of program $1 (Table 1) as
# "1,16,32/4x4,8x8,32x32" ("-" for a region it does not have), or "-".
paper_classes() {
  awk -v p="$1" '
    function cls(c) { return c == "-" ? "-" : substr(c, index(c, ":") + 1) }
    $1 == "t1" && $2 == p {
      printf "%s,%s,%s/%s,%s,%s\n", cls($4), cls($5), cls($6), cls($7), cls($8), cls($9); f = 1
    }
    END { if (!f) print "-" }' "$PAPER" 2>/dev/null | sed 's|/-,-,-$|/-|'
}

# Prints "P (K)" for listing $1: its processor classes and their kernel
# classes summed over every FU program; "-" without a listing.
classes_of() {
  awk '
    /^processor classes: [0-9]+/ { pc = $3 }
    /^    [a-z]+[0-9]+: [0-9]+ kernel classes/ { kc += $2 }
    END { if (pc == "") print "-"; else printf "%d (%d)\n", pc, kc }' "$1" 2>/dev/null
}

[ -x "$TCPA" ] || { echo "bench: $TCPA is not built (run make)" >&2; exit 2; }
echo "Mapping quality: tcpa compile (1xC, dimension 0) and tcpa instantiate --listing (1x2)"
echo
fmt="%-11s %-8s %-8s %-6s %-7s %-52s %-6s %-3s %-5s %-29s %-9s %-11s %s\n"
printf "$fmt" program config "eqs->ops" before after "ResMII (ops / units)" RecMII II "paper" \
  "registers used (rd fd id od)" "PCs (KCs)" "paper PCs" "program words per FU of a PE (of pe.imem)"
printf "$fmt" "" "" "" "(1/eq)" "(merge)" "" "" "" "pi" "" "on 1x2" "1,16,32/2-D" ""
mapped=0 atmii=0 nofit=0 nofit_at=0
for f in regress/programs/*.pla; do
  prog=$(basename "$f" .pla)
  ps=$(params_of "$prog" "$f")
  args=(); for p in $ps; do args+=(--param "$p"); done
  for cfg in configs/*.ini; do
    cname=$(basename "$cfg" .ini)
    out=$("$TCPA" compile "$f" --arch "$cfg" --bounds -o "$tmp/p.sym" 2>"$tmp/err"); rc=$?
    if [ $rc -ne 0 ]; then
      what="error (exit $rc)"
      if [ $rc -eq 3 ]; then # at a lower bound when --bounds marks one over the configuration
        nofit=$((nofit + 1)) what="does not fit (above its bounds)"
        grep -q '^  .* OVER  (' <<<"$out" && nofit_at=$((nofit_at + 1)) what="does not fit (at a lower bound)"
      fi
      printf "%-11s %-8s %s: %s\n" "$prog" "$cname" "$what" "$(errmsg "$tmp/err")"
      continue
    fi
    line=$(grep '^ResMII' <<<"$out" | head -n 1)
    res=$(sed -n 's/^ResMII \([0-9]*\) (\(.*\)), RecMII.*/\1 (\2)/p' <<<"$line" | sed 's/ ops \/ /\//g')
    rec=$(sed -n 's/.*RecMII \([0-9]*\),.*/\1/p' <<<"$line")
    ii=$(sed -n 's/.*RecMII [0-9]*, II \([0-9]*\).*/\1/p' <<<"$line")
    why=$(sed -n 's/.*RecMII [0-9]*, II [0-9]*: //p' <<<"$line")
    regs=$(grep '^registers:' <<<"$out" | sed -e 's/^registers: //' -e 's/;.*//' -e 's/,//g')
    ops=$(sed -n 's/^operations: \([0-9]*\) lowered equations -> \([0-9]*\) ops.*/\1->\2/p' <<<"$out")
    before=$(sed -n 's/^merging: \([0-9]*\) ops per iteration before.*/\1/p' <<<"$out")
    after=$(sed -n 's/^merging: .* before [^,]*, \([0-9]*\) after .*rewrite level \([0-9]*\)).*/\1 L\2/p' <<<"$out" \
      | sed 's/ L0$//')
    resmii=${res%% *}
    mii=$(( resmii > rec ? resmii : rec ))
    mapped=$((mapped + 1)); [ "$ii" -eq "$mii" ] && atmii=$((atmii + 1))
    lim=$("$TCPA" arch "$cfg" --dump 2>/dev/null | sed -n 's/^imem *= *\([0-9]*\).*/\1/p' | head -n 1)
    rm -f "$tmp/p.lst"
    if "$TCPA" instantiate "$tmp/p.sym" --arch "$cfg" "${args[@]}" --pes 1x2 -o "$tmp/p.bin" \
        --listing "$tmp/p.lst" >/dev/null 2>"$tmp/err"; then
      imem="$(imem_words "$tmp/p.lst") of ${lim:-?}"
      cls=$(classes_of "$tmp/p.lst")
    else
      rc=$?
      cls=-
      if [ $rc -eq 3 ]; then imem="does not fit: $(errmsg "$tmp/err")"
      else imem="error (exit $rc): $(errmsg "$tmp/err")"; fi
    fi
    printf "$fmt" "$prog" "$cname" "${ops:--}" "${before:--}" "${after:--}" "$res" "$rec" "$ii" "$(paper_pi "$prog")" \
      "$regs" "$cls" "$(paper_classes "$prog")" "$imem"
    if [ "$ii" -gt "$mii" ]; then
      printf "%-24s II %d > max(ResMII, RecMII) = %d: %s\n" "" "$ii" "$mii" "${why:-(no reason printed)}"
    fi
  done
done
echo
echo "$mapped mappings, $atmii of them at II = max(ResMII, RecMII); $nofit do not fit at compile time" \
  "($nofit_at at a lower bound: the architecture's; $((nofit - nofit_at)) above: the compiler's)"
echo "Parameters of the 1x2 instantiations: $(printf '%s; ' "${PARAMS[@]}" | tr '|' ' ')"
echo "before: ops per iteration with one op per equation; after: the RDG ops left after merging (one per"
echo "variable and operation, common subexpressions, output forwarding; Ln: the mapper fell back to rewrite"
echo "level n), eqs->ops adds the mapper's copies. paper pi and paper PCs: Table 1 of the paper"
echo "($PAPER): its pi, and its processor classes on 1, 16 and 32 PEs / 4x4, 8x8 and 32x32 regions"
echo "(its regions and bounds, not this table's 1x2: scripts/bench_tables.sh compares those region by"
echo "region). PCs (KCs): processor classes of the 1x2 instantiation (kernel classes of all FU programs)."
exit 0
