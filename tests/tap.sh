# tap.sh: sourced by the test scripts tests/*.sh: the tcpa under test
# ($TCPA, default build/bin/tcpa), a temporary directory $tmp removed on
# exit, and the two ways of recording a TAP verdict. $n counts the checks,
# $fail is 1 once one failed.
TCPA=${TCPA:-build/bin/tcpa}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=0 fail=0

# Records check NAME ($1) as passed when the status $2 is 0.
check() {
  n=$((n + 1))
  if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi
}

# Records check NAME ($1) as passed when the shell expression $2 is true.
check_eval() {
  n=$((n + 1))
  if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi
}
