#!/usr/bin/env bash
# covers: docs/language.md "The five rules", "Lexical rules",
#   docs/arch.md "Errors"
# golden.sh: the error corpus. Every regress/errors/pla/X.pla is given to
# `tcpa check`, every regress/errors/arch/X.ini to `tcpa arch`; the exit
# status and stderr must equal X.expected, whose first line is `exit: N`
# and whose rest is the expected stderr, byte for byte. Also checks that no
# case crashes (signal) or hangs (10 s timeout). Prints TAP lines.
set -u
TCPA=${TCPA:-build/bin/tcpa}
n=0; trap 'echo "1..$n"' EXIT  # the TAP plan, at the end
for f in regress/errors/pla/*.pla regress/errors/arch/*.ini; do
  [ -e "$f" ] || continue
  case "$f" in *.pla) cmd=check ;; *) cmd=arch ;; esac
  exp="${f%.*}.expected"
  n=$((n + 1))
  if [ ! -f "$exp" ]; then
    echo "not ok $n - $f: no golden file $exp"; continue
  fi
  got=$(timeout 10 "$TCPA" "$cmd" "$f" 2>&1 >/dev/null); rc=$?
  want_rc=$(head -n 1 "$exp" | sed 's/^exit: //')
  want=$(tail -n +2 "$exp")
  if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ]; then
    echo "ok $n - $f"
  else
    echo "not ok $n - $f (exit $rc, want $want_rc)"
    diff <(echo "$want") <(echo "$got") | sed 's/^/#   /' | head -20
  fi
done
# Regenerate a golden file after a deliberate change of message:
#   f=regress/errors/pla/X.pla; { echo "exit: $(build/bin/tcpa check $f 2>/dev/null; echo $?)"; build/bin/tcpa check $f 2>&1 >/dev/null; } > ${f%.pla}.expected
