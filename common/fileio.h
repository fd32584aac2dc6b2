/*
 * fileio.h: reading a whole file into memory, the one way every loader of
 * the project (programs, architecture files, data files, streams) does it;
 * creating a directory with its parents (`mkdir -p`), the one way every
 * command that writes an output directory does it; and writing a word for
 * a POSIX shell, the one way every command line the tools print or save
 * (reproduction scripts, `tcpa wave`, regress reruns) is quoted.
 */
#ifndef TCPA_FILEIO_H
#define TCPA_FILEIO_H

#include <stddef.h>
#include <stdio.h>

/* Returns the contents of `path` in a malloc'd buffer with a NUL byte
 * appended (not counted in *len), or NULL with errno set (ENOMEM when out
 * of memory, fopen's or fread's errno, such as EISDIR, else EIO). */
char *fileio_read_all(const char *path, size_t *len);

/* Returns 0 after creating directory `dir` and its missing parents; -1
 * with errno set and the path that could not be created in failed (when
 * not NULL, fsz bytes), also when `dir` exists but is not a directory. */
int fileio_mkdir_p(const char *dir, char *failed, size_t fsz);

/* Writes word s to f as a POSIX shell reads it back: as it is when it is
 * made of letters, digits and _-./=:,+@% only, otherwise in single quotes
 * (a quote inside as '\''). */
void fileio_shell_quote(FILE *f, const char *s);

#endif
