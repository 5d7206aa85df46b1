/* outfile.h - an output file that appears whole or not at all.
 *
 * outfile_open creates a temporary file beside the target (PATH.PID.tmp,
 * in the same directory, so rename() is atomic) and hands out a buffered
 * FILE. outfile_commit flushes it, checks every error stdio may have kept
 * (ferror, fflush, fclose) and renames it over the target; outfile_discard
 * closes and removes the temporary. So the target is either untouched or a
 * complete file, even when the program is interrupted or the disk fills.
 * A target that exists and is not a regular file (/dev/stdout, a FIFO) is
 * written directly. A directory is refused. Errors are "path: reason".
 *
 * Program code: trace sinks that write files (event log, pcap) use it or
 * follow the same rule.
 */
#ifndef CSMACD_OUTFILE_H
#define CSMACD_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct outfile {
    FILE *f;    /* write here between open and commit */
    char *path; /* the target */
    char *tmp;  /* the temporary, NULL when writing the target directly */
} outfile;

/* Returns 0, or -1 with "path: reason" (nothing is left behind). */
int outfile_open(outfile *o, const char *path, char *err, size_t errlen);
/* Returns 0, or -1 with "path: reason" (the temporary is removed). The
 * outfile is closed either way. */
int outfile_commit(outfile *o, char *err, size_t errlen);
/* Closes and removes the temporary; the target is left as it was. Safe on
 * an outfile that is closed or was never opened (zeroed). */
void outfile_discard(outfile *o);

/* Whether two output paths name the same file (same text, or the same
 * existing file). */
bool outfile_same(const char *a, const char *b);

#endif
