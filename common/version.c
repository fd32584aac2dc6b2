/*
 * version.c: the version strings of version.h. TCPA_GIT_REV comes from the
 * Makefile (`git describe --always --dirty`), recompiled whenever the
 * revision changes (build/gen/git_rev.txt).
 */
#include "version.h"

#ifndef TCPA_GIT_REV
#define TCPA_GIT_REV "unknown"
#endif

const char *version_tool(void) { return TCPA_VERSION; }

const char *version_git_rev(void) { return TCPA_GIT_REV; }
