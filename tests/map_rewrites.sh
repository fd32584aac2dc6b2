#!/usr/bin/env bash
# covers: docs/symbolic.md "What each step computes",
#   "One instruction per variable and operation", "Output forwarding",
#   "Operand forwarding", "Destinations per condition space",
#   "shared slots", "Re-reading propagated inputs"
# map_rewrites.sh: each rewrite of the symbolic mapper that `tcpa compile
# --disable LIST` switches off (docs/symbolic.md: cse, forward, dests,
# share, reread) makes a mapping better on a case of its own, so that a
# rewrite that stops working fails here: the same program compiled with
# and without the rewrite, the figure the rewrite improves strictly
# better with it (table below: the II, the ops per iteration, the writer
# copies, or fitting at all), and the rest of the mapping valid
# (`tcpa compile` exits 0 and prints its figures). TAP.
set -u
. "$(dirname "$0")/tap.sh"

# compile PROG ARCH [DISABLE]: compiles, the figures in $tmp/c.out;
# returns tcpa compile's exit status.
compile() {
  "$TCPA" compile "regress/programs/$1.pla" --arch "configs/$2.ini" ${3:+--disable "$3"} \
    -o "$tmp/c.sym" >"$tmp/c.out" 2>&1
}

# figure WHAT: the figure WHAT of the last compile (empty when it does
# not fit): ii (the II), resmii (ResMII), ops (ops per iteration), writers (writer copies),
# alu_slots (ALU slots, the ALU ops when none are shared).
figure() {
  case $1 in
    ii) sed -n 's/^ResMII .*, II \([0-9]*\).*/\1/p' "$tmp/c.out" ;;
    resmii) sed -n 's/^ResMII \([0-9]*\) .*/\1/p' "$tmp/c.out" ;;
    ops) sed -n 's/^operations: .* -> \([0-9]*\) ops per iteration.*/\1/p' "$tmp/c.out" ;;
    writers) sed -n 's/^copies: \([0-9]*\) writer.*/\1/p' "$tmp/c.out" ;;
    alu_slots) sed -n -e 's/^ResMII [0-9]* (alu: [0-9]* ops in \([0-9]*\) slots.*/\1/p' \
      -e 's/^ResMII [0-9]* (alu: \([0-9]*\) ops \/.*/\1/p' "$tmp/c.out" ;;
  esac
}

# rewrite program arch figure: the figure is lower with the rewrite on
# (the mapping as tcpa compiles it) than with it off (--disable).
cases=(
  "cse matmul big1d ops"          # `a * b` of c at k = 0 and of c.t1 at k >= 1: one mul
  "cse matmul big1d resmii"
  "forward matmul big1d writers"  # the mul reads the movs' sources: no writer copy
  "forward matmul big1d resmii"
  "dests matmul big1d ops"        # c's mul writes the fd at k = 0, an rd at k >= 1
  "share maxpool default ii"      # ops of disjoint conditions in one ALU slot
  "share maxpool default alu_slots"
  "share dotprod default ii"
)
for c in "${cases[@]}"; do
  read -r rw prog arch fig <<<"$c"
  compile "$prog" "$arch"; on_st=$?; on=$(figure "$fig")
  compile "$prog" "$arch" "$rw"; off_st=$?; off=$(figure "$fig")
  [ $on_st -eq 0 ] && [ $off_st -eq 0 ] && [ -n "$on" ] && [ -n "$off" ] && [ "$on" -lt "$off" ]
  check "$rw: $prog on $arch.ini: $fig $on with it, ${off:-?} with --disable $rw (exit $on_st, $off_st)" $?
done

# reread: conv on default.ini fits only with its propagated inputs read
# again (3 fds; 4 are needed without, pe.fd = 4 and the rest of the
# mapping takes one)
compile conv default; on_st=$?; on=$(sed -n 's/^registers: .*fd \([0-9]*\)\/.*/\1/p' "$tmp/c.out")
compile conv default reread; off_st=$?
[ $on_st -eq 0 ] && [ $off_st -eq 3 ] && grep -q "does not fit" "$tmp/c.out"
ok=$?; check "reread: conv on default.ini fits with it (exit $on_st, fd $on), not with --disable reread (exit $off_st: $(grep -o 'does not fit.*' "$tmp/c.out" | cut -c1-60))" $ok

# every rewrite name is known; an unknown one is exit 2 naming the known
"$TCPA" compile regress/programs/fir.pla --disable cse,forward,dests,share,reread -o "$tmp/all.sym" >/dev/null 2>&1
check "--disable with every rewrite at once compiles fir (exit $?)" $?
"$TCPA" compile regress/programs/fir.pla --disable frob -o "$tmp/x.sym" >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -q "frob" "$tmp/err" && grep -q "reread" "$tmp/err"
check "--disable frob: exit 2 ($st) naming it and the known rewrites" $?
exit $fail
