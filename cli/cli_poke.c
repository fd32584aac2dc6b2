/*
 * cli_poke.c: `tcpa stream-poke IN.bin --word N --xor MASK -o OUT.bin` and
 * `tcpa stream-poke IN.bin --fields` (docs/stream.md): reads the options
 * into a stream_poke_opts and runs the request (stream_poke_run,
 * stream_poke.c: the poke with a fresh CRC, or the word map).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "stream_poke.h"

/* Prints the usage of `tcpa stream-poke` to f. */
static void cli_poke_usage(FILE *f) {
  fputs("usage: tcpa stream-poke IN.bin --word N --xor MASK -o OUT.bin\n"
        "       tcpa stream-poke IN.bin --fields\n\n"
        "Fault injection: flips the bits MASK of 32-bit word N of a configuration\n"
        "stream (N counted from the start of the file; the header, words 0..5, is\n"
        "refused) and recomputes the CRC-32, so the loaders accept the corruption.\n"
        "--fields prints one line per payload word: WORD PKT TYPE INDEX SIDE\n"
        "ROW0,COL0 ROWSxCOLS FIELD VALUE [NAME@LO:SIZE...] (stream.md, isa.h).\n\n"
        "  --word N      the word to corrupt (decimal or 0x hex)\n"
        "  --xor MASK    the bits to flip (nonzero, decimal or 0x hex)\n"
        "  -o OUT.bin    the corrupted stream (written atomically)\n"
        "  --fields      print the word map instead\n"
        "  -h, --help    print this help\n\n"
        "exit status: 0 done, 2 invalid input (a header word, a word past the\n"
        "end, a file that is not a stream)\n", f);
}

/* Returns 0 and the options in *o, 1 for --help, -1 after an error. */
static int cli_poke_parse(int argc, char **argv, stream_poke_opts *o) {
  enum { OPT_FIELDS = CLI_OPT_LONG, OPT_WORD, OPT_XOR };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'},         {"fields", no_argument, NULL, OPT_FIELDS},
      {"word", required_argument, NULL, OPT_WORD}, {"xor", required_argument, NULL, OPT_XOR},
      {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  o->word = -1;
  cli_opt p;
  cli_opt_init(&p, "stream-poke", argc, argv, "ho:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    int64_t v;
    switch (c) {
    case 'h': return 1;
    case OPT_FIELDS: o->fields = 1; break;
    case 'o': o->out = p.arg; break;
    case OPT_WORD:
      if (cli_opt_int(&p, 0, 0x7fffffff, "a word index", &v)) return -1;
      o->word = (long)v;
      break;
    case OPT_XOR:
      if (cli_opt_int(&p, 1, 0xffffffff, "a nonzero 32-bit mask", &v)) return -1;
      o->mask = (uint32_t)v;
      o->have_mask = 1;
      break;
    case CLI_OPT_ARG:
      if (o->in) {
        diag_error_plain("stream-poke: more than one input ('%s' and '%s')", o->in, p.arg);
        return -1;
      }
      o->in = p.arg;
      break;
    default: return -1;
    }
  }
  if (!o->in) {
    diag_error_plain("stream-poke: no input file given (see 'tcpa stream-poke --help')");
    return -1;
  }
  if (!o->fields && (o->word < 0 || !o->have_mask || !o->out)) {
    diag_error_plain("stream-poke: --word N, --xor MASK and -o OUT.bin are all required");
    return -1;
  }
  return 0;
}

int cli_stream_poke(int argc, char **argv) {
  stream_poke_opts o;
  int rc = cli_poke_parse(argc, argv, &o);
  if (rc) {
    cli_poke_usage(rc > 0 ? stdout : stderr);
    return rc > 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT;
  }
  return stream_poke_run(&o);
}
