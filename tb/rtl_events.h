// rtl_events.h: one trace event of trace.md as the RTL harness collects it,
// and the canonical order of the events of one cycle: event kind in the
// table's order, row, column (the machine, `-`, after every PE: trace.md),
// first field (FU, register index, side), second
// key (destination order of wr, port or bank), then the text.
#ifndef TCPA_RTL_EVENTS_H
#define TCPA_RTL_EVENTS_H

#include <algorithm>
#include <string>
#include <vector>

enum rtl_event_kind {
  EV_START, EV_SIG, EV_ISSUE, EV_HALT, EV_POP, EV_FDRD, EV_WR, EV_HOP,
  EV_PUSH, EV_BANK, EV_FAULT, EV_DONE
};

struct rtl_event {
  int kind, row, col, k1, k2; /* row -1: the whole machine (`-`) */
  std::string text;           /* the fields after PLACE */
};

// Returns an event.
inline rtl_event rtl_event_make(int kind, int row, int col, int k1, int k2,
                                const std::string &text) {
  return rtl_event{kind, row, col, k1, k2, text};
}

// Sorts the events of one cycle into the canonical order.
inline void rtl_event_sort(std::vector<rtl_event> &ev) {
  std::stable_sort(ev.begin(), ev.end(), [](const rtl_event &a, const rtl_event &b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.row != b.row) return (unsigned)a.row < (unsigned)b.row; /* `-` last */
    if (a.col != b.col) return a.col < b.col;
    if (a.k1 != b.k1) return a.k1 < b.k1;
    if (a.k2 != b.k2) return a.k2 < b.k2;
    return a.text < b.text;
  });
}

// Returns the trace line of event e in cycle t.
inline std::string rtl_event_format(long t, const rtl_event &e) {
  static const char *const names[] = {"start", "sig",  "issue", "halt",
                                      "pop",   "fdrd", "wr",    "hop",
                                      "push",  "bank", "fault", "done"};
  std::string s = std::to_string(t) + " " + names[e.kind] + " ";
  s += e.row < 0 ? std::string("-") : std::to_string(e.row) + "," + std::to_string(e.col);
  if (!e.text.empty()) s += " " + e.text;
  return s + "\n";
}

#endif
