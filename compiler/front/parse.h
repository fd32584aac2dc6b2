/*
 * parse.h: the lexer and parser of the loop language (docs/language.md).
 * They build an ast_program, resolving every name as they read; errors are
 * printed through diag.h with file:line:column and a caret.
 */
#ifndef TCPA_PARSE_H
#define TCPA_PARSE_H

#include "ast.h"

/* Returns the program read from `path`, or NULL after printing errors
 * (syntax, unknown names, a file that cannot be read). */
ast_program *parse_file(const char *path);

/* Returns the program parsed from `text` (reported as file `name`), or NULL
 * after printing errors. */
ast_program *parse_string(const char *name, const char *text);

#endif
