/*
 * engine_config.c: the compiled configuration every engine runs
 * (tb/engine.h): what it owns and how it is freed. It is built from a
 * program by regress/engine_build.c (engine_config_build).
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

void engine_config_free(engine_config *c) {
  free(c->stream);
  free(c->listing);
  free(c->place);
  free(c->out_n);
  memset(c, 0, sizeof *c);
}
