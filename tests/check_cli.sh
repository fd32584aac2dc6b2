#!/usr/bin/env bash
# covers: docs/user-guide.md "tcpa check", docs/language.md "The five rules"
# check_cli.sh: `tcpa check` end to end: the summary line of the spec's two
# examples, --dot output, --help, unknown options, missing and unreadable
# files, and binary junk. Prints TAP lines.
set -u
. tests/tap.sh
cat > "$tmp/bits.pla" <<'PLA'
// bits[i] = (v >> i) & 1 for 0 <= i < N
program bitextract(N) {
  in  int32 v;                 // a scalar input
  out int32 bits[N];
  par (0 <= i < N) {
    x[i]    = v        if (i == 0);
    x[i]    = y[i-1]   if (i >= 1);
    y[i]    = x[i] >> 1;
    bits[i] = x[i] & 1;
  }
}
PLA
cat > "$tmp/matmul.pla" <<'PLA'
program matmul(N, M, K) {
  in  int32 A[N, K], B[K, M];
  out int32 C[N, M];
  par (0 <= i < N, 0 <= j < M, 0 <= k < K) {
    a[i,j,k] = A[i,k]                       if (j == 0);
    a[i,j,k] = a[i,j-1,k]                   if (j >= 1);
    b[i,j,k] = B[k,j]                       if (i == 0);
    b[i,j,k] = b[i-1,j,k]                   if (i >= 1);
    c[i,j,k] = a[i,j,k] * b[i,j,k]          if (k == 0);
    c[i,j,k] = c[i,j,k-1] + a[i,j,k] * b[i,j,k] if (k >= 1);
    C[i,j]   = c[i,j,k]                     if (k == K-1);
  }
}
PLA
out=$("$TCPA" check "$tmp/bits.pla" 2>"$tmp/err"); rc=$?
check_eval "bitextract: exit 0" '[ $rc -eq 0 ]'
check_eval "bitextract: summary line" '[ "$out" = "$tmp/bits.pla: OK (4 equations, 4 operations, 1-D iteration space, 1 parameter)" ]'
check_eval "bitextract: nothing on stderr" '[ ! -s "$tmp/err" ]'
out=$("$TCPA" check "$tmp/matmul.pla" 2>/dev/null); rc=$?
check_eval "matmul: summary line" '[ $rc -eq 0 ] && [ "$out" = "$tmp/matmul.pla: OK (7 equations, 8 operations, 3-D iteration space, 3 parameters)" ]'
"$TCPA" check "$tmp/bits.pla" --dot >"$tmp/dot" 2>/dev/null; rc=$?
check_eval "--dot: exit 0" '[ $rc -eq 0 ]'
check_eval "--dot: a digraph with 4 boxes, a circle and d=(1)" \
  '[ "$(grep -c "shape=box, label=" "$tmp/dot")" -eq 4 ] && grep -q "shape=circle" "$tmp/dot" && grep -q "d=(1)" "$tmp/dot" && tail -n 1 "$tmp/dot" | grep -q "^}$"'
check_eval "--dot: no summary line" '! grep -q "OK (" "$tmp/dot"'
if command -v dot >/dev/null 2>&1; then
  check_eval "--dot: Graphviz accepts it" 'dot -Tsvg "$tmp/dot" >/dev/null 2>&1'
fi
"$TCPA" check --help >"$tmp/out" 2>&1; rc=$?
check_eval "--help: exit 0 and usage" '[ $rc -eq 0 ] && grep -q "usage: tcpa check" "$tmp/out"'
"$TCPA" check "$tmp/bits.pla" --frobnicate >"$tmp/out" 2>"$tmp/err"; rc=$?
check_eval "unknown option: exit 2, named" '[ $rc -eq 2 ] && grep -q "unknown option '"'"'--frobnicate'"'"'" "$tmp/err"'
"$TCPA" check >/dev/null 2>"$tmp/err"; rc=$?
check_eval "no program: exit 2" '[ $rc -eq 2 ] && grep -q "no program given" "$tmp/err"'
"$TCPA" check "$tmp/missing.pla" >/dev/null 2>"$tmp/err"; rc=$?
check_eval "missing file: exit 2, named" '[ $rc -eq 2 ] && grep -q "cannot read '"'"'$tmp/missing.pla'"'"'" "$tmp/err"'
head -c 3000 /dev/urandom > "$tmp/junk.pla" 2>/dev/null || printf 'junk\001\002' > "$tmp/junk.pla"
timeout 10 "$TCPA" check "$tmp/junk.pla" >/dev/null 2>"$tmp/err"; rc=$?
check_eval "binary junk: exit 2 with an error" '[ $rc -eq 2 ] && grep -q "error:" "$tmp/err"'
for cut in 40 100 200 300; do
  head -c $cut "$tmp/matmul.pla" > "$tmp/cut.pla"
  timeout 10 "$TCPA" check "$tmp/cut.pla" >/dev/null 2>"$tmp/err"; rc=$?
  check_eval "matmul cut at $cut bytes: exit 2 with file:line:col" '[ $rc -eq 2 ] && grep -q "^$tmp/cut.pla:[0-9]*:[0-9]*: error: " "$tmp/err"'
done
