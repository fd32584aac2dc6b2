/*
 * lex.h: the lexer of the loop language (docs/language.md, "Lexical rules").
 *
 * lex_tokenize() turns a whole source text into an array of tokens ending
 * with LEX_EOF, each with its file:line:column and its spelling (a pointer
 * into the text, which must outlive the tokens). Comments (`//`, `#`,
 * `/ * ... * /`) and white space are skipped. Integer literals (decimal or
 * `0x` hexadecimal) carry their unsigned value, which must fit in 32 bits
 * (0 ..= 4294967295); the parser gives them their 32-bit reading.
 */
#ifndef TCPA_LEX_H
#define TCPA_LEX_H

#include <stdint.h>

#include "ast.h"

typedef enum {
  LEX_EOF,
  LEX_IDENT,
  LEX_INT,
  /* keywords */
  LEX_KW_PROGRAM,
  LEX_KW_IN,
  LEX_KW_OUT,
  LEX_KW_INT32,
  LEX_KW_PAR,
  LEX_KW_IF,
  LEX_KW_AND,
  LEX_KW_OR,
  /* punctuation */
  LEX_LPAREN,   /* ( */
  LEX_RPAREN,   /* ) */
  LEX_LBRACKET, /* [ */
  LEX_RBRACKET, /* ] */
  LEX_LBRACE,   /* { */
  LEX_RBRACE,   /* } */
  LEX_COMMA,
  LEX_SEMI,
  LEX_ASSIGN,   /* = */
  LEX_QUESTION, /* ? */
  LEX_COLON,    /* : */
  /* operators */
  LEX_PLUS,
  LEX_MINUS,
  LEX_STAR,
  LEX_SLASH,
  LEX_PERCENT,
  LEX_TILDE,
  LEX_BANG,
  LEX_AMP,
  LEX_CARET,
  LEX_PIPE,
  LEX_SHL,  /* << */
  LEX_SHR,  /* >> */
  LEX_SHRU, /* >>> */
  LEX_LT,
  LEX_LE,
  LEX_GT,
  LEX_GE,
  LEX_EQ, /* == */
  LEX_NE, /* != */
  LEX_KIND_COUNT
} lex_kind;

typedef struct {
  lex_kind kind;
  ast_loc loc;
  const char *text; /* spelling: points into the source, `len` bytes */
  int len;
  uint32_t value;   /* LEX_INT: the literal's unsigned value */
} lex_token;

/* Returns the tokens of `source` (reported as file `file`, which must
 * outlive them), ending with LEX_EOF, and stores their count (EOF included)
 * in *ntokens; returns NULL after printing an error through diag.h on a
 * character that starts no token, an unterminated block comment, or a
 * literal that does not fit in 32 bits. Free the array with free(). */
lex_token *lex_tokenize(const char *file, const char *source, int *ntokens);

/* Returns a printable description of a token kind for messages: "';'",
 * "identifier", "end of file", ... */
const char *lex_kind_name(lex_kind k);

#endif
