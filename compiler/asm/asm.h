/*
 * asm.h: the text form of whole configuration streams (`.tasm`,
 * docs/asm.md): an assembler that turns it into a stream (stream.h) and a
 * disassembler that prints any valid stream as text that assembles back to
 * the identical bytes.
 *
 * A .tasm file is a sequence of packets. Each packet starts with a header
 * line naming its type, its unit (FU, global controller, side and bank) and
 * its rectangle of PEs; the lines after it are its payload: instructions in
 * the syntax of isa.h (with optional symbolic labels) for PROGRAM packets,
 * named fields (`ii 2`, `bounds 8 4`, `id0 = w1`, ...) for the others, or
 * raw `word` lines for any packet. The assembler checks each line as it
 * reads it and each packet with the stream writer's validator; every error
 * is printed through diag.h as FILE:LINE:COL with a caret, and the first is
 * kept for the caller.
 */
#ifndef TCPA_ASM_H
#define TCPA_ASM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch.h"
#include "stream.h"

/* The first error an assembly run met (line 0: none). */
typedef struct {
  int line, col;
  char msg[256];
  int count; /* errors printed in all */
} asm_error;

/* Returns 0 after assembling `text` (the contents of file `name`, used in
 * messages) for architecture cfg into the fresh writer *w (initialized
 * here; the caller frees it in every case); returns -1 after printing every
 * error, the first also in *err when err is not NULL. */
int asm_text_assemble(const char *name, const char *text,
                      const arch_config *cfg, stream_writer *w,
                      asm_error *err);

/* Returns what asm_text_assemble returns for the file at `path` (an
 * unreadable file is an error at line 0). */
int asm_file_assemble(const char *path, const arch_config *cfg,
                      stream_writer *w, asm_error *err);

/* Returns STREAM_OK after writing the .tasm text of the stream buf[0..len)
 * to `out`; else the stream_error of the reader with the reason in msg
 * (nothing meaningful is written then). */
int asm_stream_disassemble(const uint8_t *buf, size_t len,
                           const arch_config *cfg, FILE *out, char *msg,
                           size_t msgsz);

#endif
