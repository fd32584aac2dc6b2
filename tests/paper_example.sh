#!/usr/bin/env bash
# covers: docs/instantiate.md "The paper's running example",
#   docs/symbolic.md "What each step computes"
# paper_example.sh: the paper's running example (bit extraction, sections
# 4-6 of Witterauf et al., "Symbolic loop compilation for tightly coupled
# processor arrays"; docs/instantiate.md "The paper's running example")
# through this project's compiler on configs/default.ini: `tcpa compile`
# of regress/programs/bitextract.pla and `tcpa instantiate` at the paper's
# N = 16 on 3 PEs (p = 6, t = 3, its Figure 5). Prints TAP lines.
#
# What agrees with the paper, asserted as such: the four equations become
# the paper's three instructions (its PST, section 5.5): `move` (one `mov`
# for both cases of x), `shri` and `andi` (this ISA writes them `shr` and
# `and` with an immediate source, #1; docs/isa.md); pi = II = 2; p = 6;
# the registers of its Figures 3 and 7 (x in rd0, y in fd0, the channel od0,
# bits od1: `mov rd0, id0`, `shr fd0, rd0, #1`, `and od1, rd0, #1`, and
# `shr od0, rd0, #1` at j = p - 1); the kernel classes of the FU that runs
# the shift, {j = 0}, {1 <= j <= 4}, {j = 5}, with the branch out of the
# loop at j = 4 on a signal that is 1 at j = 4 (its Figure 7's cs1); its
# 2 processor classes, {k < 2} and {k = 2}: the first PE reads the input v
# through the channel's id0 as the paper does (docs/symbolic.md
# "Registers"), so it runs the second PE's words and the two are one
# class (inst_classes_merge, docs/instantiate.md).
#
# What differs, asserted as it is now so that a change shows (each check
# says "differs from the paper"):
#   - the schedule: `mov` on alu0 at tau 0 as in the paper, but `shr` on
#     alu0 at tau 1 and `and` on alu1 at tau 1, where the paper has `shri`
#     at tau 1 and `andi` at tau 2 both on alu1; so nothing folds, and the
#     shift's FU has no epilog kernel class (the paper's fourth class of
#     alu1, {j = 6} by its method, {j = 5} as it prints it; test_inst_classes.c).
set -u
. tests/tap.sh
sym=$tmp/be.sym lst=$tmp/be.lst
out=$($TCPA compile regress/programs/bitextract.pla --arch configs/default.ini -o "$sym"); st=$?
check "bitextract compiles on configs/default.ini (exit $st)" $st

# --- the three instructions -------------------------------------------------
ops=$(sed -n 's/^op [0-9]* node [0-9-]* \([a-z]*\) [0-9] var .* tau \([0-9]*\) fu \([0-9]*\) dst \([^ ]*\) .*/\1 tau\2 fu\3 \4/p' "$sym")
check_eval "4 equations -> 3 instructions, the paper's move, shri and andi: mov, shr, and (got: $(echo $ops))" \
  '[ "$(grep -c "^op " "$sym")" -eq 3 ] && [ "$(echo "$ops" | cut -d" " -f1 | sort | tr "\n" " ")" = "and mov shr " ] &&
   echo "$out" | grep -q "^merging: 4 ops per iteration before (one per equation), 3 after "'
check_eval "shri and andi: shr and and read the immediate 1 (their srcB)" \
  'grep -q "^leaf fu [0-9] tau [0-9] op [0-9] shr srcB # 1 " "$sym" && grep -q "^leaf fu [0-9] tau [0-9] op [0-9] and srcB # 1 " "$sym"'
check_eval "move: one mov over both cases of x (input v at i = 0, y[i-1] after)" \
  '[ "$(grep -c "^leaf .* mov srcA " "$sym")" -eq 3 ] && grep -q "^leaf .* mov srcA id0 0 \"\[N\] -> { \[i = 0\]" "$sym"'
check_eval "pi = 2 as in the paper (II 2, ResMII 2, RecMII 2)" \
  'echo "$out" | grep -q "^ResMII 2 (alu: 3 ops / 2 units), RecMII 2, II 2$"'
check_eval "move on alu0 at tau 0 into rd0, as in the paper" 'echo "$ops" | grep -qx "mov tau0 fu0 rd0"'
check_eval "differs from the paper (shri alu1 tau 1, andi alu1 tau 2): shr on alu0 at tau 1, and on alu1 at tau 1" \
  'echo "$ops" | grep -qx "shr tau1 fu0 fd0" && echo "$ops" | grep -qx "and tau1 fu1 -"'

# --- instantiation at the paper's N = 16 on 3 PEs ----------------------------
res=$($TCPA instantiate "$sym" --arch configs/default.ini --param N=16 --pes 1x3 -o "$tmp/be.bin" --listing "$lst"); st=$?
check "instantiate N=16 on 1x3 (exit $st)" $st
check_eval "p = 6 on t = 3 PEs, pi = 2 (the paper's Figure 5)" \
  'echo "$res" | grep -q "region 1x3, 3 PEs used, p = 6, II 2," && grep -q "^schedule: pi = 2," "$lst"'

# Prints the lines of FU $2 of processor class $1 of the listing.
fu_block() {
  awk -v c="  class $1:" -v f="    $2:" '
    index($0, "  class ") == 1 { in_c = index($0, c) == 1 }
    /^    [a-z]+[0-9]+:/ { in_f = in_c && index($0, f) == 1 }
    /^[a-z]/ { in_c = 0; in_f = 0 }
    in_f' "$lst"
}
a0=$(fu_block 0 alu0) a1=$(fu_block 0 alu1)
check_eval "the paper's instructions with its registers (Figures 3, 7): mov rd0, id0; shr fd0, rd0, #1; and od1, rd0, #1; shr od0, rd0, #1" \
  'echo "$a0" | grep -q " mov rd0, id0$" && echo "$a0" | grep -q " shr fd0, rd0, #1" &&
   echo "$a0" | grep -q " shr od0, rd0, #1" && echo "$a1" | grep -q " and od1, rd0, #1"'
check_eval "the kernel classes of the shift (alu0 of class 0): {j = 0}, {1 <= j <= 4}, {j = 5}" \
  'echo "$a0" | grep -q "^    alu0: 3 kernel classes, epilog 0," && echo "$a0" | grep -qx "      q0 = { \[j0 = 0\] }" &&
   echo "$a0" | grep -q "^      q1 = { \[j0\] : 0 < j0 <= 4 }  signals c0$" && echo "$a0" | grep -qx "      q2 = { \[j0 = 5\] }"'
check_eval "the loop is left at j = 4 (the paper's q2 -> q3), on a signal 1 at j = 4 only (its cs1)" \
  'echo "$a0" | grep -q "^        -> q2 (index 1) after { \[j0 = 4\] }$" &&
   grep -q "^  c0 = 1 on { \[j0 = 4\] }, 0 on { \[j0\] : 0 < j0 <= 3 }$" "$lst"'
check_eval "differs from the paper (its fourth kernel class, the epilog of andi at tau 2): nothing folds, epilog 0" \
  '! echo "$a0$a1" | grep -q "epilog [1-9]"'
check_eval "2 processor classes as in the paper, {k < 2} and {k = 2} (3 by Algorithm 1 before merging equal programs)" \
  'echo "$res" | grep -q ", 2 processor classes," && grep -qx "  class 0: PEs { \[k0\] : 0 <= k0 <= 1 }" "$lst" &&
   grep -qx "  class 1: PEs { \[k0 = 2\] }" "$lst" &&
   grep -q "^processor classes: 2 (from [0-9]* inter-tile domains; 3 before merging classes with equal programs)$" "$lst"'
b0=$(fu_block 1 alu0)
check_eval "both classes read x's first value through id0, as the paper: v on k = 0, the channel on k > 0" \
  'echo "$a0" | grep -q " mov rd0, id0$" && echo "$b0" | grep -q " mov rd0, id0$" && ! grep -q "id1" "$lst"'
exit $fail
