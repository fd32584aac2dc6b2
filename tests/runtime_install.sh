#!/usr/bin/env bash
# covers: docs/runtime.md "Building a host program" "A whole host program"
# runtime_install.sh: a host program built against the INSTALLED runtime,
# as a team outside this tree would: `make install PREFIX=$tmp/prefix`,
# then the host program of docs/runtime.md ("A whole host program", taken
# from the document itself) and examples/matmul_sizes.c compiled with
# nothing but the installed header, libraries and pkg-config file, and
# run on a .sym tcpa compile made. TAP.
# Environment: TCPA (default build/bin/tcpa), BUILD (default build).
set -u
. tests/tap.sh
pre=$tmp/prefix

make --no-print-directory -s install PREFIX="$pre" BUILD="${BUILD:-build}" >"$tmp/make.out" 2>&1
st=$?; check "make install PREFIX=... ($(tail -1 "$tmp/make.out"))" $st
for f in include/tcpa_rt.h lib/libtcpa_rt.a lib/libtcpa.a lib/pkgconfig/tcpa_rt.pc; do
  [ -s "$pre/$f" ]; check "installed: $f" $?
done
flags=$(PKG_CONFIG_PATH="$pre/lib/pkgconfig" pkg-config --cflags --libs tcpa_rt 2>"$tmp/pc.err")
check_eval "pkg-config names the installed runtime ($flags$(cat "$tmp/pc.err"))" \
  "[[ '$flags' == *'-I$pre/include'* && '$flags' == *'-ltcpa_rt'* ]]"

# the document's host program, compiled in a directory of its own
mkdir -p "$tmp/host" && cd "$tmp/host" || exit 2
awk '/^```c$/ { on = 1; next } on && /^```$/ { exit } on' "$OLDPWD/docs/runtime.md" > host.c
check_eval "docs/runtime.md holds a host program" "grep -q tcpa_rt_open host.c"
cc -std=c11 -Wall -Wextra -Werror host.c -o host $flags 2>"$tmp/cc.err"
st=$?; check "the document's host program compiles against the installed header and libraries ($(head -3 "$tmp/cc.err"))" $st
"$TCPA" compile "$OLDPWD/regress/programs/matmul.pla" -o matmul.sym >/dev/null
./host >"$tmp/host.out" 2>"$tmp/host.err"
st=$?
check_eval "it runs: exit 0, C[0][0] printed ($(cat "$tmp/host.out" "$tmp/host.err" | head -2))" \
  "[ $st -eq 0 ] && grep -q '^C\[0\]\[0\] = [-0-9]* after [0-9]* cycles' '$tmp/host.out'"
# C[0][0] = sum_k A[0][k] B[k][0] with A[i] = i, B[i] = 64 - i over 8x8
want=0; for k in 0 1 2 3 4 5 6 7; do want=$((want + k * (64 - 8 * k))); done
check_eval "its C[0][0] is $want" "grep -q '^C\[0\]\[0\] = $want ' '$tmp/host.out'"

cp "$OLDPWD/examples/matmul_sizes.c" "$OLDPWD/examples/example.h" .
cc -std=c11 -Wall -Wextra -Werror matmul_sizes.c -o matmul_sizes $flags 2>"$tmp/cc.err"
st=$?; check "examples/matmul_sizes.c compiles against the installed runtime ($(head -3 "$tmp/cc.err"))" $st
./matmul_sizes matmul.sym "$OLDPWD/regress/programs/matmul.pla" >"$tmp/ms.out" 2>&1
st=$?; check "and passes ($(tail -1 "$tmp/ms.out"))" $st
exit $fail
