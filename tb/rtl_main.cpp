// rtl_main.cpp: the Verilator harness of the TCPA RTL (build/bin/tcpa-rtl).
//
//   tcpa-rtl STREAM.bin [STREAM.bin@CYCLE ...] [--trace FILE]
//            [--trace-stream FILE | --trace-bin FILE]
//            [--trace-mode events|digest] [--fst FILE]
//            [--fst-window FROM:TO] [--max-cycles N] [--dump-banks DIR]
//            [--dump-depth D] [--cfg-gaps N] [--coverage FILE]
//            [--results FILE]
//
// Resets tcpa_top, feeds the stream word by word through its valid/ready
// port (--cfg-gaps N: N idle cycles after every word, valid low and
// garbage on the data lines, as a bus with bubbles would), then clocks it from cycle 0 (the first cycle with run_o high) until
// done_o or the cycle limit. Every cycle it reads the dbg_* ports (the
// events of that cycle, sampled before the clock edge that ends it), turns
// them into trace.md events and writes them sorted canonically; faults that
// are relations between events (wconflict, leftover) are formed here from
// the same ports.
//
// Several streams (docs/timing.md section 11): STREAM.bin@CYCLE k >= 1 is
// fed while the others run, one word per cycle, so that its START takes
// effect at global cycle t_k = CYCLE: its W_k words go in at cycles
// t_k - W_k - 1 .. t_k - 2 (the loader raises start one cycle after the
// last word and the region's PEs run from the cycle after that, as for
// stream 0, whose words come before cycle 0). Loading windows that
// overlap (t_k - W_k < t_(k-1)) are refused before anything runs (exit
// 2). With two streams or more the trace has the lines rstart G, rdone G
// CYCLES and gc G (docs/trace.md "Several regions"), read from the per-GC
// dbg_gc_* ports; a stream the loader refuses (BUSY, ...) ends the trace
// file before its first word's cycle c_k = t_k - W_k, and the run (exit 2).
// The live traces are written cycle by cycle and are not cut back.
//
// --results FILE: what the run came to as data (docs/rtl.md "Results
// file"): key=value lines (outcome, cycles clocked or done, the stream a
// loader refused and its error, per region its GC, rectangle, start cycle
// and cycles), written when the run ends, whatever its outcome; what
// tb/engine_rtl.c reads instead of parsing the log.
//
// Time in the FST is in cycles (docs/trace.md "Time of a cycle in the
// FST"): one clock cycle is 1 ns, and the rising edge that starts cycle t
// is at t ns, so GTKWave's time axis reads cycle numbers. The Verilated
// model's time precision (Verilator's default timescale 1ps/1ps) is the
// FST's unit, so a cycle is 1000 units: cycle t is dumped at t*1000 (clock
// high: the registers after cycle t-1, the event ports of cycle t) and at
// t*1000 + 500 (clock low). Reset and stream loading come before cycle 0
// and are not dumped. The trace states the time base (`# fst t0=0
// period=1000`). --fst-window dumps only cycles FROM..TO at the same
// times.
//
// --trace-stream FILE (a pipe, e.g. /dev/fd/3) streams the same trace while
// the simulation runs, flushed after every cycle, for a lockstep checker
// reading it (tcpa run --engine cosim, docs/trace.md "Lockstep protocol").
// --trace-bin FILE streams the same events the same way as binary records
// (docs/trace.md "Binary event stream": a header, then one fixed-size
// record per event, the fields as numbers, no text): what tcpa's cosim
// reads. --trace-mode digest makes --trace-bin a digest stream instead
// (docs/trace.md "Digest stream"; common/trace_digest.h): per cycle only
// the records of done, faults and bank writes, and one digest record of
// all the cycle's events; what cosim reads when it keeps no trace file.
// The reader stops the run by closing its end (the next write
// fails) or by SIGTERM: the harness then prints `tcpa-rtl: stopped after
// N cycles (WHY)` on stderr, closes the FST (valid up to there) and exits 4.
//
// Assertions (docs/rtl.md "Assertions"): the harness is built with
// Verilator's --assert and +define+TCPA_ASSERT_ON (tb/harness.mk). A failing
// assertion prints its name on stdout (`[ASSERT FAILED] NAME`, through
// $error) and the run goes on to the end, so the trace stays complete for
// the checker (tests/faults.sh); the harness then says on stderr in which
// cycle the first one failed and exits 1.
//
// Coverage (docs/regress.md "Sign-off"): a harness built with Verilator's
// --coverage (the `cov` kind of tb/harness.mk, VM_COVERAGE) writes its line
// and toggle counters through Verilator's API
// (VerilatedContext::coveragep()->write) when the run ends, whatever its
// outcome: to --coverage FILE, else to $TCPA_COVERAGE_DIR/cov-<pid>.dat
// when that is set (one file per run, merged by verilator_coverage).
//
// Exit: 0 done without faults, 1 timeout, a fault or a failed assertion,
// 2 the loader rejected the stream (its error code is printed), 3 usage or
// I/O (or --coverage on a harness without coverage), 4 stopped by the
// reader of --trace-stream or --trace-bin.
#include <csignal>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#include <algorithm>
#include <sys/stat.h>
#include <unistd.h>

#include "Vtcpa_top.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#if defined(VM_COVERAGE) && VM_COVERAGE
#include "verilated_cov.h"
#endif
#include "rtl_collect.h"
#include "trace_digest.h"

namespace {

// One stream of the run: its file, its start cycle t_k (@CYCLE), its words.
struct StreamArg {
  std::string path;
  long at = 0;
  std::vector<uint32_t> words;
  size_t bytes = 0;
};

// The most streams (regions) of one run: the four GCs.
const size_t MAX_STREAMS = 4;

struct Options {
  const char *stream = nullptr, *trace = nullptr, *fst = nullptr,
             *banks = nullptr, *live = nullptr, *coverage = nullptr, *results = nullptr;
  std::vector<StreamArg> streams;
  bool live_bin = false;  // --trace-bin: live is binary records
  bool live_digest = false;  // --trace-mode digest: ... digest records
  long max_cycles = 100000;
  long cfg_gaps = 0;  // idle cycles after every stream word
  long win_from = -1, win_to = -1;  // --fst-window; -1: dump everything
  long dump_depth = TCPA_IOBUF_DEPTH;  // --dump-depth: words dumped per bank
};

// Returns 0 after reading `FROM:TO` (0 <= FROM <= TO) into o, or 3.
int parse_window(const char *v, Options &o) {
  char *end;
  o.win_from = strtol(v, &end, 10);
  if (*end == ':') o.win_to = strtol(end + 1, &end, 10);
  if (*end || end == v || o.win_from < 0 || o.win_to < o.win_from) {
    fprintf(stderr, "tcpa-rtl: --fst-window: expected FROM:TO with 0 <= FROM <= TO: %s\n", v);
    return 3;
  }
  return 0;
}

// Returns 0 after adding stream argument PATH[@CYCLE] to o.streams
// (no @: cycle 0, only for the first), or 3 with a message.
int parse_stream(const char *v, Options &o) {
  StreamArg s;
  s.path = v;
  size_t at = s.path.rfind('@');
  if (at != std::string::npos) {
    char *end;
    const char *c = v + at + 1;
    s.at = strtol(c, &end, 10);
    if (*end || end == c || s.at < 0) {
      fprintf(stderr, "tcpa-rtl: %s: expected STREAM.bin@CYCLE with CYCLE >= 0\n", v);
      return 3;
    }
    s.path.resize(at);
  } else if (!o.streams.empty()) {
    fprintf(stderr, "tcpa-rtl: %s: every stream after the first needs its start cycle (STREAM.bin@CYCLE)\n", v);
    return 3;
  }
  if (o.streams.empty() && s.at != 0) {
    fprintf(stderr, "tcpa-rtl: %s: the first stream starts at cycle 0\n", v);
    return 3;
  }
  if (o.streams.size() == MAX_STREAMS) {
    fprintf(stderr, "tcpa-rtl: %s: at most %zu streams (one per global controller)\n", v, MAX_STREAMS);
    return 3;
  }
  o.streams.push_back(s);
  return 0;
}

// Returns 0 and fills o from argv, or 3 after printing the usage.
int parse_args(int argc, char **argv, Options &o) {
  o.streams.reserve(MAX_STREAMS);  // o.stream points into the first
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a[0] == '+') continue;  // a plusarg, read by the RTL ($value$plusargs)
    if ((a == "--trace" || a == "--fst" || a == "--max-cycles" ||
         a == "--dump-banks" || a == "--fst-window" || a == "--trace-stream" || a == "--trace-bin" ||
         a == "--cfg-gaps" || a == "--coverage" || a == "--trace-mode" || a == "--dump-depth" ||
         a == "--results") &&
        i + 1 < argc) {
      const char *v = argv[++i];
      if (a == "--trace") o.trace = v;
      else if (a == "--trace-mode") {
        if (strcmp(v, "events") && strcmp(v, "digest")) {
          fprintf(stderr, "tcpa-rtl: --trace-mode: expected events or digest: %s\n", v);
          return 3;
        }
        o.live_digest = !strcmp(v, "digest");
      }
      else if (a == "--coverage") o.coverage = v;
      else if (a == "--results") o.results = v;
      else if (a == "--trace-stream" || a == "--trace-bin") o.live = v, o.live_bin = a == "--trace-bin";
      else if (a == "--fst-window") {
        if (parse_window(v, o)) return 3;
      }
      else if (a == "--fst") o.fst = v;
      else if (a == "--dump-banks") o.banks = v;
      else if (a == "--dump-depth") {
        char *end;
        o.dump_depth = strtol(v, &end, 10);
        if (*end || end == v || o.dump_depth < 1 || o.dump_depth > TCPA_IOBUF_DEPTH) {
          fprintf(stderr, "tcpa-rtl: --dump-depth: expected 1..%d words (iobuf.depth): %s\n", TCPA_IOBUF_DEPTH, v);
          return 3;
        }
      }
      else if (a == "--cfg-gaps") {
        char *end;
        o.cfg_gaps = strtol(v, &end, 10);
        if (*end || end == v || o.cfg_gaps < 0 || o.cfg_gaps > 1000) {
          fprintf(stderr, "tcpa-rtl: --cfg-gaps: expected 0..1000 idle cycles: %s\n", v);
          return 3;
        }
      } else {
        char *end;
        o.max_cycles = strtol(v, &end, 10);
        if (*end || o.max_cycles <= 0) {
          fprintf(stderr, "tcpa-rtl: --max-cycles: not a positive number: %s\n", v);
          return 3;
        }
      }
    } else if (a[0] != '-') {
      if (parse_stream(argv[i], o)) return 3;
      o.stream = o.streams[0].path.c_str();
    } else {
      fprintf(stderr, "tcpa-rtl: unknown or incomplete argument: %s\n", argv[i]);
      return 3;
    }
  }
#if !(defined(VM_COVERAGE) && VM_COVERAGE)
  if (o.coverage) {
    fprintf(stderr, "tcpa-rtl: --coverage %s: this harness is built without coverage (tcpa harness --kind cov)\n",
            o.coverage);
    return 3;
  }
#endif
  if (o.live_digest && !o.live_bin) {
    fprintf(stderr, "tcpa-rtl: --trace-mode digest: only with --trace-bin FILE\n");
    return 3;
  }
  if (!o.stream) {
    fprintf(stderr, "usage: tcpa-rtl STREAM.bin [STREAM.bin@CYCLE ...] [--trace FILE] [--trace-stream FILE | --trace-bin FILE] "
                    "[--trace-mode events|digest] [--fst FILE] [--fst-window FROM:TO] [--max-cycles N] [--dump-banks DIR] "
                    "[--dump-depth D] [--cfg-gaps N] [--coverage FILE] [--results FILE]\n");
    return 3;
  }
  return 0;
}

// Returns 0 and the little-endian words of a file, or 3 with a message.
int load_stream(const char *path, std::vector<uint32_t> &w, size_t &bytes) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "tcpa-rtl: %s: %s\n", path, strerror(errno));
    return 3;
  }
  std::vector<uint8_t> b;
  uint8_t buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + n);
  fclose(f);
  bytes = b.size();
  for (size_t i = 0; i + 4 <= b.size(); i += 4)
    w.push_back((uint32_t)b[i] | (uint32_t)b[i + 1] << 8 |
                (uint32_t)b[i + 2] << 16 | (uint32_t)b[i + 3] << 24);
  return 0;
}

// Returns 0 when the loading windows of the streams do not overlap
// (docs/timing.md section 11: t_k - W_k >= t_(k-1)) and every stream
// after the first is whole words of at least a header; else 2 with a
// message naming both streams and the cycles.
int streams_check(const Options &o) {
  for (size_t k = 1; k < o.streams.size(); k++) {
    const StreamArg &s = o.streams[k], &p = o.streams[k - 1];
    long w = (long)s.words.size();
    if (s.bytes % 4 != 0 || s.bytes < 24) {
      fprintf(stderr, "tcpa-rtl: stream %zu (%s): %zu bytes, not a stream of whole words with its header\n", k,
              s.path.c_str(), s.bytes);
      return 2;
    }
    if (s.at - w < p.at) {
      fprintf(stderr,
              "tcpa-rtl: stream %zu (%s@%ld) would load its %ld words in cycles %ld..%ld, before stream %zu "
              "(%s@%ld) has started at cycle %ld: start it at cycle %ld or later\n",
              k, s.path.c_str(), s.at, w, s.at - w, s.at - 1, k - 1, p.path.c_str(), p.at, p.at, p.at + w);
      return 2;
    }
  }
  return 0;
}

// The streams after the first, fed while the run goes on: stream k's word
// j at global cycle t_k - W_k - 1 + j (rtl_main.cpp's top comment).
struct Feeder {
  const std::vector<StreamArg> *streams = nullptr;
  size_t next = 1;  // the stream being or next to be fed

  // Returns the cycle of stream k's first word.
  long first(size_t k) const { return (*streams)[k].at - (long)(*streams)[k].words.size() - 1; }
  // Sets the stream port's inputs for global cycle t: the word of the
  // stream in its window, else valid low.
  void apply(Vtcpa_top *top, long t) const {
    top->cfg_valid_i = 0;
    top->cfg_last_i = 0;
    if (next >= streams->size() || t < first(next)) return;
    const std::vector<uint32_t> &w = (*streams)[next].words;
    size_t j = (size_t)(t - first(next));
    top->cfg_valid_i = 1;
    top->cfg_data_i = w[j];
    top->cfg_last_i = (j + 1 == w.size());
  }
  // Moves on to the next stream after cycle t when t took the last word.
  void advance(long t) {
    if (next < streams->size() && t == first(next) + (long)(*streams)[next].words.size() - 1) next++;
  }
  // Returns true when every stream has been fed and started by cycle t.
  bool all_started(long t) const { return next >= streams->size() && t >= streams->back().at; }
};

struct Sim {
  Vtcpa_top *top;
  VerilatedFstC *fst = nullptr;
  uint64_t unit = 1000;           // FST time units per cycle (1 ns)
  long cycle = -1;                // the cycle being clocked; < 0: reset, loading
  long from = 0, to = LONG_MAX;   // the cycles dumped (--fst-window)
  bool asserted = false;          // an assertion failed
  long assert_cycle = -1;         // in this cycle (< 0: reset, loading)
  rtl_collect_state state;        // the state events' last values, bank words written
  Feeder feed;                    // the streams after the first

  // Returns true when cycle t is dumped into the FST.
  bool dumps(long t) const { return fst && cycle >= 0 && t >= from && t <= to; }
  // Dumps the start of cycle 0 (its rising edge, time 0) when in the window.
  void begin() {
    cycle = 0;
    if (dumps(0)) fst->dump(0);
  }
  bool settled = false;            // settle() ran, no input written since
  // Advances one clock cycle (falling then rising edge); in the cycles
  // dumped, the clock-low half at cycle + 1/2 and the next rising edge.
  // The falling edge is not evaluated again right after settle() (nothing
  // changed since): one eval() per clock edge.
  void tick() {
    if (!settled) {
      top->clk_i = 0;
      top->eval();
    }
    settled = false;
    if (top->rst_ni) rtl_collect_mark_written(top, state);
    if (dumps(cycle)) fst->dump((uint64_t)cycle * unit + unit / 2);
    top->clk_i = 1;
    top->eval();
    if (dumps(cycle) || dumps(cycle + 1)) fst->dump((uint64_t)(cycle + 1) * unit);
    if (!asserted && Verilated::gotError()) asserted = true, assert_cycle = cycle;
  }
  // Settles the combinational outputs of the current cycle (clock low).
  // Every input is written before settle(), never between it and tick().
  void settle() {
    top->clk_i = 0;
    top->eval();
    settled = true;
  }
};

// Returns true after printing on stderr in which cycle the first assertion
// failed, when one did; false when none did.
bool report_assertions(const Sim &sim) {
  if (!sim.asserted) return false;
  if (sim.assert_cycle < 0)
    fprintf(stderr, "tcpa-rtl: an assertion failed while loading the stream "
                    "(the [ASSERT FAILED] line on stdout names it)\n");
  else
    fprintf(stderr, "tcpa-rtl: an assertion failed in cycle %ld "
                    "(the [ASSERT FAILED] line on stdout names it)\n", sim.assert_cycle);
  return true;
}

// Returns 0 after writing the first `depth` words of every border bank of
// the array to DIR (rtl_bank_files_write), read through dbg_rd_addr_i /
// dbg_rd_data_o: one settle of the model per address, the cost of a
// cycle, so a reader that needs only the low words asks for those.
int dump_banks(Sim &sim, const char *dir, long depth) {
  std::vector<std::vector<uint32_t>> data(rtl_collect_nbanks());
  for (int addr = 0; addr < depth; addr++) {
    sim.top->dbg_rd_addr_i = addr;
    sim.settle();
    for (size_t a = 0; a < data.size(); a++)
      data[a].push_back(rtl_port_bits(sim.top->dbg_rd_data_o, a * 32, 32));
  }
  return rtl_bank_files_write(dir, data, "tcpa-rtl");
}

// Appends the `mem` lines of the done cycle (docs/trace.md): every bank
// word written since reset, read through dbg_rd_addr_i / dbg_rd_data_o
// after the done cycle's clock edge.
void collect_mem(Sim &sim, std::vector<rtl_event> &ev) {
  if (!sim.state.any_written) return;
  for (uint32_t addr = 0; addr < (uint32_t)TCPA_IOBUF_DEPTH; addr++) {
    sim.top->dbg_rd_addr_i = addr;
    sim.settle();
    rtl_collect_mem(sim.top, addr, sim.state, ev);
  }
}

// Clocks `gaps` cycles with cfg_valid_i low and a changing garbage word
// on cfg_data_i (a loader must ignore the data lines while valid is low).
void idle_cycles(Sim &sim, long gaps, uint32_t &garbage) {
  for (long g = 0; g < gaps; g++) {
    garbage = garbage * 1664525u + 1013904223u;
    sim.top->cfg_valid_i = 0;
    sim.top->cfg_last_i = g & 1;
    sim.top->cfg_data_i = garbage;
    sim.tick();
  }
}

// Returns the loader's error code after feeding the stream (0: started),
// with `gaps` idle cycles after every accepted word.
int feed_stream(Sim &sim, const std::vector<uint32_t> &w, long gaps) {
  Vtcpa_top *t = sim.top;
  size_t i = 0;
  long guard = 0;
  uint32_t garbage = 0x9e3779b9u;
  while (i < w.size() && !t->err_o && guard++ < (long)w.size() * 4 + 16) {
    t->cfg_valid_i = 1;
    t->cfg_data_i = w[i];
    t->cfg_last_i = (i + 1 == w.size());
    sim.settle();
    bool acc = t->cfg_ready_o;
    sim.tick();
    if (acc) i++;
    if (acc && i < w.size()) idle_cycles(sim, gaps, garbage);
  }
  t->cfg_valid_i = 0;
  t->cfg_last_i = 0;
  // the loader raises start one cycle after the last word (cycle -1, in
  // which the second stream's first word may come), run the next
  for (int k = 0; k < 4 && !t->run_o && !t->err_o; k++) {
    sim.feed.apply(t, -1);
    sim.tick();
    if (t->run_o) sim.feed.advance(-1);
  }
  if (t->err_o) return t->err_code_o;
  return t->run_o ? 0 : 5;  // no start without an error: a length problem
}

// Returns the FST time units in one cycle of 1 ns for a time precision of
// 10^prec s (Verilator's timeprecision, -12 for 1 ps); 2 (half cycles, no
// longer nanoseconds) when the precision is coarser than 100 ps.
uint64_t fst_cycle_units(int prec) {
  uint64_t u = 1;
  for (int p = prec; p < -9; p++) u *= 10;
  return u >= 10 ? u : 2;
}

volatile std::sig_atomic_t g_term = 0;  // SIGTERM received

// Records a SIGTERM; the cycle loop stops at its next cycle.
void on_term(int) { g_term = 1; }

// Returns true after writing text to the live trace f (NULL: none) and
// flushing it; false when the reader has gone (EPIPE) or another error.
bool live_write(FILE *f, const std::string &text) {
  if (!f) return true;
  return fwrite(text.data(), 1, text.size(), f) == text.size() && fflush(f) == 0;
}

// Returns true after writing recs to the binary live trace f in one
// write(2), past stdio (its buffer is empty after the header: no copy of
// the records into it); false when the reader has gone.
bool live_write_buffer(FILE *f, const std::vector<rtl_record> &recs) {
  const char *b = reinterpret_cast<const char *>(recs.data());
  size_t left = recs.size() * sizeof(rtl_record);
  while (left > 0) {
    ssize_t n = write(fileno(f), b, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    b += n, left -= (size_t)n;
  }
  return true;
}

// Returns true after writing the records of events ev of cycle t, in the
// order ord (rtl_event_order), to the binary live trace f (their buffer:
// recs); false when the reader has gone.
bool live_write_records(FILE *f, long t, const std::vector<rtl_event> &ev,
                        const std::vector<std::pair<uint64_t, uint32_t>> &ord, std::vector<rtl_record> &recs) {
  recs.resize(ord.size());
  for (size_t i = 0; i < ord.size(); i++) {
    recs[i] = ev[ord[i].second].rec;
    recs[i].cycle = (uint64_t)t;
  }
  return live_write_buffer(f, recs);
}

static_assert(TRACE_DIGEST_KIND_FAULT == TRACE_FAULT && TRACE_DIGEST_RECORD == sizeof(rtl_record) &&
                  TRACE_DIGEST_DETAIL == offsetof(rtl_record, detail),
              "trace_digest.h does not describe rtl_record");

// Cycles of the digest stream written at once (one write(2) of at most
// 512 digest records, 60 KB, instead of one a cycle: the reader waits for
// them, the harness runs at most that many cycles ahead of it).
const size_t LIVE_DIGEST_BATCH = 512;

// Returns true after adding cycle t of the digest stream (docs/trace.md
// "Digest stream") to recs: the records of ev's done, faults and bank
// writes (what the reader takes the RTL's result from), then, when the
// cycle has events, one digest record of all of them
// (rdone as done; common/trace_digest.h: their number and the sum of their hashes, in
// whatever order they were collected); and after writing recs to f when
// they hold LIVE_DIGEST_BATCH cycles' worth or flush is set (the last
// cycle). False when the reader has gone.
bool live_write_digest(FILE *f, long t, const std::vector<rtl_event> &ev, std::vector<rtl_record> &recs,
                       bool flush) {
  trace_digest d = {0, 0};
  for (const rtl_event &e : ev) {
    trace_digest_add(&d, &e.rec);
    if (e.kind == TRACE_DONE || e.kind == TRACE_RDONE || e.kind == TRACE_FAULT ||
        (e.kind == TRACE_BANK && e.rec.bank_write)) {
      recs.push_back(e.rec);
      recs.back().cycle = (uint64_t)t;
    }
  }
  if (d.count) {
    rtl_record x;
    memset(&x, 0, sizeof x);
    x.cycle = (uint64_t)t, x.kind = TRACE_DIGEST_KIND, x.num = (uint32_t)d.count, x.cycles = d.sum;
    recs.push_back(x);
  }
  if (!flush && recs.size() < LIVE_DIGEST_BATCH) return true;
  bool ok = live_write_buffer(f, recs);
  recs.clear();
  return ok;
}

// The header of the binary event stream (docs/trace.md "Binary event
// stream"; trace_bin_header of common/trace.h): 48 bytes.
struct live_bin_header {
  char magic[8];
  uint32_t version, record_size, trace_version, reserved;
  uint64_t fingerprint, fst_t0, fst_period;
};
static_assert(sizeof(live_bin_header) == 48, "the binary header is 48 bytes");

// Returns true after writing the binary stream's header to f, flushed:
// an event stream's, or a digest stream's (digest).
bool live_write_header(FILE *f, uint64_t unit, bool digest) {
  live_bin_header h;
  memcpy(h.magic, digest ? TRACE_DIGEST_MAGIC : "tcpa-ev\n", 8);
  h.version = 1, h.record_size = sizeof(rtl_record), h.trace_version = 1, h.reserved = 0;
  h.fingerprint = TCPA_ARCH_FINGERPRINT, h.fst_t0 = 0, h.fst_period = unit;
  return fwrite(&h, sizeof h, 1, f) == 1 && fflush(f) == 0;
}

// Returns 0 with the live trace (--trace-stream) opened into *live (NULL
// without the option), SIGPIPE ignored and SIGTERM caught; 3 on an error.
int live_open(const Options &o, FILE **live) {
  *live = nullptr;
  if (!o.live) return 0;
  std::signal(SIGPIPE, SIG_IGN);  // a closed reader is a failed write
  std::signal(SIGTERM, on_term);
  if (!(*live = fopen(o.live, o.live_bin ? "wb" : "w"))) {
    fprintf(stderr, "tcpa-rtl: %s %s: %s\n", o.live_bin ? "--trace-bin" : "--trace-stream", o.live, strerror(errno));
    return 3;
  }
  return 0;
}

// Builds the Verilated model into sim (with its FST when --fst), then
// holds it in reset for three cycles and releases it for one.
void sim_start(Sim &sim, const Options &o, int argc, char **argv) {
  Verilated::commandArgs(argc, argv);  // +plusargs for the RTL (+mutant=N)
  Verilated::fatalOnError(false);      // a failed assertion: report, go on
  if (o.fst) Verilated::traceEverOn(true);  // before the model is built
  sim.top = new Vtcpa_top;
  if (o.fst) {
    sim.fst = new VerilatedFstC;
    sim.top->trace(sim.fst, 99);
    sim.fst->open(o.fst);
  }
  sim.unit = fst_cycle_units(Verilated::threadContextp()->timeprecision());
  if (o.win_from >= 0) sim.from = o.win_from, sim.to = o.win_to;
  sim.top->rst_ni = 0;
  sim.top->cfg_valid_i = 0;
  for (int k = 0; k < 3; k++) sim.tick();
  sim.top->rst_ni = 1;
  sim.tick();
}

// Writes the line and toggle counters of a harness built with Verilator's
// --coverage (VM_COVERAGE) through Verilator's own API to --coverage FILE,
// else to $TCPA_COVERAGE_DIR/cov-<pid>.dat when that is set (one file per
// run; `verilator_coverage --write` merges them, docs/regress.md
// "Sign-off"). A harness built without coverage writes nothing (parse_args
// refused --coverage; the environment variable reaches every harness).
void coverage_write(const Options &o) {
#if defined(VM_COVERAGE) && VM_COVERAGE
  const char *dir = std::getenv("TCPA_COVERAGE_DIR");
  std::string path = o.coverage ? o.coverage : "";
  if (path.empty() && dir && *dir) path = std::string(dir) + "/cov-" + std::to_string((long)getpid()) + ".dat";
  if (!path.empty()) Verilated::threadContextp()->coveragep()->write(path.c_str());
#else
  (void)o;
#endif
}

// Returns rc after closing the FST and the live trace, writing the
// coverage counters and destroying the model.
int sim_finish(Sim &sim, const Options &o, FILE *live, int rc) {
  if (sim.fst) sim.fst->close();
  if (live) fclose(live);
  coverage_write(o);
  delete sim.top;
  return rc;
}

// One region of the run: its stream's GC (from the RTL's rstart), its
// rectangle, start cycle and its own cycles when done (-1: not done).
struct Region {
  int gc = -1;
  unsigned row0 = 0, col0 = 0, rows = 0, cols = 0;
  long start = 0, cycles = -1;
};

// The outcome of the clocked part of a run.
struct RunEnd {
  long t = 0;                   // cycles clocked: 0..t-1
  bool done = false, fault = false;
  const char *stopped = nullptr;  // why the reader stopped the run, or NULL
  int rejected = -1;            // the stream the loader refused, or -1
  int err = 0;                  // its error code
  std::vector<Region> regions;  // one per stream, in stream order
};

// Notes in e.regions the regions that start in cycle t (stream 0 at cycle
// 0, stream k at t_k) and those done in it, from the per-GC ports.
void regions_note(Sim &sim, const Options &o, long t, RunEnd &e) {
  uint32_t rs = rtl_port_bits(sim.top->dbg_gc_rstart_o, 0, rtl_collect_ngc);
  uint32_t rd = rtl_port_bits(sim.top->dbg_gc_rdone_o, 0, rtl_collect_ngc);
  for (int g = 0; g < rtl_collect_ngc; g++) {
    if (rs >> g & 1) {
      for (size_t k = 0; k < o.streams.size(); k++) {
        if (o.streams[k].at != t || e.regions[k].gc >= 0) continue;
        Region &r = e.regions[k];
        r.gc = g, r.start = t;
        r.row0 = rtl_port_bits(sim.top->dbg_gc_rect_o, (unsigned)g * 64, 16);
        r.col0 = rtl_port_bits(sim.top->dbg_gc_rect_o, (unsigned)g * 64 + 16, 16);
        r.rows = rtl_port_bits(sim.top->dbg_gc_rect_o, (unsigned)g * 64 + 32, 16);
        r.cols = rtl_port_bits(sim.top->dbg_gc_rect_o, (unsigned)g * 64 + 48, 16);
        break;
      }
    }
    if (rd >> g & 1)
      for (Region &r : e.regions)
        if (r.gc == g && r.cycles < 0) r.cycles = (long)rtl_port_bits(sim.top->dbg_gc_cycles_o, (unsigned)g * 32, 32);
  }
}

// Collects into ev the events of cycle t from the dbg_* ports (the
// leftover FIFOs and `done` in the done cycle, the timeout in the last
// cycle allowed), unsorted; sets e.done and e.fault.
void cycle_collect(Sim &sim, const Options &o, long t, std::vector<uint32_t> &prev_sig, RunEnd &e,
                   std::vector<rtl_event> &ev) {
  ev.clear();
  const bool multi = o.streams.size() > 1;
  for (int p = 0; p < TCPA_ARRAY_ROWS * TCPA_ARRAY_COLS; p++) {
    rtl_collect_pe(sim.top, p, ev, prev_sig, &e.fault);
    rtl_collect_ag(sim.top, p, ev, &e.fault);
    rtl_collect_mask mask;
    if (multi) {
      mask.hidden = rtl_port_bits(sim.top->dbg_phide_o, (unsigned)p, 1);
      mask.cleared = rtl_port_bits(sim.top->dbg_pclear_o, (unsigned)p, 1);
      mask.loader_io = sim.top->dbg_cfg_io_o;
    }
    rtl_collect_state_pe(sim.top, p, ev, sim.state, mask);
  }
  rtl_collect_gc(sim.top, ev, multi);
  regions_note(sim, o, t, e);
  if (multi) rtl_collect_regions(sim.top, ev, t > 0);
  if (sim.top->done_o && sim.feed.all_started(t)) {
    e.done = true;
    sim.tick();  // FIFO contents at the end of the done cycle
    sim.settle();
    if (rtl_collect_leftover(sim.top, ev)) e.fault = true;
    collect_mem(sim, ev);
    rtl_event_add(ev, TRACE_DONE, -1, -1, 0, 0).cycles = (uint64_t)(t + 1);
  } else if (t + 1 == o.max_cycles) {
    rtl_event_fault(ev, -1, -1, &e.fault, TRACE_FAULT_TIMEOUT, "%ld", o.max_cycles);
  }
}

// Returns how the run ended after clocking it from cycle 0 until done, the
// cycle limit, or the reader of the live trace stopping it; the trace
// (header first) is appended to out (with --trace), and streamed to live
// as text or binary records.
RunEnd cycles_run(Sim &sim, const Options &o, FILE *live, std::string &out) {
  char line[160];
  snprintf(line, sizeof line, "# tcpa-trace 1 fp=0x%016llx\n# engine tcpa-rtl\n",
           (unsigned long long)TCPA_ARCH_FINGERPRINT);
  out += line;
  snprintf(line, sizeof line, "# fst t0=0 period=%llu\n", (unsigned long long)sim.unit);
  out += line;
  sim.begin();
  std::vector<uint32_t> prev_sig(TCPA_ARRAY_ROWS * TCPA_ARRAY_COLS, 0);
  RunEnd e;
  if (!(o.live_bin ? live_write_header(live, sim.unit, o.live_digest) : live_write(live, out)))
    e.stopped = "the trace reader closed the stream";
  // the events of one cycle and their text, reused from cycle to cycle;
  // the text is formed only when a text trace is written
  std::vector<rtl_event> ev;
  std::vector<std::pair<uint64_t, uint32_t>> ord;  // their canonical order
  std::vector<rtl_record> recs;
  std::string cyc;
  const bool text = o.trace || (live && !o.live_bin);
  e.regions.resize(o.streams.size());
  std::vector<size_t> cut(o.streams.size(), std::string::npos);  // out's length at c_k
  for (; e.t < o.max_cycles && !e.done && !e.stopped; e.t++) {
    if (g_term) {
      e.stopped = "SIGTERM";
      break;
    }
    sim.cycle = e.t;
    for (size_t k = 1; k < o.streams.size(); k++)
      if (e.t == sim.feed.first(k) + 1) cut[k] = out.size();
    sim.feed.apply(sim.top, e.t);
    const size_t fed = sim.top->cfg_valid_i ? sim.feed.next : o.streams.size();
    sim.settle();
    cycle_collect(sim, o, e.t, prev_sig, e, ev);
    if (text || (live && !o.live_digest)) rtl_event_order(ev, ord);
    if (text) {
      cyc.clear();
      for (const auto &k : ord) rtl_event_append(cyc, e.t, ev[k.second]);
      if (o.trace) out += cyc;
    }
    bool last = e.done || e.t + 1 == o.max_cycles || g_term;
    bool wrote = !live || (o.live_digest ? live_write_digest(live, e.t, ev, recs, last)
                           : o.live_bin   ? live_write_records(live, e.t, ev, ord, recs)
                                          : live_write(live, cyc));
    if (!wrote)
      e.stopped = "the trace reader closed the stream";
    if (!e.done) {
      sim.tick();
      sim.feed.advance(e.t);
      if (sim.top->err_o) {
        // a stream after the first refused: the trace ends before its
        // first word's cycle c_k (docs/trace.md "Several regions")
        e.rejected = (int)(fed < o.streams.size() ? fed : sim.feed.next);
        e.err = sim.top->err_code_o;
        if (cut[e.rejected] != std::string::npos) out.resize(cut[e.rejected]);
        e.t++;
        break;
      }
    }
  }
  return e;
}

// Returns 0 after writing text to path through a temporary file renamed
// into place; 3 after an error message.
int trace_file_write(const char *path, const std::string &text) {
  std::string tmp = std::string(path) + ".tmp";
  FILE *f = fopen(tmp.c_str(), "w");
  if (!f || fwrite(text.data(), 1, text.size(), f) != text.size() || fclose(f) != 0 ||
      rename(tmp.c_str(), path) != 0) {
    fprintf(stderr, "tcpa-rtl: %s: %s\n", path, strerror(errno));
    remove(tmp.c_str());
    return 3;
  }
  return 0;
}

}  // namespace

// Returns 0 after writing the results file of --results (docs/rtl.md
// "Results file"): outcome, cycles, the refused stream, the regions; 3
// after an error message.
int results_write(const Options &o, const char *outcome, long cycles, const RunEnd *e) {
  if (!o.results) return 0;
  std::string r = "# tcpa-rtl results (docs/rtl.md \"Results file\")\noutcome=";
  r += outcome;
  r += "\ncycles=" + std::to_string(cycles) + "\nstreams=" + std::to_string(o.streams.size()) + "\n";
  if (e && e->stopped) r += std::string("stopped=") + e->stopped + "\n";
  if (e && e->rejected >= 0)
    r += "rejected=" + std::to_string(e->rejected) + "\nerror=" + std::to_string(e->err) + "\n";
  for (size_t k = 0; e && k < e->regions.size(); k++) {
    const Region &g = e->regions[k];
    char b[200];
    snprintf(b, sizeof b, "region%zu=gc %d row0 %u col0 %u rows %u cols %u start %ld cycles %ld\n", k, g.gc, g.row0,
             g.col0, g.rows, g.cols, o.streams[k].at, g.cycles);
    r += b;
  }
  return trace_file_write(o.results, r);
}

// Prints on stderr every region's GC, rectangle, start and cycles (a run
// of several streams).
void regions_print(const Options &o, const RunEnd &e) {
  if (o.streams.size() < 2) return;
  for (size_t k = 0; k < e.regions.size(); k++) {
    const Region &g = e.regions[k];
    fprintf(stderr, "tcpa-rtl: region %zu (%s): GC %d, %ux%u at %u,%u, start cycle %ld, ", k,
            o.streams[k].path.c_str(), g.gc, g.rows, g.cols, g.row0, g.col0, o.streams[k].at);
    if (g.cycles >= 0) fprintf(stderr, "done after %ld cycles\n", g.cycles);
    else fprintf(stderr, "not done\n");
  }
}

// Returns the exit code of the run (see the top of the file).
int main(int argc, char **argv) {
  Options o;
  int rc = parse_args(argc, argv, o);
  if (rc) return rc;
  FILE *live = nullptr;
  for (StreamArg &s : o.streams)
    if ((rc = load_stream(s.path.c_str(), s.words, s.bytes))) return rc;
  if ((rc = streams_check(o))) {
    results_write(o, "invalid", 0, nullptr);
    return rc;
  }
  if ((rc = live_open(o, &live))) return rc;
  Sim sim;
  sim.feed.streams = &o.streams;
  sim_start(sim, o, argc, argv);

  const StreamArg &s0 = o.streams[0];
  int code = (s0.bytes % 4 != 0 || s0.bytes < 24) ? 1 : feed_stream(sim, s0.words, o.cfg_gaps);
  if (code) {
    fprintf(stderr, "tcpa-rtl: %s: stream rejected by the loader: error %d (%s)\n",
            o.stream, code, rtl_collect_error_name(code));
    report_assertions(sim);
    RunEnd none;
    none.rejected = 0, none.err = code;
    results_write(o, "rejected", 0, &none);
    return sim_finish(sim, o, live, 2);
  }
  std::string out;
  RunEnd e = cycles_run(sim, o, live, out);
  regions_print(o, e);
  if (e.stopped) {
    fprintf(stderr, "tcpa-rtl: stopped after %ld cycles (%s)\n", e.t, e.stopped);
    report_assertions(sim);
    results_write(o, "stopped", e.t, &e);
    return sim_finish(sim, o, live, 4);
  }
  if (e.rejected >= 0) {
    fprintf(stderr, "tcpa-rtl: stream %d (%s): rejected by the loader: error %d (%s)\n", e.rejected,
            o.streams[(size_t)e.rejected].path.c_str(), e.err, rtl_collect_error_name(e.err));
    report_assertions(sim);
    rc = o.trace ? trace_file_write(o.trace, out) : 0;
    results_write(o, "rejected", e.t, &e);
    return sim_finish(sim, o, live, rc ? rc : 2);
  }
  bool asserted = report_assertions(sim);
  rc = (e.done && !e.fault && !asserted) ? 0 : 1;
  if (o.trace && trace_file_write(o.trace, out)) rc = 3;
  if (o.banks && rc != 3 && dump_banks(sim, o.banks, o.dump_depth)) rc = 3;
  if (!e.done) fprintf(stderr, "tcpa-rtl: timeout after %ld cycles\n", o.max_cycles);
  const char *outcome = !e.done ? "timeout" : asserted ? "assert" : e.fault ? "fault" : "done";
  if (results_write(o, outcome, e.t, &e)) rc = 3;
  return sim_finish(sim, o, live, rc);
}
