/* outfile.h - the one place where csmacd opens an output file.
 *
 * Every file the program writes (run's --events, --pcap, --stations-csv,
 * --series; sweep's --csv, --reps-csv, --plot; the TUI's saved CSV and
 * pcap) is opened here, and this is its contract:
 *
 * - Whole or not at all. A regular file is written to a temporary in the
 *   target's directory and renamed over the target by outfile_commit once
 *   every stdio error (ferror, fflush, fclose) has been checked. On a write
 *   error, a signal or a failed run the temporary is removed and the target
 *   is left as it was.
 * - Temporaries are created with O_CREAT|O_EXCL (a symlink or file planted
 *   at the name is never followed or reused), named ".csmacd-PID-RAND.tmp"
 *   (short: any legal target name works), with mode 0666 less the umask.
 *   A process killed by SIGKILL leaves its temporary; the next open of an
 *   output in that directory removes temporaries of processes that no
 *   longer exist (same owner, regular files only). A process of another
 *   PID namespace or host writing to the same directory is not told apart:
 *   do not share one output directory between containers.
 * - A symlink is followed: the file it points to is replaced, the link is
 *   kept. A link to nothing is refused (following it would create a file
 *   wherever it points).
 * - A target that exists and is not a regular file (a FIFO, a terminal,
 *   /dev/null, /dev/full), /dev/stdout, /dev/stderr, /dev/fd/N and any path
 *   under /proc/ are written directly, never renamed over: the link
 *   /dev/stdout is left alone. /dev/stdout, /dev/stderr and /dev/fd/N
 *   write to the inherited descriptor itself (sharing its offset, so
 *   nothing printed there is overwritten); the others are opened with
 *   O_TRUNC, as the shell's `>` does.
 * - An existing regular file is replaced only if the user may write it
 *   (otherwise "path: Permission denied", exit 1); the new file keeps its
 *   mode and, where the user may set them, its owner and group.
 * - "-" is standard output, written as /dev/stdout is. An output whose
 *   path names the file or pipe standard output already is (a shell's
 *   `>t.csv` with `--csv t.csv`) is written through standard output too,
 *   never renamed over it (outfile_is_stdout); two such outputs conflict.
 * - A directory is refused ("path: Is a directory").
 * Errors are "path: reason", with the user's path.
 */
#ifndef CSMACD_OUTFILE_H
#define CSMACD_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct outfile {
    FILE *f;      /* write here between open and commit */
    char *path;   /* the user's path, for messages */
    char *target; /* the file replaced: path with its symlinks followed */
    char *tmp;    /* the temporary, NULL when writing the target directly */
    int error;    /* the write error found by outfile_settle, 0 if none */
} outfile;

/* Returns 0, or -1 with "path: reason" (nothing is left behind). */
int outfile_open(outfile *o, const char *path, char *err, size_t errlen);
/* Returns 0, or -1 with "path: reason" (the temporary is removed). The
 * outfile is closed either way. */
int outfile_commit(outfile *o, char *err, size_t errlen);
/* Flushes and, after a write error, finds its reason while the conditions
 * that caused it still hold. stdio keeps only an error flag: a write in the
 * middle of the rows that failed on a full disk leaves no errno behind, and
 * the file system is asked again (outfile.c, lost_write_error); once
 * another output has been discarded there is room again and the reason
 * would read "Input/output error". Call it on every output before the first
 * commit or discard; commit then reports the reason found. */
void outfile_settle(outfile *o);
/* outfile_commit, except that an existing target is kept as it was (the
 * temporary is removed and *kept set): for an output that holds no result,
 * which must not replace an older one. A file written in place (a device,
 * a descriptor) is only closed. */
int outfile_commit_new(outfile *o, bool *kept, char *err, size_t errlen);
/* The same when a library owned and closed the stream (libpcap's
 * pcap_dump_close): error is the first errno its writes met, or 0. */
int outfile_commit_closed(outfile *o, int error, char *err, size_t errlen);
/* Closes and removes the temporary; the target is left as it was. Safe on
 * an outfile that is closed or was never opened (zeroed). */
void outfile_discard(outfile *o);

/* Whether an output written in place to a pipe or socket has lost its
 * reader (`| head` left, Wireshark closed the FIFO), known without
 * writing: an idle stream notices too. False for anything else. */
bool outfile_reader_gone(const outfile *o);

/* Bytes written so far (buffered included), or -1 for a file written in
 * place (a device or a descriptor: it takes no room on a file system). */
long long outfile_size(const outfile *o);
/* Bytes free for the user on the file system of the temporary, or -1
 * when unknown (statvfs). */
long long outfile_room(const outfile *o);

/* Whether outfile_open(path) would succeed, checked before any work: the
 * folder exists and may be written, the target is not a directory and may
 * be replaced. Returns 0, or -1 with "path: reason". Creates nothing. */
int outfile_check(const char *path, char *err, size_t errlen);

/* Whether path is standard output: "-", /dev/stdout, /dev/fd/1, or the
 * regular file, pipe or socket standard output is open on. A command that
 * writes an output there prints its own report elsewhere. */
bool outfile_is_stdout(const char *path);

/* Whether path is standard error: /dev/stderr, /dev/fd/2, or the regular
 * file, pipe or socket standard error is open on. */
bool outfile_is_stderr(const char *path);

/* Whether two paths name the same file: the same text, the same existing
 * file, or the same place once symlinks, "." and ".." are resolved. */
bool outfile_same(const char *a, const char *b);

/* A file a command reads or writes: its option ("--events") or, for an
 * input, what it is ("the scenario file"); path NULL when not given. */
typedef struct outfile_role {
    const char *what;
    const char *path;
} outfile_role;

/* The outputs against each other and against the inputs, before any work.
 * Returns 0, or -1 with "--a, --b: conflicting options: both write PATH"
 * or "PATH: conflicting options: --a would overwrite the scenario file". */
int outfile_conflicts(const outfile_role *outputs, size_t n_outputs, const outfile_role *inputs,
                      size_t n_inputs, char *err, size_t errlen);

/* Opens /dev/null on whichever of descriptors 0, 1 and 2 is closed, so
 * that no output file is given one of them (the measures printed to
 * standard output would land in it). 1 and 2 are opened read-only: a write
 * to a closed standard output then fails with EBADF and is reported as
 * the write error it is. Returns a bit mask of the descriptors that were
 * closed. Call first thing in main. */
unsigned outfile_guard_stdio(void);

#endif
