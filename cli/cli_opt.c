/*
 * cli_opt.c: the option parser of cli_opt.h over getopt_long
 * (docs/user-guide.md, "Options").
 *
 * getopt runs with the short-option string "-:" + the command's own: `-`
 * returns positional arguments in order as code 1 (argv stays as given, so
 * a reproduction bundle can print the command line back), `:` reports a
 * missing value as ':' rather than '?', and opterr = 0 keeps getopt's own
 * messages quiet: this file prints them, in the project's form
 * (`tcpa: error: CMD: ...`, diag.h). optind = 0 makes glibc re-initialise
 * fully, so that a second parse in one process (the unit tests) starts
 * clean. After `--`, the remaining arguments are positional.
 */
#include "cli_opt.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

void cli_opt_init(cli_opt *p, const char *cmd, int argc, char **argv, const char *shortopts,
                  const struct option *longopts) {
  memset(p, 0, sizeof *p);
  p->cmd = cmd;
  p->argc = argc;
  p->argv = argv;
  p->longopts = longopts;
  snprintf(p->shortopts, sizeof p->shortopts, "-:%s", shortopts);
  optind = 0;
  opterr = 0;
}

/* Returns the length of the option name in the long option text s
 * ("--name" or "--name=value"), without the dashes. */
static size_t cli_opt_typed_len(const char *s) { return strcspn(s + 2, "="); }

/* Returns the long option whose name starts with the typed name s (of
 * length len) and whose code is val, or the first one with that prefix
 * when val is 0; NULL when there is none. Sets *count to how many long
 * options have that prefix. */
static const struct option *cli_opt_prefix(const cli_opt *p, const char *s, size_t len, int val,
                                           int *count) {
  const struct option *found = NULL;
  *count = 0;
  for (const struct option *o = p->longopts; o && o->name; o++) {
    if (strncmp(o->name, s, len)) continue;
    if (strlen(o->name) == len) { /* an exact name wins over prefixes */
      *count = 1;
      return o;
    }
    ++*count;
    if (!found && (!val || o->val == val)) found = o;
  }
  return found;
}

/* Prints the error of getopt's result c (':' or '?') about the option at
 * argv[at]; returns CLI_OPT_ERROR. */
static int cli_opt_error(cli_opt *p, int c, int at) {
  const char *a = at < p->argc ? p->argv[at] : "";
  if (!strncmp(a, "--", 2)) {
    size_t len = cli_opt_typed_len(a);
    int count;
    const struct option *o = cli_opt_prefix(p, a + 2, len, optopt, &count);
    if (c == ':' || (optopt && o))
      snprintf(p->name, sizeof p->name, "--%s", o ? o->name : a + 2);
    else
      snprintf(p->name, sizeof p->name, "--%.*s", (int)(len < 60 ? len : 60), a + 2);
    if (c == '?' && !optopt && count > 1) {
      diag_error_plain("%s: option '%s' is ambiguous: it starts more than one option (see 'tcpa %s --help')",
                       p->cmd, p->name, p->cmd);
      return CLI_OPT_ERROR;
    }
    if (c == '?' && optopt) {
      diag_error_plain("%s: option '%s' takes no value, got '%s' (see 'tcpa %s --help')", p->cmd, p->name, a,
                       p->cmd);
      return CLI_OPT_ERROR;
    }
  } else {
    snprintf(p->name, sizeof p->name, "-%c", optopt ? optopt : '?');
  }
  if (c == ':')
    diag_error_plain("%s: %s needs a value (see 'tcpa %s --help')", p->cmd, p->name, p->cmd);
  else
    diag_error_plain("%s: unknown option '%s' (see 'tcpa %s --help')", p->cmd, p->name, p->cmd);
  return CLI_OPT_ERROR;
}

/* Returns the next positional argument after getopt finished (in p->arg)
 * as CLI_OPT_ARG, or CLI_OPT_END. */
static int cli_opt_rest(cli_opt *p) {
  if (p->rest >= p->argc) return CLI_OPT_END;
  p->arg = p->argv[p->rest++];
  return CLI_OPT_ARG;
}

int cli_opt_next(cli_opt *p) {
  p->arg = NULL;
  p->name[0] = '\0';
  if (p->rest) return cli_opt_rest(p);
  int at = optind ? optind : 1, longindex = -1;
  optopt = 0;
  int c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, &longindex);
  if (c == -1) {
    p->rest = optind > 0 ? optind : p->argc;
    return cli_opt_rest(p);
  }
  if (c == 1) {
    p->arg = optarg;
    return CLI_OPT_ARG;
  }
  if (c == ':' || c == '?') return cli_opt_error(p, c, at);
  if (longindex >= 0)
    snprintf(p->name, sizeof p->name, "--%s", p->longopts[longindex].name);
  else
    snprintf(p->name, sizeof p->name, "-%c", c);
  p->arg = optarg;
  return c;
}

int cli_opt_int_text(const char *s, int64_t lo, int64_t hi, int64_t *v) {
  const char *d = s + (*s == '-' || *s == '+');
  if (!isdigit((unsigned char)*d)) return -1;
  int hex = d[0] == '0' && (d[1] == 'x' || d[1] == 'X');
  if (hex ? !isxdigit((unsigned char)d[2]) : d[0] == '0' && d[1] != '\0') return -1; /* "0x", octal */
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 0);
  if (errno || *end || x < lo || x > hi) return -1;
  *v = x;
  return 0;
}

int cli_opt_int(const cli_opt *p, int64_t lo, int64_t hi, const char *what, int64_t *v) {
  if (cli_opt_int_text(p->arg, lo, hi, v) == 0) return 0;
  diag_error_plain("%s: %s: expected %s from %lld to %lld, got '%s'", p->cmd, p->name,
                   what ? what : "an integer", (long long)lo, (long long)hi, p->arg);
  return -1;
}

int cli_opt_pair(const cli_opt *p, const char *what, char **name, const char **value) {
  const char *eq = strchr(p->arg, '=');
  *name = NULL;
  if (!eq || eq == p->arg || !eq[1]) {
    diag_error_plain("%s: %s: expected NAME=%s, got '%s'", p->cmd, p->name, what, p->arg);
    return -1;
  }
  if (!(*name = strndup(p->arg, (size_t)(eq - p->arg)))) {
    diag_error_plain("%s: out of memory", p->cmd);
    return -1;
  }
  *value = eq + 1;
  return 0;
}

int cli_opt_pes_text(const char *s, int *rows, int *cols, int *row0, int *col0) {
  char buf[4][24];
  const char *x = strchr(s, 'x'), *at = strchr(s, '@'), *comma = at ? strchr(at, ',') : NULL;
  if (!x || (at && (!comma || at < x))) return -1;
  const char *end = at ? at : s + strlen(s);
  const char *part[4][2] = {{s, x}, {x + 1, end}, {at ? at + 1 : "0", at ? comma : NULL},
                            {at ? comma + 1 : "0", NULL}};
  int64_t v[4];
  for (int i = 0; i < 4; i++) {
    size_t n = part[i][1] ? (size_t)(part[i][1] - part[i][0]) : strlen(part[i][0]);
    if (n == 0 || n >= sizeof buf[i]) return -1;
    memcpy(buf[i], part[i][0], n);
    buf[i][n] = 0;
    if (cli_opt_int_text(buf[i], i < 2 ? 1 : 0, 65535, &v[i])) return -1;
  }
  *rows = (int)v[0], *cols = (int)v[1], *row0 = (int)v[2], *col0 = (int)v[3];
  return 0;
}
