# fst_events.awk: checks trace events against a VCD (fst2vcd of the
# model's or the RTL's FST). Input 1: the trace; input 2: the VCD. Cycle t
# runs from VCD time t0 + t*P (its rising edge) to t0 + (t+1)*P, the clock
# low from t0 + t*P + P/2, t0 and P from the trace's `# fst t0=T period=P`
# line (the RTL harness writes it; without it 0 and 1000, the model's 1 ns
# per cycle: docs/trace.md "Time of a cycle in the FST"). For
# `wr R,C F REG V` at cycle t: bit F of dbg_wr_o is 1 and slice F of
# dbg_wr_val_o is V at mid-cycle t0 + t*P + P/2; when REG is rdK,
# u_regfile.rd_q[K] at the next edge t0 + (t+1)*P equals V; when odK,
# od_q[K] there equals V (the higher FU's write of a cycle wins, as in the
# RTL); for `issue R,C F P` at cycle t: bit F of dbg_issue_o is 1 and slice
# F of dbg_pc_o is P at mid-cycle. Signal names
# are the RTL's (docs/rtl.md "Signal names"). Prints "checked N bad M" and
# the first bad ones.
function hex2bin(h,   s, i, d, b, k) {
  h = tolower(substr(h, 3)); s = ""
  for (i = 1; i <= length(h); i++) {
    d = index("0123456789abcdef", substr(h, i, 1)) - 1; b = ""
    for (k = 0; k < 4; k++) { b = (d % 2) b; d = int(d / 2) }
    s = s b
  }
  return s
}
function norm(b) { sub(/^0+/, "", b); return b == "" ? "0" : b }
# one expected value: bits lo..lo+w-1 of signal `name` at time t (a later
# expectation of the same bits at the same time replaces an earlier one)
function want(t, name, lo, w, bits,   k) {
  k = t SUBSEP name SUBSEP lo
  if (!(k in qi)) { nq++; qi[k] = nq; qt[nq] = t; qn[nq] = name; ql[nq] = lo; qw[nq] = w }
  qv[qi[k]] = bits
}
function slice(v, width, lo, w) {  # bits lo..lo+w-1 of v (MSB first, width bits)
  while (length(v) < width) v = "0" v
  return substr(v, width - lo - w + 1, w)
}
function settle(T,   i, id, v) {
  for (i = 1; i <= nq; i++) {
    if (qt[i] != T) continue
    id = ids[qn[i]]
    if (id == "") { bad++; if (bad <= 3) print "no signal " qn[i]; continue }
    v = norm(slice(cur[id], width[id], ql[i], qw[i]))
    checked++
    if (v != norm(qv[i])) { bad++; if (bad <= 3) print "time " T ": " qn[i] "[" ql[i] "+:" qw[i] "] = " v ", expected " norm(qv[i]) }
  }
}
FNR == NR {
  if (!per) per = 1000
  if ($1 == "#" && $2 == "fst") for (i = 3; i <= NF; i++) {
    if ($i ~ /^t0=/) t0 = substr($i, 4) + 0
    if ($i ~ /^period=/) per = substr($i, 8) + 0
  }
  if ($0 ~ /^#/) next
  split($3, rc, ","); pe = "TOP.tcpa_top.g_row[" rc[1] "].g_col[" rc[2] "].u_pe."
  mid = t0 + $1 * per + int(per / 2); edge = t0 + ($1 + 1) * per
  if ($2 == "wr") { want(mid, pe "dbg_wr_o", $4, 1, "1"); want(mid, pe "dbg_wr_val_o", 32 * $4, 32, hex2bin($6)) }
  if ($2 == "wr" && $5 ~ /^rd/) want(edge, pe "u_regfile.rd_q[" substr($5, 3) + 0 "]", 0, 32, hex2bin($6))
  if ($2 == "wr" && $5 ~ /^od/) want(edge, pe "od_q[" substr($5, 3) + 0 "]", 0, 32, hex2bin($6))
  if ($2 == "issue") {
    want(mid, pe "dbg_issue_o", $4, 1, "1")
    p = $5 + 0; s = ""; for (k = 0; k < 8; k++) { s = (p % 2) s; p = int(p / 2) }
    want(mid, pe "dbg_pc_o", 8 * $4, 8, s)
  }
  next
}
$1 == "$scope" { sc[++d] = $3 }
$1 == "$upscope" { d-- }
$1 == "$var" { n = sc[1]; for (i = 2; i <= d; i++) n = n "." sc[i]; n = n "." $5; ids[n] = $4; width[$4] = $3; cur[$4] = "0" }
/^#[0-9]/ { if (started) settle(T); T = substr($1, 2) + 0; started = 1; next }
/^b/ { cur[$2] = substr($1, 2); next }
/^[01xz]/ && started { cur[substr($1, 2)] = substr($1, 1, 1) }
END { settle(T); print "checked " checked + 0 " bad " bad + 0 }
