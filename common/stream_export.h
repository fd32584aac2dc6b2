/*
 * stream_export.h: a configuration stream (docs/stream.md) in the forms a
 * team's own testbench or host code loads (`tcpa instantiate --format`,
 * docs/instantiate.md "Output formats"):
 *
 *   c-header  the stream's bytes as a C array in a header: a host program
 *             that embeds a configuration;
 *   readmemh  the stream as 32-bit words, one hex word a line, for
 *             SystemVerilog's $readmemh; beside it, one file per bank the
 *             stream's IODATA packets fill (its initial contents, every
 *             word of iobuf.depth) and an index of those files.
 *
 * Every file is written through a temporary file and renamed into place
 * once all are complete (datafile.h): a failure leaves none of them.
 */
#ifndef TCPA_STREAM_EXPORT_H
#define TCPA_STREAM_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"

/* The output formats of `tcpa instantiate --format`. */
typedef enum { STREAM_EXPORT_BIN, STREAM_EXPORT_C_HEADER, STREAM_EXPORT_READMEMH } stream_export_format;

/* Returns the format named s ("bin", "c-header", "readmemh"), or -1. */
int stream_export_format_parse(const char *s);

/* Writes into buf (size sz) the C identifier made of the file name of
 * path without its directory and extension: every character that is not
 * a letter, digit or '_' becomes '_', and a leading digit gets a '_'
 * before it ("out/mm-4.h" -> "mm_4"); returns buf. */
char *stream_export_symbol(const char *path, char *buf, size_t sz);

/* Returns 0 after writing the header `path` that defines
 * `static const uint8_t SYM_stream[LEN]` (the stream's bytes) and
 * `static const size_t SYM_stream_len`, SYM from stream_export_symbol,
 * with `what` (one line naming the configuration) in its top comment;
 * -1 with the reason in msg. */
int stream_export_c_header(const char *path, const char *what, const uint8_t *bytes, size_t len, char *msg,
                           size_t msgsz);

/* Returns 0 after writing, for the stream bytes[0..len) of architecture
 * cfg: `path` (the stream's words, 8 hex digits a line, the first word
 * first, as the loader takes them), STEM.rR.cC.SIDEB.memh for every bank
 * an IODATA packet writes (bank B on side SIDE, one of n e s w, of PE (R,
 * C); iobuf.depth words, unwritten ones 0) and STEM.banks, one line
 * "ROW COL SIDE BANK FILE" per bank file (STEM: path without its
 * extension); *nbanks the bank files. -1 with the reason in msg (a stream
 * the reader refuses, a file that cannot be written). */
int stream_export_readmemh(const char *path, const arch_config *cfg, const uint8_t *bytes, size_t len, int *nbanks,
                           char *msg, size_t msgsz);

#endif
