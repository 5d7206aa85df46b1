/* tmpdir.c - see tmpdir.h. */
#include "tmpdir.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int tmpdir_make(char *dir, size_t len, const char *name)
{
    int n = snprintf(dir, len, "/tmp/csmacd-test-%s-XXXXXX", name);
    if (n < 0 || (size_t)n >= len)
        return -1;
    return mkdtemp(dir) ? 0 : -1;
}

void tmpdir_remove(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[600];
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(dir);
}
