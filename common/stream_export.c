/*
 * stream_export.c: a configuration stream as a C header or as $readmemh
 * files (stream_export.h, docs/instantiate.md "Output formats").
 *
 * The readmemh words are the stream's little-endian 32-bit words in
 * order, header first: what the loader takes one a cycle
 * (docs/stream.md). The banks' initial contents come from reading the
 * stream back with the stream reader (stream.h), which checks it, and
 * applying each IODATA packet to every PE of its rectangle: the words
 * from its start address, in bank INDEX on SIDE. A bank is a slot of
 * cfg->bank_depth words; banks no packet writes get no file.
 *
 * All files go through datafile_tmp and are renamed only when every one
 * is complete.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafile.h"
#include "stream.h"
#include "stream_export.h"

int stream_export_format_parse(const char *s) {
  static const char *const names[] = {"bin", "c-header", "readmemh"};
  for (int i = 0; s && i < 3; i++)
    if (!strcmp(s, names[i])) return i;
  return -1;
}

char *stream_export_symbol(const char *path, char *buf, size_t sz) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t n = strcspn(base, ".");
  size_t o = 0;
  if (n && base[0] >= '0' && base[0] <= '9' && o + 1 < sz) buf[o++] = '_';
  for (size_t i = 0; i < n && o + 1 < sz; i++) {
    char c = base[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    buf[o++] = ok ? c : '_';
  }
  if (!o && sz > 7) o = (size_t)snprintf(buf, sz, "config");
  buf[o < sz ? o : sz - 1] = '\0';
  return buf;
}

int stream_export_c_header(const char *path, const char *what, const uint8_t *bytes, size_t len, char *msg,
                           size_t msgsz) {
  char sym[128];
  stream_export_symbol(path, sym, sizeof sym);
  datafile_tmp t;
  if (datafile_tmp_open(&t, path)) {
    snprintf(msg, msgsz, "cannot write '%s'", path);
    return -1;
  }
  fprintf(t.f,
          "/*\n * %s: a TCPA configuration stream (docs/stream.md), %zu bytes, as a C array:\n * %s\n"
          " * Written by tcpa instantiate --format c-header; load it with the runtime or\n"
          " * hand SYM_stream to any loader of the stream.\n */\n",
          path, len, what);
  fprintf(t.f, "#ifndef TCPA_STREAM_%s_H\n#define TCPA_STREAM_%s_H\n\n#include <stddef.h>\n#include <stdint.h>\n\n",
          sym, sym);
  fprintf(t.f, "static const size_t %s_stream_len = %zu;\n\nstatic const uint8_t %s_stream[%zu] = {", sym, len, sym,
          len);
  for (size_t i = 0; i < len; i++) fprintf(t.f, "%s0x%02x%s", i % 12 ? " " : "\n    ", bytes[i], i + 1 < len ? "," : "");
  fprintf(t.f, "\n};\n\n#endif\n");
  if (datafile_tmp_commit(&t)) {
    snprintf(msg, msgsz, "cannot write '%s'", path);
    return -1;
  }
  return 0;
}

/* One bank the stream's IODATA fills. */
typedef struct {
  int row, col, side, bank;
  uint32_t *w; /* [bank_depth] */
} stream_export_bank;

/* Returns the bank (row, col, side, bank) of the list, added (zeroed)
 * when missing; NULL out of memory. */
static stream_export_bank *stream_export_bank_get(stream_export_bank **list, int *n, int depth, int row, int col,
                                                  int side, int bank) {
  for (int i = 0; i < *n; i++) {
    stream_export_bank *b = &(*list)[i];
    if (b->row == row && b->col == col && b->side == side && b->bank == bank) return b;
  }
  stream_export_bank *nl = realloc(*list, (size_t)(*n + 1) * sizeof *nl);
  if (!nl) return NULL;
  *list = nl;
  stream_export_bank *b = &nl[(*n)++];
  *b = (stream_export_bank){row, col, side, bank, calloc((size_t)depth + 1, sizeof *b->w)};
  return b->w ? b : NULL;
}

/* Returns 0 after applying every IODATA packet of the stream to *list;
 * -1 with msg (the reader's refusal, out of memory). */
static int stream_export_banks_fill(const arch_config *cfg, const uint8_t *bytes, size_t len,
                                    stream_export_bank **list, int *n, char *msg, size_t msgsz) {
  stream_reader r;
  int st = stream_reader_open(&r, bytes, len, cfg), rc = 0;
  stream_packet p;
  while (!st && (st = stream_reader_next(&r, &p)) == 1) {
    st = 0;
    if (p.type != STREAM_PKT_IODATA || p.nwords < 1) continue;
    for (int dr = 0; dr < p.rect.rows; dr++)
      for (int dc = 0; dc < p.rect.cols; dc++) {
        stream_export_bank *b = stream_export_bank_get(list, n, cfg->bank_depth, p.rect.row0 + dr,
                                                       p.rect.col0 + dc, p.side, p.index);
        if (!b) {
          snprintf(msg, msgsz, "out of memory");
          stream_reader_close(&r);
          return -1;
        }
        for (uint32_t i = 1; i < p.nwords && p.payload[0] + i - 1 < (uint32_t)cfg->bank_depth; i++)
          b->w[p.payload[0] + i - 1] = p.payload[i];
      }
  }
  if (st < 0) {
    snprintf(msg, msgsz, "the stream: %s", r.msg);
    rc = -1;
  }
  stream_reader_close(&r);
  return rc;
}

/* Writes n 32-bit words w, 8 hex digits a line, into the open temporary
 * file t. */
static void stream_export_words(datafile_tmp *t, const uint32_t *w, size_t n) {
  for (size_t i = 0; i < n; i++) fprintf(t->f, "%08x\n", (unsigned)w[i]);
}

int stream_export_readmemh(const char *path, const arch_config *cfg, const uint8_t *bytes, size_t len, int *nbanks,
                           char *msg, size_t msgsz) {
  static const char sides[] = "nesw";
  stream_export_bank *banks = NULL;
  int n = 0, rc = -1;
  if (len % 4) {
    snprintf(msg, msgsz, "the stream is not whole words (%zu bytes)", len);
    return -1;
  }
  if (stream_export_banks_fill(cfg, bytes, len, &banks, &n, msg, msgsz)) goto done;
  size_t stem_len = strlen(path);
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  if (dot && (!slash || dot > slash)) stem_len = (size_t)(dot - path);
  datafile_tmp *t = calloc((size_t)n + 2, sizeof *t);
  char name[4200];
  int opened = 0;
  if (!t) {
    snprintf(msg, msgsz, "out of memory");
    goto done;
  }
  uint32_t *words = malloc(len + 4);
  for (size_t i = 0; words && i < len / 4; i++)
    words[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 | (uint32_t)bytes[4 * i + 2] << 16 |
               (uint32_t)bytes[4 * i + 3] << 24;
  int bad = !words || datafile_tmp_open(&t[opened], path);
  if (!bad) stream_export_words(&t[opened++], words, len / 4);
  snprintf(name, sizeof name, "%.*s.banks", (int)stem_len, path);
  if (!bad && !(bad = datafile_tmp_open(&t[opened], name))) opened++;
  for (int i = 0; i < n && !bad; i++) {
    const stream_export_bank *b = &banks[i];
    snprintf(name, sizeof name, "%.*s.r%d.c%d.%c%d.memh", (int)stem_len, path, b->row, b->col, sides[b->side & 3],
             b->bank);
    if ((bad = datafile_tmp_open(&t[opened], name))) break;
    stream_export_words(&t[opened++], b->w, (size_t)cfg->bank_depth);
    const char *base = strrchr(name, '/');
    fprintf(t[1].f, "%d %d %c %d %s\n", b->row, b->col, sides[b->side & 3], b->bank, base ? base + 1 : name);
  }
  for (int i = 0; i < opened; i++) {
    if (bad) datafile_tmp_abort(&t[i]);
    else if (datafile_tmp_commit(&t[i])) bad = 1;
  }
  if (bad) snprintf(msg, msgsz, "cannot write the readmemh files of '%s'", path);
  else rc = 0, *nbanks = n;
  free(words);
  free(t);
done:
  for (int i = 0; i < n; i++) free(banks[i].w);
  free(banks);
  return rc;
}
