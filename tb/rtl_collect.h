// rtl_collect.h: the trace-event extraction shared by the two harnesses of
// the Verilated TCPA, tcpa-rtl (tb/rtl_main.cpp, the plain C++ model) and
// tcpa-sc (tb/sc_main.cpp, the same RTL built with verilator --sc).
//
// Every cycle a harness settles tcpa_top with the clock low (the state at
// the start of the cycle, the events of the cycle on the dbg_* ports) and
// calls rtl_collect_pe and rtl_collect_ag for every PE; they turn the ports
// into trace.md events (rtl_event, below) and form the faults that are
// relations between events (wconflict, underflow, overflow, stray, agmiss,
// agrange). Event and fault kinds, their order and their names are those of
// common/trace.h and trace.c, through the header generated from them,
// tcpa_trace_events.h (common/gen/gen_trace_events.c, docs/trace.md). Each
// event holds its fields as numbers, an rtl_record: the layout of
// trace.h's trace_event, which is also the record of the binary event
// stream (docs/trace.md "Binary event stream"); its text is formed only
// when a text trace is written (rtl_event_append, the canonical text of
// trace.c). The harness sorts the events of a cycle canonically
// (rtl_event_sort) before it writes them. The loader's error names come from
// common/stream.c through the generated tcpa_stream_errors.h
// (common/gen/gen_stream_errors.c). rtl_collect_state_pe and rtl_collect_gc
// add the state events of docs/trace.md ("State events"), each only when
// its state changed (rtl_collect_state keeps the last values), and
// rtl_collect_mark_written / rtl_collect_mem the `mem` lines of the done
// cycle. After the done cycle's clock edge, rtl_collect_leftover adds
// `leftover` for every non-empty FIFO. rtl_bank_files_write writes the
// bank dump files of --dump-banks.
//
// Port access goes through rtl_port_bits, overloaded for what Verilator
// generates: integral fields and VlWide in a --cc model; sc_in/sc_out
// ports holding bool, uint32_t, uint64_t or sc_bv<N> in a --sc model
// (VM_SC, set by Verilator's makefile). Sizes come from tcpa_params.h.
// The one-bit event ports (issue, halt, write-back, pops, pushes, fd
// reads, hops, bank accesses, AG faults, register-file write enables) are
// read PE by PE as one mask each (rtl_port_mask), and only their set slots
// are visited, in the same order as a full scan: a quiet PE costs a few
// extractions, not one per FU, register, port and bank.
#ifndef TCPA_RTL_COLLECT_H
#define TCPA_RTL_COLLECT_H

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include <sys/stat.h>

#include "Vtcpa_top.h"
#include "tcpa_params.h"
#include "tcpa_stream_errors.h"
#include "tcpa_trace_events.h"

// Returns the name of fault kind f ("underflow", ...).
inline const char *rtl_fault_name(trace_fault_kind f) {
  return trace_events_fault_name(f);
}

const char rtl_collect_sides[] = "nesw";

// The most register writes of a PE in one cycle: each FU writes one rd/fd
// and up to 8 od registers.
#define ISA_WRITES_MAX ((TCPA_PE_ALU + TCPA_PE_MUL + TCPA_PE_DIV) * 9)

// The register classes of the records (isa_cls of common/isa.h).
enum { RTL_CLS_RD = 1, RTL_CLS_FD = 2, RTL_CLS_ID = 3, RTL_CLS_OD = 4 };

// One event's fields as numbers: the layout of trace_event (common/trace.h)
// and the record of the binary event stream (docs/trace.md "Binary event
// stream"), little-endian, 120 bytes; fields not of the event's kind are 0.
struct rtl_record {
  uint64_t cycle;
  int32_t kind, row, col;       // row, col -1: the whole machine (`-`)
  int32_t fu, pc, reg_cls, reg_idx, side, port, bank_write;
  uint32_t addr, value, num, word[4];
  int32_t fault;
  char detail[32];              // fault: NUL-terminated
  uint64_t cycles;              // done
};
static_assert(sizeof(rtl_record) == 120 && offsetof(rtl_record, detail) == 80 &&
                  offsetof(rtl_record, cycles) == 112,
              "rtl_record is not the binary record of docs/trace.md");

// One trace event as the harness collects it: kind (trace_kind), PE (row
// -1: the whole machine, `-`), two sort keys, and its fields as numbers.
// Plain data: a cycle's vector is cleared without a destructor per event.
struct rtl_event {
  int kind, row, col, k1, k2; /* row -1: the whole machine (`-`) */
  rtl_record rec;
};
static_assert(std::is_trivially_destructible<rtl_event>::value, "rtl_event holds plain data");

// Returns a reference to a new event of ev with its fields zero but kind
// and place (set the rest through its rec).
inline rtl_record &rtl_event_add(std::vector<rtl_event> &ev, int kind, int row, int col, int k1,
                                 int k2) {
  ev.emplace_back();  // value-initialised: every field zero
  rtl_event &e = ev.back();
  e.kind = kind, e.row = row, e.col = col, e.k1 = k1, e.k2 = k2;
  e.rec.kind = kind, e.rec.row = row, e.rec.col = col;
  return e.rec;
}

// Returns a new fault event of ev (fault kind f) with detail printf'd from
// fmt; sets *fault.
inline void rtl_event_fault(std::vector<rtl_event> &ev, int row, int col, bool *fault,
                            trace_fault_kind f, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
inline void rtl_event_fault(std::vector<rtl_event> &ev, int row, int col, bool *fault,
                            trace_fault_kind f, const char *fmt, ...) {
  rtl_record &x = rtl_event_add(ev, TRACE_FAULT, row, col, 0, 0);
  x.fault = f;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(x.detail, sizeof x.detail, fmt, ap);
  va_end(ap);
  if (fault) *fault = true;
}

// Returns the text of the fields of record x (after PLACE, without the
// leading space): the canonical text of trace.c's trace_event_format.
inline std::string rtl_record_fields(const rtl_record &x) {
  static const char *const reg[] = {"??", "rd", "fd", "id", "od"};
  const char *rp = reg[(unsigned)x.reg_cls < 5 ? x.reg_cls : 0];
  const char sd = rtl_collect_sides[x.side & 3];
  char s[96];
  s[0] = 0;
  switch (x.kind) {
  case TRACE_SIG: snprintf(s, sizeof s, "0x%08x", x.value); break;
  case TRACE_ISSUE: snprintf(s, sizeof s, "%d %d", x.fu, x.pc); break;
  case TRACE_HALT: snprintf(s, sizeof s, "%d", x.fu); break;
  case TRACE_STEP: snprintf(s, sizeof s, "%u", x.num); break;
  case TRACE_GC: snprintf(s, sizeof s, "%u 0x%08x", x.num, x.value); break;
  case TRACE_INSN:
    snprintf(s, sizeof s, "%d 0x%08x%08x%08x%08x", x.fu, x.word[3], x.word[2], x.word[1], x.word[0]);
    break;
  case TRACE_FLAG: snprintf(s, sizeof s, "%d %u", x.fu, x.value); break;
  case TRACE_RF:
  case TRACE_POP:
  case TRACE_FDRD:
  case TRACE_PUSH: snprintf(s, sizeof s, "%s%d 0x%08x", rp, x.reg_idx, x.value); break;
  case TRACE_FIFO: snprintf(s, sizeof s, "%s%d %u", rp, x.reg_idx, x.num); break;
  case TRACE_BANKWR:
  case TRACE_MEM: snprintf(s, sizeof s, "%c %d %u 0x%08x", sd, x.port, x.addr, x.value); break;
  case TRACE_AG: snprintf(s, sizeof s, "%c %d %u", sd, x.port, x.addr); break;
  case TRACE_WR: snprintf(s, sizeof s, "%d %s%d 0x%08x", x.fu, rp, x.reg_idx, x.value); break;
  case TRACE_HOP: snprintf(s, sizeof s, "%c %d 0x%08x", sd, x.port, x.value); break;
  case TRACE_BANK:
    snprintf(s, sizeof s, "%c %d %s %u 0x%08x", sd, x.port, x.bank_write ? "wr" : "rd", x.addr, x.value);
    break;
  case TRACE_FAULT: snprintf(s, sizeof s, "%s %.31s", rtl_fault_name((trace_fault_kind)x.fault), x.detail); break;
  case TRACE_RDONE:
  case TRACE_DONE: snprintf(s, sizeof s, "%llu", (unsigned long long)x.cycles); break;
  default: break;
  }
  return s;
}

// Returns the rank of event kind k in the table's order of trace.md: rstart
// first, rdone just before done (their numbers are appended to trace_kind,
// not in sort order).
inline uint64_t rtl_event_rank(int k) {
  if (k == TRACE_RSTART) return 0;
  if (k == TRACE_RDONE) return (uint64_t)TRACE_DONE + 1;
  if (k == TRACE_DONE) return (uint64_t)TRACE_DONE + 2;
  return (uint64_t)k + 1;
}

// Returns the sort key of event e in one number: event kind in the
// table's order (rtl_event_rank), row, column (the machine, `-`, and a GC
// place, row -2 and column G, after every PE; GCs by G), first key
// (FU, register, side: below 2^16), second key (destination order of wr,
// port or bank, a bank word: below 2^24).
inline uint64_t rtl_event_key(const rtl_event &e) {
  static_assert((uint64_t)TCPA_IOBUF_BANKS * TCPA_IOBUF_DEPTH < (1u << 24), "bank words exceed the sort key");
  uint64_t row = e.row < 0 ? TCPA_ARRAY_ROWS : (uint64_t)e.row, col = e.col < 0 ? 0 : (uint64_t)e.col;
  static_assert(TCPA_ARRAY_COLS >= 1, "a GC place needs its column");
  uint64_t place = (rtl_event_rank(e.kind) * (TCPA_ARRAY_ROWS + 1) + row) * (TCPA_ARRAY_COLS + 4) + col;
  return place << 40 | (uint64_t)(e.k1 & 0xffff) << 24 | (uint64_t)(e.k2 & 0xffffff);
}

// Returns whether a sorts before b among events of the same key: only
// faults share a key (their kind's name, then their detail, as text).
inline bool rtl_event_tie_less(const rtl_event &a, const rtl_event &b) {
  if (a.kind != TRACE_FAULT) return false;
  int c = strcmp(rtl_fault_name((trace_fault_kind)a.rec.fault), rtl_fault_name((trace_fault_kind)b.rec.fault));
  return c ? c < 0 : strcmp(a.rec.detail, b.rec.detail) < 0;
}

// Writes into ord the indexes of the events of one cycle in the canonical
// order of trace.md (rtl_event_key, then rtl_event_tie_less, then as
// collected): sorting (key, index) pairs, not the events. The collectors
// go PE by PE, the order kind by kind: the pairs grouped by kind (a stable
// counting sort) are nearly in order and an insertion sort finishes them
// (std::sort past a budget of moves); the order is the same, as pairs never
// compare equal.
inline void rtl_event_order(const std::vector<rtl_event> &ev, std::vector<std::pair<uint64_t, uint32_t>> &ord) {
  auto less = [&ev](const std::pair<uint64_t, uint32_t> &a, const std::pair<uint64_t, uint32_t> &b) {
    if (a.first != b.first) return a.first < b.first;
    if (rtl_event_tie_less(ev[a.second], ev[b.second])) return true;
    if (rtl_event_tie_less(ev[b.second], ev[a.second])) return false;
    return a.second < b.second;
  };
  const int nk = 64; // kinds below this are grouped
  size_t n = ev.size(), at[nk + 1] = {0}, budget = 8 * n;
  ord.resize(n);
  bool grouped = true;
  for (size_t i = 0; i < n; i++) {
    if (ev[i].kind < 0 || ev[i].kind >= nk) grouped = false;
    else at[ev[i].kind + 1]++;
  }
  if (!grouped) {
    for (size_t i = 0; i < n; i++) ord[i] = {rtl_event_key(ev[i]), (uint32_t)i};
    std::sort(ord.begin(), ord.end(), less);
    return;
  }
  for (int k = 1; k <= nk; k++) at[k] += at[k - 1];
  for (size_t i = 0; i < n; i++) ord[at[ev[i].kind]++] = {rtl_event_key(ev[i]), (uint32_t)i};
  for (size_t i = 1; i < n; i++) {
    if (!less(ord[i], ord[i - 1])) continue;
    std::pair<uint64_t, uint32_t> x = ord[i];
    size_t j = i;
    for (; j > 0 && budget && less(x, ord[j - 1]); j--, budget--) ord[j] = ord[j - 1];
    ord[j] = x;
    if (!budget) {
      std::sort(ord.begin(), ord.end(), less);
      return;
    }
  }
}

// Sorts the events of one cycle into the canonical order of trace.md
// (rtl_event_order).
inline void rtl_event_sort(std::vector<rtl_event> &ev) {
  std::vector<std::pair<uint64_t, uint32_t>> ord;
  rtl_event_order(ev, ord);
  std::vector<rtl_event> out;
  out.reserve(ev.size());
  for (const auto &o : ord) out.push_back(std::move(ev[o.second]));
  ev.swap(out);
}

// Appends the trace line of event e in cycle t to out.
inline void rtl_event_append(std::string &out, long t, const rtl_event &e) {
  char b[64];
  int n = e.row == -2 ? snprintf(b, sizeof b, "%ld %s %d", t, trace_events_kind_name(e.kind), e.col)
          : e.row < 0 ? snprintf(b, sizeof b, "%ld %s -", t, trace_events_kind_name(e.kind))
                      : snprintf(b, sizeof b, "%ld %s %d,%d", t, trace_events_kind_name(e.kind), e.row, e.col);
  out.append(b, (size_t)n < sizeof b ? (size_t)n : sizeof b - 1);
  std::string f = rtl_record_fields(e.rec);
  if (!f.empty()) {
    out += ' ';
    out += f;
  }
  out += '\n';
}

// Returns the trace line of event e in cycle t.
inline std::string rtl_event_format(long t, const rtl_event &e) {
  std::string s;
  rtl_event_append(s, t, e);
  return s;
}


// Returns w bits (w <= 32) at bit lo of an integral port value.
template <typename T>
typename std::enable_if<std::is_integral<T>::value, uint32_t>::type
rtl_port_bits(const T &v, unsigned lo, unsigned w) {
  uint64_t x = (uint64_t)v >> lo;
  return (uint32_t)(w >= 32 ? x : (x & ((1ull << w) - 1)));
}

// Returns w bits (w <= 32) at bit lo of a wide port value.
template <std::size_t N>
uint32_t rtl_port_bits(const VlWide<N> &v, unsigned lo, unsigned w) {
  unsigned i = lo / 32, sh = lo % 32;
  uint64_t x = v[i];
  if (i + 1 < N) x |= (uint64_t)v[i + 1] << 32;
  x >>= sh;
  return (uint32_t)(w >= 32 ? x : (x & ((1ull << w) - 1)));
}

#if defined(VM_SC) && VM_SC
// Returns w bits (w <= 32) at bit lo of a SystemC bit vector.
template <int N>
uint32_t rtl_port_bits(const sc_dt::sc_bv<N> &v, unsigned lo, unsigned w) {
  int i = (int)(lo / 32), sh = (int)(lo % 32);
  uint64_t x = v.get_word(i);
  if (i + 1 < v.size()) x |= (uint64_t)v.get_word(i + 1) << 32;
  x >>= sh;
  return (uint32_t)(w >= 32 ? x : (x & ((1ull << w) - 1)));
}

// Returns w bits (w <= 32) at bit lo of the value on a SystemC output port.
template <typename T>
uint32_t rtl_port_bits(const sc_core::sc_out<T> &p, unsigned lo, unsigned w) {
  return rtl_port_bits(p.read(), lo, w);
}
#endif

// Returns n <= 64 one-bit slots of a port from slot lo, slot lo + k at bit
// k: the slots of one PE read in one or two extractions, so that the
// collectors visit only the set ones (rtl_mask_next).
template <typename P>
uint64_t rtl_port_mask(const P &v, unsigned lo, unsigned n) {
  uint64_t m = rtl_port_bits(v, lo, n < 32 ? n : 32);
  if (n > 32) m |= (uint64_t)rtl_port_bits(v, lo + 32, n - 32) << 32;
  return m;
}

// Returns the lowest set bit's index of *m (non-zero) and clears it.
inline int rtl_mask_next(uint64_t *m) {
  int k = __builtin_ctzll(*m);
  *m &= *m - 1;
  return k;
}


// Banks per border side (the AG ports of tcpa_top).
const int rtl_collect_nbank = TCPA_IOBUF_BANKS < TCPA_INTERCONNECT_PORTS ? TCPA_IOBUF_BANKS
                                                                          : TCPA_INTERCONNECT_PORTS;

// Returns the name of loader error code `code` (err_code_o; rtl.md): the
// text of common/stream.c, through the generated tcpa_stream_errors.h.
inline const char *rtl_collect_error_name(int code) {
  return stream_errors_name(code);
}

// Appends the events of the current cycle of PE p to ev; updates prev_sig;
// sets *fault when one of them is a fault.
inline void rtl_collect_pe(Vtcpa_top *t, int p, std::vector<rtl_event> &ev,
                           std::vector<uint32_t> &prev_sig, bool *fault) {
  const int r = p / TCPA_ARRAY_COLS, c = p % TCPA_ARRAY_COLS;
  const int nfu = TCPA_PE_ALU + TCPA_PE_MUL + TCPA_PE_DIV;
  const int nwp = 4 * TCPA_INTERCONNECT_PORTS;
  const char *const kSide = rtl_collect_sides;
  if (rtl_port_bits(t->dbg_start_o, p, 1)) rtl_event_add(ev, TRACE_START, r, c, 0, 0);
  uint32_t sig = rtl_port_bits(t->dbg_sig_o, p * TCPA_GC_SIGNALS, TCPA_GC_SIGNALS);
  if (sig != prev_sig[p]) {
    rtl_event_add(ev, TRACE_SIG, r, c, 0, 0).value = sig;
    prev_sig[p] = sig;
  }
  // wconflict: writers of each register this cycle (class, index, FU)
  struct rtl_write { int cls, idx, fu; };
  rtl_write writes[ISA_WRITES_MAX];
  int nw = 0;
  static_assert(nfu <= 64 && TCPA_PE_ID <= 64 && TCPA_PE_FD <= 64 && nwp <= 64, "a PE's slots exceed a mask");
  const uint64_t iss = rtl_port_mask(t->dbg_issue_o, p * nfu, nfu),
                 hlt = rtl_port_mask(t->dbg_halt_o, p * nfu, nfu), wrm = rtl_port_mask(t->dbg_wr_o, p * nfu, nfu);
  for (uint64_t m = iss | hlt | wrm; m;) {
    int f = rtl_mask_next(&m), q = p * nfu + f;
    if (iss >> f & 1) {
      rtl_record &x = rtl_event_add(ev, TRACE_ISSUE, r, c, f, 0);
      x.fu = f;
      x.pc = (int32_t)rtl_port_bits(t->dbg_pc_o, q * 8, 8);
    }
    if (hlt >> f & 1) rtl_event_add(ev, TRACE_HALT, r, c, f, 0).fu = f;
    if (wrm >> f & 1) {
      uint32_t dst = rtl_port_bits(t->dbg_wr_dst_o, q * 8, 8);
      uint32_t odm = rtl_port_bits(t->dbg_wr_odmask_o, q * 8, 8);
      uint32_t v = rtl_port_bits(t->dbg_wr_val_o, q * 32, 32);
      uint32_t cls = dst >> 5, idx = dst & 31;
      if (cls == 1 || cls == 2) {
        rtl_record &x = rtl_event_add(ev, TRACE_WR, r, c, f, 0);
        x.fu = f, x.reg_cls = cls == 1 ? RTL_CLS_RD : RTL_CLS_FD, x.reg_idx = (int32_t)idx, x.value = v;
        if (nw < ISA_WRITES_MAX) writes[nw++] = {x.reg_cls, (int)idx, f};
      }
      for (int k = 0; k < 8; k++) {
        if (!(odm >> k & 1)) continue;
        rtl_record &x = rtl_event_add(ev, TRACE_WR, r, c, f, 1 + k);
        x.fu = f, x.reg_cls = RTL_CLS_OD, x.reg_idx = k, x.value = v;
        if (nw < ISA_WRITES_MAX) writes[nw++] = {RTL_CLS_OD, k, f};
      }
    }
  }
  for (int i = 0; i < nw; i++) {
    for (int j = 0; j < nw; j++) {
      if (writes[i].cls == writes[j].cls && writes[i].idx == writes[j].idx && writes[j].fu > writes[i].fu) {
        rtl_event_fault(ev, r, c, fault, TRACE_FAULT_WCONFLICT, "fu%d:%s%d", writes[i].fu,
                        writes[i].cls == RTL_CLS_RD ? "rd" : writes[i].cls == RTL_CLS_FD ? "fd" : "od",
                        writes[i].idx);
        break;
      }
    }
  }
  const uint64_t idrd = rtl_port_mask(t->dbg_idrd_o, p * TCPA_PE_ID, TCPA_PE_ID),
                 push = rtl_port_mask(t->dbg_push_o, p * TCPA_PE_ID, TCPA_PE_ID);
  for (uint64_t m = idrd | push; m;) {
    int k = rtl_mask_next(&m), q = p * TCPA_PE_ID + k;
    bool rd = idrd >> k & 1, empty = rtl_port_bits(t->dbg_idempty_o, q, 1);
    if (rd && !empty) {
      rtl_record &x = rtl_event_add(ev, TRACE_POP, r, c, k, 0);
      x.reg_cls = RTL_CLS_ID, x.reg_idx = k, x.value = rtl_port_bits(t->dbg_idhead_o, q * 32, 32);
    }
    if (rd && empty) rtl_event_fault(ev, r, c, fault, TRACE_FAULT_UNDERFLOW, "id%d", k);
    if (push >> k & 1) {
      if (rtl_port_bits(t->dbg_drop_o, q, 1)) {
        rtl_event_fault(ev, r, c, fault, TRACE_FAULT_OVERFLOW, "id%d", k);
      } else {
        rtl_record &x = rtl_event_add(ev, TRACE_PUSH, r, c, k, 0);
        x.reg_cls = RTL_CLS_ID, x.reg_idx = k, x.value = rtl_port_bits(t->dbg_push_val_o, q * 32, 32);
      }
    }
  }
  for (uint64_t m = rtl_port_mask(t->dbg_fdrd_o, p * TCPA_PE_FD, TCPA_PE_FD); m;) {
    int k = rtl_mask_next(&m), q = p * TCPA_PE_FD + k;
    rtl_record &x = rtl_event_add(ev, TRACE_FDRD, r, c, k, 0);
    x.reg_cls = RTL_CLS_FD, x.reg_idx = k, x.value = rtl_port_bits(t->dbg_fdval_o, q * 32, 32);
  }
  const uint64_t hop = rtl_port_mask(t->dbg_hop_o, p * nwp, nwp), stray = rtl_port_mask(t->dbg_stray_o, p * nwp, nwp);
  for (uint64_t m = hop | stray; m;) {
    int k = rtl_mask_next(&m), q = p * nwp + k;
    int side = k / TCPA_INTERCONNECT_PORTS, port = k % TCPA_INTERCONNECT_PORTS;
    if (hop >> k & 1) {
      rtl_record &x = rtl_event_add(ev, TRACE_HOP, r, c, side, port);
      x.side = side, x.port = port, x.value = rtl_port_bits(t->dbg_hop_val_o, q * 32, 32);
    }
    if (stray >> k & 1) rtl_event_fault(ev, r, c, fault, TRACE_FAULT_STRAY, "%c%d", kSide[side], port);
  }
}

// Returns whether PE p has a bank side `side` (it lies on that border).
inline bool rtl_collect_border(int p, int side) {
  int r = p / TCPA_ARRAY_COLS, c = p % TCPA_ARRAY_COLS;
  return (side == 0 && r == 0) || (side == 1 && c == TCPA_ARRAY_COLS - 1) ||
         (side == 2 && r == TCPA_ARRAY_ROWS - 1) || (side == 3 && c == 0);
}

// Appends the bank accesses and AG faults of the current cycle of PE p;
// sets *fault when there is a fault.
inline void rtl_collect_ag(Vtcpa_top *t, int p, std::vector<rtl_event> &ev, bool *fault) {
  const int r = p / TCPA_ARRAY_COLS, c = p % TCPA_ARRAY_COLS;
  const char *const kSide = rtl_collect_sides;
  const unsigned n = 4 * rtl_collect_nbank, a0 = (unsigned)p * n;
  static_assert(4 * rtl_collect_nbank <= 64, "a PE's AG slots exceed a mask");
  const uint64_t bank = rtl_port_mask(t->dbg_bank_o, a0, n), miss = rtl_port_mask(t->dbg_agmiss_o, a0, n),
                 range = rtl_port_mask(t->dbg_agrange_o, a0, n);
  for (uint64_t m = bank | miss | range; m;) {  // slot i: side i / banks, bank i % banks
    int i = rtl_mask_next(&m), a = (int)a0 + i, side = i / rtl_collect_nbank, b = i % rtl_collect_nbank;
    if (bank >> i & 1) {
      rtl_record &x = rtl_event_add(ev, TRACE_BANK, r, c, side, b);
      x.side = side, x.port = b, x.bank_write = (int32_t)rtl_port_bits(t->dbg_bank_wr_o, a, 1);
      x.addr = rtl_port_bits(t->dbg_bank_addr_o, a * 32, 32);
      x.value = rtl_port_bits(t->dbg_bank_val_o, a * 32, 32);
    }
    if (miss >> i & 1) rtl_event_fault(ev, r, c, fault, TRACE_FAULT_AGMISS, "%c%d", kSide[side], b);
    else if (range >> i & 1) rtl_event_fault(ev, r, c, fault, TRACE_FAULT_AGRANGE, "%c%d", kSide[side], b);
  }
}

// Returns the number of bank words a dump holds: every (PE, side, bank)
// slot of dbg_rd_data_o, border or not.
inline size_t rtl_collect_nbanks() {
  return (size_t)TCPA_ARRAY_ROWS * TCPA_ARRAY_COLS * 4 * rtl_collect_nbank;
}

// The state events of docs/trace.md ("State events"): the value each piece
// of state had when last traced, so that a line is formed (and formatted)
// only when it changes, and the bank words written since reset (`mem`).
struct rtl_collect_state {
  std::vector<uint32_t> step, flag, fifo, ag; // per PE; PE; PE * id; AG slot
  std::vector<uint32_t> word;                 // per (PE * FU) * imem: 4 words last issued at pc
  std::vector<uint8_t> issued;                // per (PE * FU) * imem: an issue at pc was traced
  std::vector<std::vector<uint8_t>> written;  // per AG slot: the words written
  bool any_written = false;
  rtl_collect_state()
      : step(TCPA_ARRAY_ROWS * TCPA_ARRAY_COLS, 0), flag(TCPA_ARRAY_ROWS * TCPA_ARRAY_COLS, 0),
        fifo(TCPA_ARRAY_ROWS * TCPA_ARRAY_COLS * (TCPA_PE_ID ? TCPA_PE_ID : 1), 0),
        ag(rtl_collect_nbanks(), 0),
        word((size_t)TCPA_ARRAY_ROWS * TCPA_ARRAY_COLS * (TCPA_PE_ALU + TCPA_PE_MUL + TCPA_PE_DIV) *
                 TCPA_PE_IMEM * 4, 0),
        issued((size_t)TCPA_ARRAY_ROWS * TCPA_ARRAY_COLS * (TCPA_PE_ALU + TCPA_PE_MUL + TCPA_PE_DIV) *
                   TCPA_PE_IMEM, 0),
        written(rtl_collect_nbanks()) {}
};

// Returns the rank of a register class in the canonical order (rd, fd, od)
// times 64 plus the index: the sort key of `rf`.
inline int rtl_collect_regkey(int rank, int idx) { return rank * 64 + idx; }

// Appends the `rf` lines of PE p: the register file's write port (rd, after
// arbitration), the fd write ports and the od registers' inputs.
inline void rtl_collect_rf(Vtcpa_top *t, int p, std::vector<rtl_event> &ev) {
  const int r = p / TCPA_ARRAY_COLS, c = p % TCPA_ARRAY_COLS;
  const int nrd = TCPA_PE_RD ? TCPA_PE_RD : 1, nfd = TCPA_PE_FD ? TCPA_PE_FD : 1,
            nod = TCPA_PE_OD ? TCPA_PE_OD : 1;
  static_assert(TCPA_PE_RD <= 64 && TCPA_PE_FD <= 64 && TCPA_PE_OD <= 64, "a PE's registers exceed a mask");
  for (uint64_t m = rtl_port_mask(t->dbg_rfwe_o, p * nrd, TCPA_PE_RD); m;) {
    int k = rtl_mask_next(&m);
    rtl_record &x = rtl_event_add(ev, TRACE_RF, r, c, rtl_collect_regkey(0, k), 0);
    x.reg_cls = RTL_CLS_RD, x.reg_idx = k, x.value = rtl_port_bits(t->dbg_rfwd_o, (p * nrd + k) * 32, 32);
  }
  for (uint64_t m = rtl_port_mask(t->dbg_fdwe_o, p * nfd, TCPA_PE_FD); m;) {
    int k = rtl_mask_next(&m);
    rtl_record &x = rtl_event_add(ev, TRACE_RF, r, c, rtl_collect_regkey(1, k), 0);
    x.reg_cls = RTL_CLS_FD, x.reg_idx = k, x.value = rtl_port_bits(t->dbg_fdwd_o, (p * nfd + k) * 32, 32);
  }
  for (uint64_t m = rtl_port_mask(t->dbg_odwe_o, p * nod, TCPA_PE_OD); m;) {
    int k = rtl_mask_next(&m);
    rtl_record &x = rtl_event_add(ev, TRACE_RF, r, c, rtl_collect_regkey(2, k), 0);
    x.reg_cls = RTL_CLS_OD, x.reg_idx = k, x.value = rtl_port_bits(t->dbg_odwd_o, (p * nod + k) * 32, 32);
  }
}

// Appends the `insn` lines of PE p: every issue whose word differs from
// the word the FU last issued at the same pc (the first issue at a pc
// always has one).
inline void rtl_collect_insn(Vtcpa_top *t, int p, std::vector<rtl_event> &ev,
                             rtl_collect_state &st) {
  const int r = p / TCPA_ARRAY_COLS, c = p % TCPA_ARRAY_COLS;
  const int nfu = TCPA_PE_ALU + TCPA_PE_MUL + TCPA_PE_DIV;
  for (uint64_t m = rtl_port_mask(t->dbg_issue_o, p * nfu, nfu); m;) {
    int f = rtl_mask_next(&m), q = p * nfu + f;
    uint32_t w[4], pc = rtl_port_bits(t->dbg_pc_o, q * 8, 8);
    if (pc >= (uint32_t)TCPA_PE_IMEM) pc = 0;  // (a pc the RTL cannot hold)
    size_t at = (size_t)q * TCPA_PE_IMEM + pc;
    for (int k = 0; k < 4; k++) w[k] = rtl_port_bits(t->dbg_word_o, q * 128 + 32 * k, 32);
    if (st.issued[at] && !memcmp(w, &st.word[at * 4], sizeof w)) continue;
    st.issued[at] = 1;
    memcpy(&st.word[at * 4], w, sizeof w);
    rtl_record &x = rtl_event_add(ev, TRACE_INSN, r, c, f, 0);
    x.fu = f;
    memcpy(x.word, w, sizeof w);
  }
}

// What the state events of a PE must not show in a cycle of a run of
// several streams (docs/timing.md section 11: a stream's configuration
// takes effect at its start cycle t_k, the RTL writes it while the words
// arrive): hidden, the PE left its region for the stream being loaded
// (dbg_phide_o: none of its state is traced until t_k, when what changed
// shows); cleared, the stream cleared its configuration (dbg_pclear_o: its
// instructions are traced again at every pc); loader_io, the loader
// writes an IODATA word in this cycle (dbg_cfg_io_o: a bank write without
// an AG access is its word, not a `bankwr`).
struct rtl_collect_mask {
  bool hidden = false, cleared = false, loader_io = false;
};

// Appends the state events of PE p in the current cycle (step, insn, rf,
// flag, fifo; with its AGs: bankwr, ag), each only when it changed, none
// that mask hides.
inline void rtl_collect_state_pe(Vtcpa_top *t, int p, std::vector<rtl_event> &ev,
                                 rtl_collect_state &st, rtl_collect_mask mask = {}) {
  const int r = p / TCPA_ARRAY_COLS, c = p % TCPA_ARRAY_COLS;
  const int nfu = TCPA_PE_ALU + TCPA_PE_MUL + TCPA_PE_DIV;
  const int nid = TCPA_PE_ID ? TCPA_PE_ID : 1;
  if (mask.cleared)
    for (int q = p * nfu; q < (p + 1) * nfu; q++)
      memset(&st.issued[(size_t)q * TCPA_PE_IMEM], 0, TCPA_PE_IMEM);
  if (mask.hidden) return;
  uint32_t step = rtl_port_bits(t->dbg_step_o, p * 32, 32);
  if (step != st.step[p]) {
    st.step[p] = step;
    rtl_event_add(ev, TRACE_STEP, r, c, 0, 0).num = step;
  }
  rtl_collect_insn(t, p, ev, st);
  rtl_collect_rf(t, p, ev);
  uint32_t fl = rtl_port_bits(t->dbg_flag_o, p * nfu, nfu);
  for (int f = 0; fl != st.flag[p] && f < nfu; f++)
    if ((fl ^ st.flag[p]) >> f & 1) {
      rtl_record &x = rtl_event_add(ev, TRACE_FLAG, r, c, f, 0);
      x.fu = f, x.value = fl >> f & 1;
    }
  st.flag[p] = fl;
  for (int k = 0; k < TCPA_PE_ID; k++) {
    uint32_t n = rtl_port_bits(t->dbg_fifocnt_o, (p * nid + k) * 16, 16);
    if (n == st.fifo[p * nid + k]) continue;
    st.fifo[p * nid + k] = n;
    rtl_record &x = rtl_event_add(ev, TRACE_FIFO, r, c, k, 0);
    x.reg_cls = RTL_CLS_ID, x.reg_idx = k, x.num = n;
  }
  uint64_t we = rtl_port_mask(t->dbg_bankwe_o, (unsigned)p * 4 * rtl_collect_nbank, 4 * rtl_collect_nbank);
  // a bank written while the loader writes IODATA and its AG makes no
  // access: the loader's word (no AG acts on a bank the loader may write)
  if (mask.loader_io) we &= rtl_port_mask(t->dbg_bank_o, (unsigned)p * 4 * rtl_collect_nbank, 4 * rtl_collect_nbank);
  for (int side = 0; side < 4; side++) {
    if (!rtl_collect_border(p, side)) continue;
    for (int b = 0; b < rtl_collect_nbank; b++) {
      int a = (p * 4 + side) * rtl_collect_nbank + b;
      if (we >> (side * rtl_collect_nbank + b) & 1) {
        rtl_record &x = rtl_event_add(ev, TRACE_BANKWR, r, c, side, b);
        x.side = side, x.port = b, x.addr = rtl_port_bits(t->dbg_bankwa_o, a * 32, 32);
        x.value = rtl_port_bits(t->dbg_bankwd_o, a * 32, 32);
      }
      uint32_t addr = rtl_port_bits(t->dbg_bank_addr_o, a * 32, 32);
      if (addr != st.ag[a]) {
        st.ag[a] = addr;
        rtl_record &x = rtl_event_add(ev, TRACE_AG, r, c, side, b);
        x.side = side, x.port = b, x.addr = addr;
      }
    }
  }
}

// The global controllers (tcpa_pkg::NGC).
const int rtl_collect_ngc = 4;

// Appends the `gc` lines of the current cycle: a started GC begins a step
// S >= 1 (it runs one cycle ahead of the PEs, docs/trace.md); in a run of
// several streams (multi) the line names its GC (place row -2, column G),
// else the machine (`-`: only one GC runs).
inline void rtl_collect_gc(Vtcpa_top *t, std::vector<rtl_event> &ev, bool multi = false) {
  uint32_t begin = rtl_port_bits(t->dbg_gc_begin_o, 0, rtl_collect_ngc);
  for (int g = 0; begin; g++, begin >>= 1) {
    if (!(begin & 1)) continue;
    uint32_t s = rtl_port_bits(t->dbg_gc_step_o, (unsigned)g * 32, 32);
    if (s < 1) continue;
    rtl_record &x = rtl_event_add(ev, TRACE_GC, multi ? -2 : -1, multi ? g : -1, 0, 0);
    x.num = s, x.value = rtl_port_bits(t->dbg_gc_sig_o, (unsigned)g * TCPA_GC_SIGNALS, TCPA_GC_SIGNALS);
  }
}

// Appends the region lines of the current cycle of a run of several
// streams (docs/trace.md "Several regions"): `rstart G` for a region whose
// cycle 0 this is (with_rstart: not stream 0's), `rdone G CYCLES` for a
// region done in this cycle, its own cycles from dbg_gc_cycles_o.
inline void rtl_collect_regions(Vtcpa_top *t, std::vector<rtl_event> &ev, bool with_rstart) {
  uint32_t rs = rtl_port_bits(t->dbg_gc_rstart_o, 0, rtl_collect_ngc);
  uint32_t rd = rtl_port_bits(t->dbg_gc_rdone_o, 0, rtl_collect_ngc);
  for (int g = 0; g < rtl_collect_ngc; g++) {
    if (with_rstart && (rs >> g & 1)) rtl_event_add(ev, TRACE_RSTART, -2, g, 0, 0);
    if (rd >> g & 1)
      rtl_event_add(ev, TRACE_RDONE, -2, g, 0, 0).cycles = rtl_port_bits(t->dbg_gc_cycles_o, (unsigned)g * 32, 32);
  }
}

// Records the bank words written at the clock edge that ends the current
// half cycle (call with the clock low and the model settled, before every
// rising edge: the loader's IODATA words and the write AGs' words).
inline void rtl_collect_mark_written(Vtcpa_top *t, rtl_collect_state &st) {
  const size_t n = rtl_collect_nbanks();
  for (size_t a = 0; a < n; a += 32) {
    unsigned w = (unsigned)std::min<size_t>(32, n - a);
    uint32_t we = rtl_port_bits(t->dbg_bankwe_o, (unsigned)a, w);
    for (unsigned k = 0; we; k++, we >>= 1) {
      if (!(we & 1)) continue;
      std::vector<uint8_t> &v = st.written[a + k];
      if (v.empty()) v.assign(TCPA_IOBUF_DEPTH, 0);
      uint32_t addr = rtl_port_bits(t->dbg_bankwa_o, (unsigned)(a + k) * 32, 32);
      if (addr < (uint32_t)TCPA_IOBUF_DEPTH) v[addr] = 1;
      st.any_written = true;
    }
  }
}

// Appends the `mem` lines of bank word `addr` of every bank, read from
// dbg_rd_data_o (dbg_rd_addr_i set to addr and settled by the caller).
inline void rtl_collect_mem(Vtcpa_top *t, uint32_t addr, const rtl_collect_state &st,
                            std::vector<rtl_event> &ev) {
  for (size_t a = 0; a < st.written.size(); a++) {
    if (st.written[a].empty() || !st.written[a][addr]) continue;
    int p = (int)(a / (4 * rtl_collect_nbank)), side = (int)(a / rtl_collect_nbank % 4),
        b = (int)(a % rtl_collect_nbank);
    if (!rtl_collect_border(p, side)) continue;
    rtl_record &x = rtl_event_add(ev, TRACE_MEM, p / TCPA_ARRAY_COLS, p % TCPA_ARRAY_COLS, side,
                                  b * TCPA_IOBUF_DEPTH + (int)addr);
    x.side = side, x.port = b, x.addr = addr, x.value = rtl_port_bits(t->dbg_rd_data_o, (unsigned)a * 32, 32);
  }
}

// Appends `leftover idK` for every non-empty FIFO (call it with the state
// after the done cycle's clock edge, settled); returns whether there was one.
inline bool rtl_collect_leftover(Vtcpa_top *t, std::vector<rtl_event> &ev) {
  bool any = false;
  for (int p = 0; p < TCPA_ARRAY_ROWS * TCPA_ARRAY_COLS; p++)
    for (int k = 0; k < TCPA_PE_ID; k++)
      if (!rtl_port_bits(t->dbg_idempty_o, p * TCPA_PE_ID + k, 1))
        rtl_event_fault(ev, p / TCPA_ARRAY_COLS, p % TCPA_ARRAY_COLS, &any, TRACE_FAULT_LEFTOVER, "id%d", k);
  return any;
}

// Returns 0 after writing the border banks of data (indexed as
// dbg_rd_data_o: (p * 4 + side) * banks + bank, each TCPA_IOBUF_DEPTH
// words) to DIR, one file `<side>_<row>_<col>_<bank>.txt` per bank, one
// `0x%08x` word per line, each written to a temporary file and renamed;
// 3 after printing an error prefixed by `who`.
inline int rtl_bank_files_write(const char *dir, const std::vector<std::vector<uint32_t>> &data,
                                const char *who) {
  mkdir(dir, 0777);
  for (size_t a = 0; a < data.size(); a++) {
    int p = (int)(a / (4 * rtl_collect_nbank)), side = (int)(a / rtl_collect_nbank % 4),
        b = (int)(a % rtl_collect_nbank);
    if (!rtl_collect_border(p, side)) continue;
    std::string path = std::string(dir) + "/" + rtl_collect_sides[side] + "_" +
                       std::to_string(p / TCPA_ARRAY_COLS) + "_" +
                       std::to_string(p % TCPA_ARRAY_COLS) + "_" + std::to_string(b) + ".txt";
    std::string tmp = path + ".tmp";
    FILE *f = fopen(tmp.c_str(), "w");
    if (!f) {
      fprintf(stderr, "%s: %s: %s\n", who, tmp.c_str(), strerror(errno));
      return 3;
    }
    for (uint32_t w : data[a]) fprintf(f, "0x%08x\n", w);
    if (fclose(f) != 0 || rename(tmp.c_str(), path.c_str()) != 0) {
      fprintf(stderr, "%s: %s: %s\n", who, path.c_str(), strerror(errno));
      remove(tmp.c_str());
      return 3;
    }
  }
  return 0;
}

#endif
