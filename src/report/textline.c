/* textline.c - see textline.h. */
#include "textline.h"

#include <stdarg.h>

void text_line(FILE *f, int *n, const char *label, const char *fmt, ...)
{
    if (*n >= 0)
        *n = fprintf(f, "  %-18s", label);
    if (*n >= 0) {
        va_list ap;
        va_start(ap, fmt);
        *n = vfprintf(f, fmt, ap);
        va_end(ap);
    }
    if (*n >= 0)
        *n = fputc('\n', f) == EOF ? -1 : 0;
}
