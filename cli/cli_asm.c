/*
 * cli_asm.c: `tcpa asm SRC.tasm [--arch A.ini] -o OUT.bin` and
 * `tcpa disasm IN.bin [--arch A.ini] [-o OUT.tasm]` (docs/asm.md).
 *
 * asm assembles the text form of a configuration stream (asm.h) and writes
 * the binary through the stream writer, atomically (a temporary file renamed
 * into place); every error is printed as FILE:LINE:COL and the exit status
 * is 2, with no output file. disasm reads a stream, checks it against the
 * architecture (header, CRC, every packet) and prints its text form, which
 * assembles back to the identical bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "asm.h"
#include "cli.h"
#include "cli_opt.h"
#include "diag.h"
#include "stream.h"

typedef struct {
  const char *in, *out, *arch;
} cli_asm_opts;

/* Prints the usage of `tcpa asm` (dis = 0) or `tcpa disasm` (dis = 1). */
static void cli_asm_usage(FILE *f, int dis) {
  if (!dis)
    fputs("usage: tcpa asm SRC.tasm [--arch FILE] -o OUT.bin\n\n"
          "Assembles the text form of a configuration stream (docs/asm.md) into\n"
          "the binary stream of docs/stream.md, written atomically to OUT.bin.\n\n", f);
  else
    fputs("usage: tcpa disasm IN.bin [--arch FILE] [-o OUT.tasm]\n\n"
          "Checks a configuration stream and prints its text form (docs/asm.md),\n"
          "which 'tcpa asm' turns back into the identical bytes.\n\n", f);
  fputs("  --arch FILE   architecture configuration (default: the embedded\n"
        "                configs/default.ini)\n", f);
  fputs(dis ? "  -o OUT.tasm   write the text to OUT.tasm (atomically) instead of stdout\n"
            : "  -o OUT.bin    the stream file to write\n", f);
  fputs("  -h, --help    print this help\n\n"
        "exit status: 0 done, 2 invalid input (each error as FILE:LINE:COL: error:\n"
        "... for asm; the byte offset and the failed check for disasm)\n", f);
}

/* Returns 0 and the options in *o, 1 for --help, -1 after an error. */
static int cli_asm_parse(int argc, char **argv, cli_asm_opts *o, const char *cmd) {
  enum { OPT_ARCH = CLI_OPT_LONG };
  static const struct option longopts[] = {
      {"help", no_argument, NULL, 'h'}, {"arch", required_argument, NULL, OPT_ARCH}, {NULL, 0, NULL, 0}};
  memset(o, 0, sizeof *o);
  cli_opt p;
  cli_opt_init(&p, cmd, argc, argv, "ho:", longopts);
  for (int c; (c = cli_opt_next(&p)) != CLI_OPT_END;) {
    if (c == 'h') return 1;
    if (c == 'o' || c == OPT_ARCH) {
      *(c == 'o' ? &o->out : &o->arch) = p.arg;
    } else if (c != CLI_OPT_ARG) {
      return -1;
    } else if (o->in) {
      diag_error_plain("%s: more than one input ('%s' and '%s')", cmd, o->in, p.arg);
      return -1;
    } else {
      o->in = p.arg;
    }
  }
  if (!o->in) {
    diag_error_plain("%s: no input file given (see 'tcpa %s --help')", cmd, cmd);
    return -1;
  }
  return 0;
}

/* Returns 0 after loading the architecture of the options into *cfg. */
static int cli_asm_arch(const cli_asm_opts *o, arch_config *cfg) {
  return o->arch ? arch_config_load(o->arch, cfg) : arch_config_load_default(cfg);
}

int cli_asm(int argc, char **argv) {
  cli_asm_opts o;
  int r = cli_asm_parse(argc, argv, &o, "asm");
  if (r == 1) return cli_asm_usage(stdout, 0), CLI_EXIT_OK;
  if (r < 0) return CLI_EXIT_INPUT;
  if (!o.out) {
    diag_error_plain("asm: no output file given: -o OUT.bin");
    return CLI_EXIT_INPUT;
  }
  arch_config cfg;
  if (cli_asm_arch(&o, &cfg)) return CLI_EXIT_INPUT;
  stream_writer w;
  int rc = asm_file_assemble(o.in, &cfg, &w, NULL);
  if (rc == 0 && stream_writer_save(&w, o.out) != STREAM_OK) {
    diag_error_plain("asm: cannot write '%s': %s", o.out, w.msg);
    rc = -1;
  }
  stream_writer_free(&w);
  return rc ? CLI_EXIT_INPUT : CLI_EXIT_OK;
}

/* Returns 0 after disassembling buf into the file o->out through a
 * temporary file renamed into place; -1 after printing why not. */
static int cli_disasm_to_file(const cli_asm_opts *o, const uint8_t *buf, size_t len,
                              const arch_config *cfg) {
  size_t n = strlen(o->out) + 16;
  char *tmp = malloc(n), msg[256] = "";
  if (!tmp) return diag_error_plain("disasm: out of memory"), -1;
  snprintf(tmp, n, "%s.tmpXXXXXX", o->out);
  int fd = mkstemp(tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!f) {
    diag_error_plain("disasm: cannot write '%s': %s", o->out, strerror(errno));
    if (fd >= 0) close(fd), unlink(tmp);
    free(tmp);
    return -1;
  }
  int rc = asm_stream_disassemble(buf, len, cfg, f, msg, sizeof msg);
  int bad = fflush(f) != 0 || ferror(f);
  if (fclose(f) != 0) bad = 1;
  if (rc != STREAM_OK) diag_error_plain("%s: %s", o->in, msg);
  else if (bad || rename(tmp, o->out) != 0)
    diag_error_plain("disasm: cannot write '%s': %s", o->out, strerror(errno));
  else {
    free(tmp);
    return 0;
  }
  unlink(tmp);
  free(tmp);
  return -1;
}

int cli_disasm(int argc, char **argv) {
  cli_asm_opts o;
  int r = cli_asm_parse(argc, argv, &o, "disasm");
  if (r == 1) return cli_asm_usage(stdout, 1), CLI_EXIT_OK;
  if (r < 0) return CLI_EXIT_INPUT;
  arch_config cfg;
  if (cli_asm_arch(&o, &cfg)) return CLI_EXIT_INPUT;
  uint8_t *buf;
  size_t len;
  if (stream_file_load(o.in, &buf, &len) != STREAM_OK) {
    diag_error_plain("disasm: cannot read '%s': %s", o.in, strerror(errno));
    return CLI_EXIT_INPUT;
  }
  int rc;
  if (o.out) {
    rc = cli_disasm_to_file(&o, buf, len, &cfg);
  } else {
    char msg[256] = "";
    rc = asm_stream_disassemble(buf, len, &cfg, stdout, msg, sizeof msg);
    if (rc != STREAM_OK) diag_error_plain("%s: %s", o.in, msg);
    else if (fflush(stdout) != 0 || ferror(stdout))
      rc = -1, diag_error_plain("disasm: cannot write the output: %s", strerror(errno));
  }
  free(buf);
  return rc ? CLI_EXIT_INPUT : CLI_EXIT_OK;
}
