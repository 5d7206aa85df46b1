/* textline.h - one labelled line of the text reports (run's header and
 * measures, check's network): "  LABEL" padded to 20 columns, then the
 * text and a newline.
 */
#ifndef CSMACD_TEXTLINE_H
#define CSMACD_TEXTLINE_H

#include <stdio.h>

/* Writes nothing when *n < 0 (an earlier write failed); a failure makes
 * *n negative. */
void text_line(FILE *f, int *n, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
