/* outfile.c - write to a temporary, rename into place when whole
 * (outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void fail(char *err, size_t errlen, const char *path, int e)
{
    snprintf(err, errlen, "%s: %s", path, strerror(e));
}

int outfile_open(outfile *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    struct stat st;
    bool direct = false;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            fail(err, errlen, path, EISDIR);
            return -1;
        }
        direct = !S_ISREG(st.st_mode);
    }
    o->path = strdup(path);
    if (o->path == NULL) {
        fail(err, errlen, path, ENOMEM);
        return -1;
    }
    int fd = -1;
    if (direct) {
        fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    } else {
        size_t len = strlen(path) + 32;
        o->tmp = malloc(len);
        if (o->tmp == NULL) {
            free(o->path);
            fail(err, errlen, path, ENOMEM);
            return -1;
        }
        snprintf(o->tmp, len, "%s.%ld.tmp", path, (long)getpid());
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    }
    if (fd < 0) {
        int e = errno;
        fail(err, errlen, path, e);
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return -1;
    }
    o->f = fdopen(fd, "w");
    if (o->f == NULL) {
        int e = errno;
        close(fd);
        if (o->tmp != NULL)
            unlink(o->tmp);
        fail(err, errlen, path, e);
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return -1;
    }
    /* Large writes: the event log can be hundreds of megabytes. */
    setvbuf(o->f, NULL, _IOFBF, 1 << 16);
    return 0;
}

static void release(outfile *o)
{
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

int outfile_commit(outfile *o, char *err, size_t errlen)
{
    int e = 0;
    if (o->f == NULL) {
        fail(err, errlen, o->path ? o->path : "(output)", EBADF);
        release(o);
        return -1;
    }
    errno = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        e = errno ? errno : EIO;
    if (fclose(o->f) != 0 && e == 0)
        e = errno ? errno : EIO;
    o->f = NULL;
    if (e == 0 && o->tmp != NULL && rename(o->tmp, o->path) != 0)
        e = errno;
    if (e != 0) {
        if (o->tmp != NULL)
            unlink(o->tmp);
        fail(err, errlen, o->path, e);
        release(o);
        return -1;
    }
    release(o);
    return 0;
}

void outfile_discard(outfile *o)
{
    if (o->f != NULL)
        fclose(o->f);
    if (o->tmp != NULL)
        unlink(o->tmp);
    release(o);
}

/* "dir/name" with dir resolved by realpath: two spellings of one path
 * that does not exist yet ("a.csv", "./a.csv") compare equal. NULL when
 * the directory cannot be resolved. */
static char *canonical(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    const char *base = slash ? slash + 1 : path;
    char *real = dir ? realpath(dir, NULL) : NULL;
    char *out = NULL;
    if (real != NULL) {
        size_t len = strlen(real) + strlen(base) + 2;
        out = malloc(len);
        if (out != NULL)
            snprintf(out, len, "%s/%s", real, base);
    }
    free(dir);
    free(real);
    return out;
}

bool outfile_same(const char *a, const char *b)
{
    if (strcmp(a, b) == 0)
        return true;
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    char *ca = canonical(a), *cb = canonical(b);
    bool same = ca != NULL && cb != NULL && strcmp(ca, cb) == 0;
    free(ca);
    free(cb);
    return same;
}
