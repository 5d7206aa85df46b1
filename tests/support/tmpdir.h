/* tmpdir.h - test helper: a fresh temporary directory for a group of
 * tests, and its removal with the files in it (not recursive: the tests
 * write plain files only). */
#ifndef CSMACD_TEST_TMPDIR_H
#define CSMACD_TEST_TMPDIR_H

#include <stddef.h>

/* Makes /tmp/csmacd-test-NAME-XXXXXX and writes its path to dir.
 * Returns 0, or -1 (as a cmocka group setup expects). */
int tmpdir_make(char *dir, size_t len, const char *name);

/* Removes the files in dir, then dir. */
void tmpdir_remove(const char *dir);

#endif
