/* outfile.c - the one place that opens outputs (outfile.h). */
#define _GNU_SOURCE /* AT_EACCESS, strndup */
#include "outfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define TMP_PREFIX ".csmacd-"
#define TMP_SUFFIX ".tmp"
#define MAX_LINKS 40 /* as the kernel's ELOOP limit */

/* Descriptors and kernel files are written in place: /dev/stdout is a
 * link to /proc/self/fd/1, whose own "link" names a descriptor (a pipe
 * reads "pipe:[123]"), and no temporary can be created beside them. */
static bool special_path(const char *path)
{
    return strcmp(path, "-") == 0 || strncmp(path, "/proc/", 6) == 0 ||
           strncmp(path, "/dev/fd/", 8) == 0 ||
           strcmp(path, "/dev/stdout") == 0 || strcmp(path, "/dev/stderr") == 0;
}

/* plan's code for a symlink to nothing: following it would create a
 * file wherever the link points (a link planted in a shared directory
 * could point into /etc), so it is refused. */
#define E_DANGLING (-1)

/* Whether path is the file, pipe or socket descriptor fd is open on (a
 * shell's `>t.pcap` with `--pcap t.pcap`, a named pipe). Devices are left
 * out: /dev/null as both is no conflict. */
static bool is_fd_file(int fd, const char *path)
{
    struct stat so, sp;
    if (fstat(fd, &so) != 0 || stat(path, &sp) != 0)
        return false;
    if (!S_ISREG(so.st_mode) && !S_ISFIFO(so.st_mode) && !S_ISSOCK(so.st_mode))
        return false;
    return so.st_dev == sp.st_dev && so.st_ino == sp.st_ino;
}

bool outfile_is_stdout(const char *path)
{
    if (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0 ||
        strcmp(path, "/dev/fd/1") == 0 || strcmp(path, "/proc/self/fd/1") == 0)
        return true;
    return is_fd_file(STDOUT_FILENO, path);
}

bool outfile_is_stderr(const char *path)
{
    if (strcmp(path, "/dev/stderr") == 0 || strcmp(path, "/dev/fd/2") == 0 ||
        strcmp(path, "/proc/self/fd/2") == 0)
        return true;
    return is_fd_file(STDERR_FILENO, path);
}

/* The descriptor that -, /dev/stdout, /dev/stderr or /dev/fd/N names (or
 * the file standard output is), or -1. */
static int inherited_fd(const char *path)
{
    if (outfile_is_stdout(path))
        return STDOUT_FILENO;
    if (strcmp(path, "/dev/stderr") == 0)
        return STDERR_FILENO;
    if (strncmp(path, "/dev/fd/", 8) == 0 && path[8] >= '0' && path[8] <= '9') {
        char *end;
        long fd = strtol(path + 8, &end, 10);
        if (*end == '\0' && fd <= INT_MAX && fcntl((int)fd, F_GETFD) != -1)
            return (int)fd;
    }
    return -1;
}

static void fail(char *err, size_t errlen, const char *path, int e)
{
    if (e == E_DANGLING)
        snprintf(err, errlen, "%s: a symbolic link to a file that does not exist", path);
    else
        snprintf(err, errlen, "%s: %s", path, strerror(e));
}

static char *join(const char *dir, size_t dir_len, const char *name)
{
    size_t len = dir_len + strlen(name) + 2;
    char *out = malloc(len);
    if (out != NULL)
        snprintf(out, len, "%.*s/%s", (int)dir_len, dir, name);
    return out;
}

/* path with the symlinks of its last component followed (a dangling link
 * gives the path it points to, refused by plan). NULL with errno set on ELOOP or ENOMEM. */
static char *follow_links(const char *path)
{
    char *cur = strdup(path);
    for (int hops = 0; cur != NULL; hops++) {
        struct stat st;
        if (special_path(cur) || lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return cur; /* the open reports what is wrong */
        if (hops == MAX_LINKS) {
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        char buf[PATH_MAX];
        ssize_t n = readlink(cur, buf, sizeof buf - 1);
        if (n < 0) {
            int e = errno;
            free(cur);
            errno = e;
            return NULL;
        }
        buf[n] = '\0';
        char *next;
        const char *slash = strrchr(cur, '/');
        if (buf[0] == '/' || slash == NULL)
            next = strdup(buf);
        else
            next = join(cur, (size_t)(slash - cur), buf);
        free(cur);
        cur = next;
    }
    errno = ENOMEM;
    return NULL;
}

/* The directory part of a path ("." for a bare name, "/" for "/x"). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        return strdup(".");
    return strndup(path, slash == path ? 1 : (size_t)(slash - path));
}


/* Removes "DIR/.csmacd-PID-RAND.tmp" files left by processes that no
 * longer exist (killed by SIGKILL, or a crash), if they are ours. */
static void remove_stale(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    int dfd = dirfd(d);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *name = de->d_name;
        size_t len = strlen(name), pl = strlen(TMP_PREFIX), sl = strlen(TMP_SUFFIX);
        if (len <= pl + sl || strncmp(name, TMP_PREFIX, pl) != 0 ||
            strcmp(name + len - sl, TMP_SUFFIX) != 0)
            continue;
        char *end;
        errno = 0;
        long pid = strtol(name + pl, &end, 10);
        if (errno != 0 || end == name + pl || *end != '-' || pid <= 0 || pid > INT_MAX)
            continue;
        if (pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* alive, or another user's (EPERM) */
        struct stat st;
        if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == geteuid())
            (void)unlinkat(dfd, name, 0);
    }
    closedir(d);
}

/* A fresh temporary in dir: O_EXCL, so nothing planted at the name is
 * used. Returns the descriptor and sets *name, or -1 with errno. */
static int create_temp(const char *dir, char **name)
{
    /* The name only has to be unlikely to exist: O_EXCL settles the rest.
     * The stack address tells threads apart. */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint32_t r = (uint32_t)ts.tv_nsec ^ ((uint32_t)getpid() << 16) ^ (uint32_t)(uintptr_t)&ts;
    for (int tries = 0; tries < 100; tries++) {
        char base[64];
        r = r * 1103515245u + 12345u;
        snprintf(base, sizeof base, TMP_PREFIX "%ld-%08x" TMP_SUFFIX, (long)getpid(), r);
        char *p = join(dir, strlen(dir), base);
        if (p == NULL) {
            errno = ENOMEM;
            return -1;
        }
        int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *name = p;
            return fd;
        }
        int e = errno;
        free(p);
        if (e != EEXIST) {
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

static void release(outfile *o)
{
    free(o->path);
    free(o->target);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

/* What outfile_open will do with path: fills *target, *direct and, for an
 * existing regular file, *st (st->st_mode 0 otherwise). Checks the target
 * and its folder. Returns 0 or an errno. */
static int plan(const char *path, char **target, bool *direct, struct stat *st)
{
    memset(st, 0, sizeof *st);
    *direct = false;
    if (outfile_is_stdout(path)) {
        /* Written through the descriptor: never renamed over. */
        *direct = true;
        *target = strdup(path);
        return *target == NULL ? ENOMEM : 0;
    }
    *target = follow_links(path);
    if (*target == NULL)
        return errno;
    struct stat ts;
    if (special_path(path) || special_path(*target)) {
        *direct = true;
        if (stat(*target, &ts) == 0 && S_ISDIR(ts.st_mode))
            return EISDIR;
        return 0;
    }
    if (stat(*target, &ts) == 0) {
        if (S_ISDIR(ts.st_mode))
            return EISDIR;
        if (!S_ISREG(ts.st_mode)) {
            *direct = true;
            return 0;
        }
        /* Replacing a file is writing it: the same permission as `>`. */
        if (faccessat(AT_FDCWD, *target, W_OK, AT_EACCESS) != 0)
            return errno;
        *st = ts;
    } else if (errno != ENOENT) {
        return errno;
    } else if (strcmp(*target, path) != 0) {
        return E_DANGLING;
    }
    char *dir = dir_of(*target);
    if (dir == NULL)
        return ENOMEM;
    int e = 0;
    if (stat(dir, &ts) != 0)
        e = errno;
    else if (!S_ISDIR(ts.st_mode))
        e = ENOTDIR;
    else if (faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) != 0)
        e = errno;
    free(dir);
    return e;
}

int outfile_check(const char *path, char *err, size_t errlen)
{
    char *target = NULL;
    bool direct;
    struct stat st;
    int e = plan(path, &target, &direct, &st);
    free(target);
    if (e != 0) {
        fail(err, errlen, path, e);
        return -1;
    }
    return 0;
}

int outfile_open(outfile *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    bool direct;
    struct stat st;
    int e = plan(path, &o->target, &direct, &st);
    if (e == 0 && (o->path = strdup(path)) == NULL)
        e = ENOMEM;
    if (e != 0) {
        fail(err, errlen, path, e);
        release(o);
        return -1;
    }
    int fd = -1;
    int inherited = inherited_fd(path);
    if (inherited >= 0) {
        /* The descriptor itself, sharing its offset: reopening it by name
         * would truncate a redirected file and write over what the
         * program prints there. */
        fd = fcntl(inherited, F_DUPFD_CLOEXEC, 3);
    } else if (direct) {
        fd = open(o->target, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
    } else {
        char *dir = dir_of(o->target);
        if (dir == NULL) {
            errno = ENOMEM;
        } else {
            remove_stale(dir);
            fd = create_temp(dir, &o->tmp);
            free(dir);
        }
        if (fd >= 0 && st.st_mode != 0) {
            /* The new file takes the old one's place: same owner and group
             * where we may set them (root, or a group we are in), then the
             * same mode (after fchown, which clears set-id bits). */
            if (fchown(fd, st.st_uid, st.st_gid) != 0)
                (void)!fchown(fd, (uid_t)-1, st.st_gid);
            (void)fchmod(fd, st.st_mode & 07777);
        }
    }
    if (fd < 0) {
        fail(err, errlen, path, errno);
        release(o);
        return -1;
    }
    o->f = fdopen(fd, "w");
    if (o->f == NULL) {
        e = errno;
        close(fd);
        if (o->tmp != NULL)
            unlink(o->tmp);
        fail(err, errlen, path, e);
        release(o);
        return -1;
    }
    /* Large writes: the event log can be hundreds of megabytes. */
    setvbuf(o->f, NULL, _IOFBF, 1 << 16);
    return 0;
}

/* The end of a commit: with an error e, the temporary is removed and the
 * error said; the outfile is released either way. */
static int commit_end(outfile *o, int e, char *err, size_t errlen)
{
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

int outfile_commit_closed(outfile *o, int e, char *err, size_t errlen)
{
    o->f = NULL;
    if (o->path == NULL) {
        fail(err, errlen, "(output)", EBADF);
        release(o);
        return -1;
    }
    if (e == 0 && o->tmp != NULL && rename(o->tmp, o->target) != 0)
        e = errno;
    return commit_end(o, e, err, errlen);
}

/* The reason of a stream's earlier write error. stdio keeps only the error
 * flag: once a write in the middle of the rows failed (a full disk), its
 * data is dropped and the final fflush succeeds with errno untouched. The
 * file system is asked again, by a write of 64 KiB at the end of the
 * temporary (more than any block left half full; it is removed anyway):
 * ENOSPC, EDQUOT or EFBIG as the first write met, EIO only if it now
 * succeeds. Never on a file written in place (a FIFO would get the bytes). */
static int lost_write_error(const outfile *o)
{
    static const char zeros[1 << 16];
    if (o->tmp == NULL)
        return EIO;
    int fd = fileno(o->f);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return EIO;
    errno = 0;
    ssize_t n = pwrite(fd, zeros, sizeof zeros, st.st_size);
    int e = n < 0 && errno != 0 ? errno : EIO;
    if (n > 0)
        (void)!ftruncate(fd, st.st_size);
    return e;
}

static int stream_error(const outfile *o, int e)
{
    return e != 0 ? e : lost_write_error(o);
}

void outfile_settle(outfile *o)
{
    if (o->f == NULL || o->error != 0)
        return;
    errno = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        o->error = stream_error(o, errno);
}

/* Flushes and closes the stream: the first error (a write's, kept, or
 * the flush's or the close's), 0 when all went well. */
static int close_stream(outfile *o)
{
    int e = o->error;
    errno = 0;
    if (e == 0 && (fflush(o->f) != 0 || ferror(o->f)))
        e = stream_error(o, errno);
    if (fclose(o->f) != 0 && e == 0)
        e = errno ? errno : EIO;
    o->f = NULL;
    return e;
}

int outfile_commit(outfile *o, char *err, size_t errlen)
{
    if (o->f == NULL)
        return outfile_commit_closed(o, EBADF, err, errlen);
    return outfile_commit_closed(o, close_stream(o), err, errlen);
}

int outfile_commit_new(outfile *o, bool *kept, char *err, size_t errlen)
{
    *kept = false;
    if (o->f == NULL || o->tmp == NULL)
        return outfile_commit(o, err, errlen);
    int e = close_stream(o);
    /* Atomic: a file created meanwhile is not replaced either. */
    if (e == 0 && renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->target, RENAME_NOREPLACE) != 0) {
        e = errno;
        if (e == EINVAL) { /* a file system without RENAME_NOREPLACE */
            struct stat st;
            e = lstat(o->target, &st) == 0 ? EEXIST : rename(o->tmp, o->target) != 0 ? errno : 0;
        }
        if (e == EEXIST) {
            *kept = true;
            e = 0;
            unlink(o->tmp);
        }
    }
    return commit_end(o, e, err, errlen);
}

void outfile_discard(outfile *o)
{
    if (o->f != NULL)
        fclose(o->f);
    if (o->tmp != NULL)
        unlink(o->tmp);
    release(o);
}

bool outfile_reader_gone(const outfile *o)
{
    struct stat st;
    if (o->f == NULL || o->tmp != NULL || fstat(fileno(o->f), &st) != 0 ||
        !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
        return false;
    /* The write end of a pipe whose every reader closed polls POLLERR (a
     * socket's peer that left, POLLHUP), with nothing written to it. */
    struct pollfd p = {.fd = fileno(o->f), .events = POLLOUT};
    return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP)) != 0;
}

long long outfile_size(const outfile *o)
{
    if (o->f == NULL || o->tmp == NULL)
        return -1;
    off_t n = ftello(o->f);
    return n < 0 ? -1 : (long long)n;
}

long long outfile_room(const outfile *o)
{
    struct statvfs v;
    if (o->f == NULL || o->tmp == NULL || fstatvfs(fileno(o->f), &v) != 0)
        return -1;
    return (long long)v.f_bavail * (long long)v.f_frsize;
}

/* The place a path names: symlinks followed, the folder resolved by
 * realpath, so "a.csv", "./a.csv" and a link to it compare equal even when
 * the file does not exist yet. NULL when the folder cannot be resolved. */
static char *canonical(const char *path)
{
    char *target = follow_links(path);
    if (target == NULL)
        return NULL;
    char *out = realpath(target, NULL);
    if (out == NULL) {
        char *dir = dir_of(target);
        const char *slash = strrchr(target, '/');
        const char *base = slash ? slash + 1 : target;
        char *real = dir ? realpath(dir, NULL) : NULL;
        if (real != NULL)
            out = join(real, strlen(real), base);
        free(dir);
        free(real);
    }
    free(target);
    return out;
}

bool outfile_same(const char *a, const char *b)
{
    if (strcmp(a, b) == 0 || (outfile_is_stdout(a) && outfile_is_stdout(b)))
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

int outfile_conflicts(const outfile_role *outputs, size_t n_outputs, const outfile_role *inputs,
                      size_t n_inputs, char *err, size_t errlen)
{
    for (size_t i = 0; i < n_outputs; i++) {
        if (outputs[i].path == NULL)
            continue;
        for (size_t j = i + 1; j < n_outputs; j++)
            if (outputs[j].path != NULL && outfile_same(outputs[i].path, outputs[j].path)) {
                snprintf(err, errlen, "%s, %s: conflicting options: both write %s",
                         outputs[i].what, outputs[j].what,
                         outfile_is_stdout(outputs[i].path) ? "standard output"
                                                            : outputs[i].path);
                return -1;
            }
        for (size_t j = 0; j < n_inputs; j++)
            if (inputs[j].path != NULL && outfile_same(outputs[i].path, inputs[j].path)) {
                snprintf(err, errlen, "%s: conflicting options: %s would overwrite %s",
                         outputs[i].path, outputs[i].what, inputs[j].what);
                return -1;
            }
    }
    return 0;
}

unsigned outfile_guard_stdio(void)
{
    unsigned closed = 0;
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        closed |= 1u << fd;
        /* open returns the lowest free descriptor: this one. */
        int got = open("/dev/null", O_RDONLY);
        if (got >= 0 && got != fd)
            close(got);
    }
    return closed;
}
