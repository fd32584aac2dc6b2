#!/usr/bin/env bash
# covers: docs/symbolic.md "fd chains", "What fits"
# fd_chain.sh: fd chains (compiler/inst/inst_chain.c, docs/symbolic.md
# "Registers" and "What fits"): a loop-carried value whose fd would need
# more than pe.fd_depth words is split over two fds chained by a `mov` in
# a free ALU slot, so that matmul N = M = K = 32 runs on 4x4 of
# configs/default.ini (the paper-size run; it exited 3, "fd2 needs depth
# 65", before).
#   - fast tier: matmul 8^3 on 2x2 of default.ini with pe.fd_depth = 8
#     (the same shape of delay, 16 iterations) runs in the model against
#     the reference, with two fds of 8 words in its listing, mapped
#     padded at the second attempt (summary.json: the padded mapping is
#     tried right after the unpadded one's fd too deep, before the
#     conservative levels); `tcpa
#     instantiate` of the .sym as compiled (accumulation not padded: two
#     producers of c, four fds) exits 3 naming the fd a chain would need;
#   - full tier: matmul 32^3 on 4x4 of default.ini, --map 0,1, in the model
#     and in cosim (model and RTL traces compared), fds 32 + 32 in the
#     listing, every fd within pe.fd_depth.
# Prints TAP.
set -u
. tests/tap.sh

MM=regress/programs/matmul.pla
sed 's/^fd_depth = 32 /fd_depth = 8  /' configs/default.ini > "$tmp/fd8.ini"
check_eval "the fd_depth 8 configuration is written" "grep -q '^fd_depth = 8 ' $tmp/fd8.ini"

# fd_within LST MAX: every fd depth of listing LST is <= MAX, and two are MAX
fd_within() {
  grep '^fd depths:' "$1" | tr ' ' '\n' | awk -F= -v m="$2" '/^fd[0-9]+=/ { if ($2 > m) bad = 1; if ($2 == m) full++ }
    END { exit (bad || full < 2) }'
}

$TCPA run $MM --arch "$tmp/fd8.ini" --pes 2x2 --map 0,1 --param N=8 --param M=8 --param K=8 --engine model \
  --out-dir "$tmp/m8" > "$tmp/m8.out" 2>&1
check "matmul 8^3 on 2x2 with pe.fd_depth 8 (model = reference): exit 0" $?
grep -q '"map_padded": true' "$tmp/m8/summary.json" && grep -q '"map_attempts": 2,' "$tmp/m8/summary.json" &&
  grep -q '"map_level": 0,' "$tmp/m8/summary.json"
ok=$?; check "matmul 8^3: padded at the second attempt, level 0 ($(grep -o '"map_[a-z]*": [a-z0-9]*' "$tmp/m8/summary.json" | tr '\n' ' '))" $ok
fd_within "$tmp/m8/config.lst" 8
ok=$?; check "matmul 8^3: fds within 8 words, the chained pair 8 + 8 ($(grep '^fd depths' "$tmp/m8/config.lst"))" $ok

$TCPA compile $MM --arch "$tmp/fd8.ini" --map 0,1 -o "$tmp/m8.sym" > /dev/null 2>&1
check "matmul compiles for 2x2 with pe.fd_depth 8" $?
$TCPA instantiate "$tmp/m8.sym" --arch "$tmp/fd8.ini" --param N=8 --param M=8 --param K=8 --pes 2x2 \
  -o "$tmp/m8.bin" > "$tmp/inst.out" 2>&1
st=$?
check_eval "unpadded (four fds): exit 3, no fd left for a chain ($(tail -1 "$tmp/inst.out"))" \
  "[ $st -eq 3 ] && grep -q 'chain of two fds needs one more fd' $tmp/inst.out"

if full_tier; then
  for eng in model cosim; do
    $TCPA run $MM --pes 4x4 --map 0,1 --param N=32 --param M=32 --param K=32 --engine $eng \
      --out-dir "$tmp/m32$eng" > "$tmp/m32$eng.out" 2>&1
    check "matmul 32^3 on 4x4 of default.ini ($eng): exit 0, verdict pass" $?
  done
  grep -q 'traces agree' "$tmp/m32cosim.out"
  check "matmul 32^3 cosim: model and RTL traces agree" $?
  fd_within "$tmp/m32model/config.lst" 32
  ok=$?; check "matmul 32^3: fds within 32 words, the chained pair 32 + 32 ($(grep '^fd depths' "$tmp/m32model/config.lst"))" $ok
fi

exit $fail
