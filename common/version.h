/*
 * version.h: the version of the `tcpa` tool and the git revision it was
 * built from (docs/user-guide.md, "tcpa --version"). The Makefile passes
 * the revision as TCPA_GIT_REV when it compiles version.c; a build outside
 * a git checkout reports "unknown".
 */
#ifndef TCPA_VERSION_H
#define TCPA_VERSION_H

/* The tool's release version, "MAJOR.MINOR.PATCH". */
#define TCPA_VERSION "0.9.0"

/* Returns the tool's version string, TCPA_VERSION. */
const char *version_tool(void);

/* Returns the git revision of the build ("18c1c9b", "18c1c9b-dirty"), or
 * "unknown" when it was not built from a git checkout. */
const char *version_git_rev(void);

#endif
