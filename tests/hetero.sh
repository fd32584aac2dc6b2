#!/usr/bin/env bash
# covers: docs/arch.md "Keys", docs/symbolic.md "What each step computes"
# hetero.sh: heterogeneous functional units (docs/arch.md) on
# configs/big1d.ini: several ALUs and multipliers, a divider, latencies
# other than 1. Prints TAP lines.
#   - big1d.ini is heterogeneous: >= 2 ALUs, >= 2 multipliers, a divider,
#     multiplier and divider latencies > 1 (read from `tcpa arch --dump`);
#   - for every benchmark that multiplies or divides, `tcpa compile` on
#     big1d.ini divides each unit class's operations by the configuration's
#     unit count (ResMII = max over classes of ceil(ops / units)), the II is
#     at least max(ResMII, RecMII), and the listing of a 1x2 instantiation
#     has instructions on at least ceil(ops / II) units of each class (one
#     unit issues at most II operations per iteration); some benchmark uses
#     two multipliers and some three ALUs;
#   - latencies enter the schedule: for a recurrence along a unit
#     dependence vector through exactly one multiplication (mulrec below)
#     or one division (gcd's `%`, jacobi's `/`), raising that unit's
#     latency by D raises RecMII by exactly D, and the RecMII is at least
#     that latency plus the ALU latency (the cycle also holds an addition
#     or a select); mulrec's II is its RecMII, above its ResMII;
#   - the benchmarks run on the C model (tcpa run --engine model, exit 0:
#     equal to the reference interpreter) on 1x1, 1x2, 1x3, 1x4 and 4x1, and
#     in the full tier a few in cosim (model = RTL = reference) on the
#     harness of big1d.ini (the harness cache builds it when missing).
set -u
. tests/tap.sh
BUILD=${BUILD:-build}
A=configs/big1d.ini

# Prints the value of KEY in section SEC of the dump of INI file $1.
ini_val() {
  "$TCPA" arch "$1" --dump | awk -v s="[$2]" -v k="$3" '/^\[/ { on = ($1 == s) } on && $1 == k { print $3; exit }'
}

# Writes to $2 the configuration $1 with latency.$3 set to $4.
with_latency() {
  "$TCPA" arch "$1" --dump | awk -v k="$3" -v v="$4" '
    /^\[/ { on = ($1 == "[latency]") } on && $1 == k { $3 = v } { print }' > "$2"
}

# compile PROG.pla ARCH: the compile output in $tmp/c.out, status returned.
compile() { "$TCPA" compile "$1" --arch "$2" -o "$tmp/c.sym" > "$tmp/c.out" 2> "$tmp/c.err"; }

# Prints field $1 (ResMII, RecMII, II) of the last compile.
field() {
  case $1 in
    ResMII) sed -n 's/^ResMII \([0-9]*\) .*/\1/p' "$tmp/c.out" ;;
    RecMII) sed -n 's/.*, RecMII \([0-9]*\),.*/\1/p' "$tmp/c.out" ;;
    II) sed -n 's/.*, RecMII [0-9]*, II \([0-9]*\).*/\1/p' "$tmp/c.out" ;;
  esac
}

# Prints "class ops units" per unit class of the last compile's ResMII line.
classes() {
  grep '^ResMII' "$tmp/c.out" | sed 's/^ResMII [0-9]* (\([^)]*\)).*/\1/' | tr ',' '\n' |
    sed -n -e 's/^ *\([a-z]*\): [0-9]* ops in \([0-9]*\) slots \/ \([0-9]*\) units/\1 \2 \3/p' \
      -e 's/^ *\([a-z]*\): \([0-9]*\) ops \/ \([0-9]*\) units/\1 \2 \3/p'
}

# --- the configuration ---------------------------------------------------
alu=$(ini_val $A pe alu) mul=$(ini_val $A pe mul) div=$(ini_val $A pe div)
lalu=$(ini_val $A latency alu) lmul=$(ini_val $A latency mul) ldiv=$(ini_val $A latency div)
[ "$alu" -ge 2 ] && [ "$mul" -ge 2 ] && [ "$div" -ge 1 ] && [ "$lmul" -gt 1 ] && [ "$ldiv" -gt 1 ]
check "$A is heterogeneous: alu $alu, mul $mul, div $div; latencies alu $lalu, mul $lmul, div $ldiv" $?
[ "$(ini_val configs/wide.ini latency alu)" -gt 1 ]
check "configs/wide.ini has an ALU latency above 1" $?

# Programs of our own: a recurrence through one multiplication (1-D,
# distance 1) and Horner's rule (the recurrence along the second dimension).
cat > "$tmp/mulrec.pla" <<'EOF'
// mulrec: h[i] = h[i-1] * x[i] + 1, h[0] = x[0] + 1.
program mulrec(N) {
  in  int32 x[N];
  out int32 y[N];
  par (0 <= i < N) {
    h[i] = x[i] + 1                  if (i == 0);
    h[i] = h[i-1] * x[i] + 1         if (i >= 1);
    y[i] = h[i];
  }
}
EOF
cat > "$tmp/horner.pla" <<'EOF'
// horner: y[i] = c[0] x^(M-1) + ... + c[M-1], x = x[i], by Horner's rule.
program horner(N, M) {
  in  int32 x[N], c[M];
  out int32 y[N];
  par (0 <= i < N, 0 <= j < M) {
    v[i,j] = x[i]                        if (j == 0);
    v[i,j] = v[i,j-1]                    if (j >= 1);
    k[i,j] = c[j]                        if (i == 0);
    k[i,j] = k[i-1,j]                    if (i >= 1);
    h[i,j] = k[i,j]                      if (j == 0);
    h[i,j] = h[i,j-1] * v[i,j] + k[i,j]  if (j >= 1);
    y[i]   = h[i,j]                      if (j == M-1);
  }
}
EOF

# Program file of benchmark $1.
cat > "$tmp/twomul.pla" <<'EOF'
// twomul: y[i] = a[i] * b[i] + c[i] * d[i]: two different products in one
// iteration (the benchmarks' products are one op each once equal
// subexpressions are shared, docs/symbolic.md), so two multipliers.
program twomul(N) {
  in  int32 a[N], b[N], c[N], d[N];
  out int32 y[N];
  par (0 <= i < N) {
    y[i] = a[i] * b[i] + c[i] * d[i];
  }
}
EOF
pla() { if [ -f "regress/programs/$1.pla" ]; then echo "regress/programs/$1.pla"; else echo "$tmp/$1.pla"; fi; }

# program|parameters (dimension 0 spans at least 4 PEs of p >= 2)
JOBS=(
  "gcd|N=9 S=5"
  "jacobi|T=8 N=9"
  "matmul|N=8 M=3 K=4"
  "fir|N=9 T=3"
  "dotprod|N=9"
  "conv|CO=8 R=2 C=2 CI=1 KR=2 KC=2"
  "trimv|N=6"
  "satarith|N=11"
  "mulrec|N=13"
  "horner|N=9 M=4"
  "twomul|N=9"
)

# --- unit counts: ResMII and the units that carry instructions ------------
two_mul=0 three_alu=0
for job in "${JOBS[@]}"; do
  prog=${job%%|*} ps=${job#*|}
  args=(); for p in $ps; do args+=(--param "$p"); done
  compile "$(pla $prog)" $A
  check "$prog: compiles on big1d.ini" $?
  cls=$(classes)
  # ResMII from the printed counts, and the counts are the configuration's.
  want=0 ok=0
  while read -r c ops units; do
    [ -n "$c" ] || continue
    [ "$units" -eq "$(ini_val $A pe "$c")" ] || ok=1
    r=$(( (ops + units - 1) / units )); [ $r -gt $want ] && want=$r
  done <<<"$cls"
  [ -n "$cls" ] && [ $ok -eq 0 ] && [ "$(field ResMII)" -eq $want ]
  st=$?
  check "$prog: ResMII $(field ResMII) = max ceil(slots/units) over $(echo $cls | tr '\n' ' ')" $st
  ii=$(field II) rec=$(field RecMII)
  [ "$ii" -ge "$(field ResMII)" ] && [ "$ii" -ge "$rec" ]
  check "$prog: II $ii >= max(ResMII, RecMII $rec)" $?
  rm -f "$tmp/c.lst"
  "$TCPA" instantiate "$tmp/c.sym" --arch $A "${args[@]}" --pes 1x2 -o "$tmp/c.bin" \
    --listing "$tmp/c.lst" > /dev/null 2> "$tmp/i.err"
  st=$?
  check "$prog $ps: instantiates on 1x2 with a listing (exit $st$(head -n 1 "$tmp/i.err" | sed 's/^/: /'))" $st
  [ $st -eq 0 ] || continue
  while read -r c ops units; do
    [ -n "$c" ] || continue
    used=$(grep -E "^    $c[0-9]+: .* words" "$tmp/c.lst" | awk '{ print $1 }' | sort -u | wc -l)
    need=$(( (ops + ii - 1) / ii ))
    [ "$used" -ge "$need" ] && [ "$used" -le "$units" ]
    check "$prog: $c: $ops ops at II $ii need >= $need of $units units, the listing uses $used" $?
    [ "$c" = mul ] && [ "$used" -ge 2 ] && two_mul=1
    [ "$c" = alu ] && [ "$used" -ge 3 ] && three_alu=1
  done <<<"$cls"
done
check "some benchmark has instructions on two multipliers" $((1 - two_mul))
check "some benchmark has instructions on three ALUs" $((1 - three_alu))

# --- latencies in the recurrence ------------------------------------------
# RecMII is the smallest II with no positive cycle of lat - II * s_lb(d)
# (docs/symbolic.md), and s_lb(d) = 1 for a unit dependence vector whatever
# the scan order. Each recurrence below is a unit vector through exactly one
# operation of UNIT: mulrec h[i-1] -> * -> + -> h[i]; gcd q[i,s-1] -> % ->
# ?: -> q[i,s]; jacobi u[t-1,i] -> + -> / -> u[t,i]. So raising UNIT's
# latency by 4 raises RecMII by exactly 4 once that cycle is the critical
# one, and RecMII >= UNIT's latency + the ALU latency.
# latency_slope PROG UNIT
latency_slope() {
  local prog=$1 unit=$2 lat r0 r1 st
  lat=$(ini_val $A latency "$unit")
  compile "$(pla $prog)" $A || { check "$prog: compiles" 1; return; }
  r0=$(field RecMII)
  [ "$r0" -ge $((lat + lalu)) ]
  check "$prog: RecMII $r0 >= latency.$unit $lat + latency.alu $lalu" $?
  with_latency $A "$tmp/lat.ini" "$unit" $((lat + 4))
  compile "$(pla $prog)" "$tmp/lat.ini"
  st=$?
  r1=$(field RecMII)
  [ $st -eq 0 ] && [ "$r1" -eq $((r0 + 4)) ]
  check "$prog: latency.$unit $lat -> $((lat + 4)) raises RecMII $r0 -> $r1 (+4)" $?
}
latency_slope mulrec mul
latency_slope gcd div
latency_slope jacobi div
compile "$tmp/mulrec.pla" $A
[ "$(field II)" -eq "$(field RecMII)" ] && [ "$(field RecMII)" -gt "$(field ResMII)" ]
st=$?
check "mulrec: the multiplier latency sets the II ($(field II) = RecMII > ResMII $(field ResMII))" $st

# --- the C model against the reference ------------------------------------
# run ENGINE PROG PES PARAMS...: tcpa run's exit status; $msg its verdict.
run() {
  local engine=$1 prog=$2 pes=$3; shift 3
  local args=() p st
  for p in "$@"; do args+=(--param "$p"); done
  rm -rf "$tmp/r"
  timeout 600 "$TCPA" run "$(pla $prog)" --arch $A --engine "$engine" --pes "$pes" "${args[@]}" \
    --out-dir "$tmp/r" > "$tmp/r.out" 2> "$tmp/r.err"
  st=$?
  msg="exit $st$(head -n 1 "$tmp/r.err" | sed 's/^/: /')"
  return $st
}
# the fast tier: a partial tile on a row; the full tier: all five
regions="1x3"
full_tier && regions="1x1 1x2 1x3 1x4 4x1"
for job in "${JOBS[@]}"; do
  prog=${job%%|*} ps=${job#*|}
  for pes in $regions; do
    # shellcheck disable=SC2086
    run model $prog $pes $ps
    check "model on big1d: $prog $ps on $pes equals the reference ($msg)" $?
  done
done

# --- cosim: model = RTL = reference ----------------------------------------
# (the full tier only: big1d's harness)
if ! full_tier; then
  :
elif ! RTLB=$(harness $A); then
  unbuilt "cosim on big1d"
else
  for job in "gcd 1x2 N=9 S=5" "jacobi 1x3 T=8 N=9" "matmul 1x4 N=8 M=3 K=4" "fir 4x1 N=9 T=3" \
             "mulrec 1x3 N=13" "horner 1x2 N=9 M=4" "dotprod 1x1 N=9"; do
    # shellcheck disable=SC2086
    set -- $job
    run cosim "$@"
    st=$?
    [ $st -eq 0 ] && [ -s "$tmp/r/rtl.trace" ] && [ ! -e "$tmp/r/divergence.txt" ] || st=1
    check "cosim on big1d: $* : model = RTL = reference ($msg)" $st
  done
fi
exit $fail
