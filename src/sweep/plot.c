/* plot.c - gnuplot scripts and the gnuplot child process (plot.h).
 *
 * Text in the script is single-quoted (gnuplot takes '' for a quote inside)
 * and drawn `noenhanced`, so labels such as "mean_delay_us" appear as
 * written instead of as subscripts. Missing values are written "?" and
 * declared with `set datafile missing`, which breaks the line there.
 */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int plot_format_of(const char *path, plot_format *out)
{
    const char *dot = strrchr(path, '.');
    if (dot == NULL || strchr(dot, '/') != NULL)
        return -1;
    if (strcmp(dot, ".svg") == 0)
        *out = PLOT_SVG;
    else if (strcmp(dot, ".png") == 0)
        *out = PLOT_PNG;
    else if (strcmp(dot, ".pdf") == 0)
        *out = PLOT_PDF;
    else
        return -1;
    return 0;
}

static void quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        if (*s != '\n')
            fputc(*s, f);
    }
    fputc('\'', f);
}

static void number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, " %.10g", v);
    else
        fputs(" ?", f);
}

/* The styles of series 0, 1, 2, ...: colours that stay apart on screen
 * and for colour-blind readers (Okabe and Ito's eight, then four darker
 * ones), each with a dash pattern of its own (gnuplot's dash strings: '-'
 * dash, '.' dot, '_' long dash, ' ' gap) and, for measured series, a point
 * shape of its own (gnuplot's pt: the filled circle, square, triangle and
 * diamond first, then open shapes, +, x and *). Series 0 is solid. */
static const struct {
    const char *color, *dash;
    int point;
} styles[PLOT_N_STYLES] = {
    {"#000000", "", 7},       {"#0072b2", "-", 5},      {"#d55e00", ".", 9},
    {"#009e73", "-.", 13},    {"#cc79a7", "_ ", 6},     {"#e69f00", "_.", 4},
    {"#56b4e9", "- .", 11},   {"#7f7f00", "_..", 8},    {"#8b0000", "__ .", 1},
    {"#00008b", ". ", 2},     {"#006400", "_-", 3},     {"#4b0082", "-..", 12},
};

/* The line style of series k: colour, then dash (solid for style 0). */
static void series_style(FILE *f, size_t k)
{
    size_t i = k % PLOT_N_STYLES;
    fprintf(f, "lc rgb '%s' ", styles[i].color);
    if (styles[i].dash[0] == '\0')
        fputs("dt solid ", f);
    else
        fprintf(f, "dt '%s' ", styles[i].dash);
}

/* Whether every value of panel p is 0 or more (so is every measure of
 * csmacd's but a difference: counts, times, fractions). */
static bool nonnegative(const plot_spec *s, size_t p)
{
    for (size_t c = 0; c < s->n_curves; c++)
        for (size_t i = 0; i < s->curves[c].n; i++)
            if (isfinite(s->curves[c].y[p][i]) && s->curves[c].y[p][i] < 0)
                return false;
    return true;
}

/* The colour of limit m (plot_mark): greys and a dark red, apart from
 * the series' colours; its dash is 2 + m. */
static const char *mark_colour(size_t m)
{
    static const char *const colours[] = {"#555555", "#8b0000", "#999999"};
    return colours[m % 3];
}

/* Whether curve c has a value in panel p (a finite x and y somewhere). */
static bool has_value(const plot_curve *c, size_t p)
{
    for (size_t i = 0; i < c->n; i++)
        if (isfinite(c->x[i]) && isfinite(c->y[p][i]))
            return true;
    return false;
}

/* Writes into buf the note of curve c in panel p when some of its done
 * points have no value: "YLABEL: LABEL: MEANING" (none has one) or
 * "YLABEL: LABEL: MEANING at x = a, b", without LABEL when the figure has
 * one series. Returns whether there is one. */
static bool note_of(const plot_spec *s, const plot_curve *c, size_t p, char *buf, size_t len)
{
    size_t missing = 0, done = 0;
    for (size_t i = 0; i < c->n; i++)
        if (isfinite(c->x[i]) && (c->done == NULL || c->done[i])) {
            done++;
            missing += !isfinite(c->y[p][i]);
        }
    if (missing == 0)
        return false;
    const char *meaning = c->absent[p]    ? "not in its network (no such segment or port)"
                          : s->no_value[p] ? s->no_value[p]
                                           : "no value";
    /* The series' name only when there are several (the key has it). */
    int k = s->n_curves > 1 ? snprintf(buf, len, "%s: %s: %s", s->ylabel[p], c->label, meaning)
                            : snprintf(buf, len, "%s: %s", s->ylabel[p], meaning);
    if (missing < done) {
        const char *sep = " at x = ";
        for (size_t i = 0; i < c->n && k > 0 && (size_t)k < len; i++)
            if (isfinite(c->x[i]) && (c->done == NULL || c->done[i]) && !isfinite(c->y[p][i])) {
                k += snprintf(buf + k, len - (size_t)k, "%s%g", sep, c->x[i]);
                sep = ", ";
            }
    }
    return true;
}

/* The figure's geometry, in pixels of a 1200-wide canvas (PDF scales
 * it): a title band, the panels, then the band with the key and the
 * notes. */
#define FIG_TITLE_PX 50
#define FIG_PANEL_PX 340
#define FIG_KEY_ROW_PX 20
#define FIG_NOTE_PX 18
#define FIG_KEY_COLS 3
#define FIG_MAX_NOTES 24

int plot_write_script(FILE *f, const plot_spec *s, plot_format fmt, const char *output_path)
{
    size_t n_panels = s->n_panels ? s->n_panels : 1;
    size_t n_entries = s->n_curves + s->n_refs + s->n_marks;
    /* Three columns of entries, fewer when a limit's label is long (a
     * key wider than the figure loses its entries). */
    size_t cols = FIG_KEY_COLS, longest = 0;
    for (size_t m = 0; m < s->n_marks; m++)
        longest = strlen(s->marks[m].label) > longest ? strlen(s->marks[m].label) : longest;
    if (longest > 60)
        cols = 1;
    else if (longest > 40)
        cols = 2;
    size_t rows = (n_entries + cols - 1) / cols;
    /* The notes: done points without a value, panel by panel. */
    char notes[FIG_MAX_NOTES][400];
    size_t n_notes = 0;
    for (size_t p = 0; p < s->n_panels; p++) {
        bool any = false; /* else the panel says it across its plot area */
        for (size_t c = 0; c < s->n_curves; c++)
            any = any || has_value(&s->curves[c], p);
        for (size_t c = 0; any && c < s->n_curves && n_notes < FIG_MAX_NOTES; c++)
            if (note_of(s, &s->curves[c], p, notes[n_notes], sizeof notes[n_notes]))
                n_notes++;
    }
    int band = 20 + (int)rows * FIG_KEY_ROW_PX + (n_notes ? 10 + (int)n_notes * FIG_NOTE_PX : 0) +
               10;
    int height = FIG_TITLE_PX + FIG_PANEL_PX * (int)n_panels + band;
    switch (fmt) {
    case PLOT_SVG:
        fprintf(f, "set terminal svg size 1200,%d dynamic noenhanced font 'Sans,12' "
                   "background rgb 'white'\n", height);
        break;
    case PLOT_PNG:
        fprintf(f, "set terminal pngcairo size 1200,%d noenhanced font 'Sans,10' "
                   "background rgb 'white'\n", height);
        break;
    case PLOT_PDF:
        fprintf(f, "set terminal pdfcairo size 8.75in,%.2fin noenhanced font 'Sans,9'\n",
                8.75 * height / 1200.0);
        break;
    }
    /* From pixels below the top to gnuplot's screen coordinates. */
#define SCREEN_Y(px) (1.0 - (double)(px) / (double)height)
    fputs("set output ", f);
    quoted(f, output_path);
    fputs("\nset datafile missing '?'\nset encoding utf8\n", f);
    /* The data, inline: one block per curve (x, then y and error per panel)
     * and per reference curve. */
    double xmin = INFINITY, xmax = -INFINITY;
    bool whole = true; /* every x a whole number (stations, a group's size) */
    for (size_t c = 0; c < s->n_curves; c++) {
        const plot_curve *cv = &s->curves[c];
        fprintf(f, "$curve%zu << EOD\n", c);
        for (size_t i = 0; i < cv->n; i++) {
            number(f, cv->x[i]);
            if (isfinite(cv->x[i])) {
                xmin = cv->x[i] < xmin ? cv->x[i] : xmin;
                xmax = cv->x[i] > xmax ? cv->x[i] : xmax;
                whole = whole && cv->x[i] == floor(cv->x[i]);
            }
            for (size_t p = 0; p < s->n_panels; p++) {
                /* y, and its bar's two ends: a measure that is never
                 * negative keeps its bar above 0 (a normal interval of a
                 * count or a time may reach below; the quantity cannot). */
                double y = cv->y[p][i], e = isfinite(cv->err[p][i]) ? cv->err[p][i] : 0.0;
                double lo = y - e;
                if (nonnegative(s, p) && lo < 0)
                    lo = 0;
                number(f, y);
                number(f, lo);
                number(f, y + e);
            }
            fputc('\n', f);
        }
        fputs("EOD\n", f);
    }
    for (size_t r = 0; r < s->n_refs; r++) {
        fprintf(f, "$ref%zu << EOD\n", r);
        for (size_t i = 0; i < s->refs[r].n; i++) {
            number(f, s->refs[r].x[i]);
            number(f, s->refs[r].y[i]);
            fputc('\n', f);
        }
        fputs("EOD\n", f);
    }
    /* Fixed margins, so that the panels' plot areas line up; every panel
     * spans the same x values. The key is the band's (below). */
    fputs("set grid\nset key off\nset bars small\n"
          "set lmargin at screen 0.08\nset rmargin at screen 0.97\n", f);
    if (s->xcategories && isfinite(xmin))
        fprintf(f, "set xrange [%.10g:%.10g]\n", xmin - 0.5, xmax + 0.5);
    else if (xmin < xmax)
        fprintf(f, "set xrange [%.10g:%.10g]\n", xmin, xmax);
    else
        fputs("set autoscale xfix\n", f);
    if (s->xlog_base > 0)
        fprintf(f, "set logscale x %d\n", s->xlog_base);
    if (s->n_xtics > 0) {
        fputs("set xtics (", f);
        for (size_t i = 0; i < s->n_xtics; i++) {
            fputs(i ? ", " : "", f);
            quoted(f, s->xtic_label[i]);
            fprintf(f, " %.10g", s->xtic_at[i]);
        }
        fputs(")\n", f);
    } else if (s->xlog_base == 0 && whole && xmin < xmax && xmax - xmin <= 10) {
        fputs("set xtics 1\n", f); /* no tick at half a station */
    }
    fputs("set multiplot title ", f);
    quoted(f, s->title ? s->title : "");
    fputc('\n', f);
    for (size_t p = 0; p < s->n_panels; p++) {
        int top = FIG_TITLE_PX + FIG_PANEL_PX * (int)p;
        fprintf(f, "set tmargin at screen %.6f\nset bmargin at screen %.6f\n",
                SCREEN_Y(top + 15), SCREEN_Y(top + FIG_PANEL_PX - 55));
        fputs("set xlabel ", f);
        quoted(f, s->xlabel);
        fputs("\nset ylabel ", f);
        quoted(f, s->ylabel[p]);
        bool any = false;
        for (size_t c = 0; c < s->n_curves; c++)
            any = any || has_value(&s->curves[c], p);
        bool refs = p == s->ref_panel && s->n_refs > 0;
        fputs(s->ylog[p] && any ? "\nset logscale y\n" : "\nunset logscale y\n", f);
        /* A fraction's axis ends at 1, not at gnuplot's next tic (1.1);
         * a measure that is never negative starts at 0. */
        fputs((s->yfraction[p] && !s->ylog[p]) || !any ? "set yrange [0:1]\n"
              : !s->ylog[p] && nonnegative(s, p)     ? "set yrange [0:*]\n"
                                                     : "set autoscale y\n",
              f);
        if (!any) {
            /* Nothing to draw: say so where the curves would be. */
            char text[400];
            snprintf(text, sizeof text, "%s: no value at any point (%s)", s->ylabel[p],
                     s->no_value[p] ? s->no_value[p] : "no value");
            fputs("set label 1 ", f);
            quoted(f, text);
            fputs(" at graph 0.5,0.5 center front\n", f);
        }
        /* The limits: vertical lines on every panel, horizontal ones on
         * theirs (a constant, so the y axis reaches it). */
        for (size_t m = 0; m < s->n_marks; m++)
            if (s->marks[m].vertical)
                fprintf(f, "set arrow %zu from %.10g, graph 0 to %.10g, graph 1 nohead front "
                           "lc rgb '%s' dt %d lw 2\n",
                        m + 1, s->marks[m].value, s->marks[m].value, mark_colour(m), 2 + (int)m);
        fputs("plot ", f);
        bool first = true;
        for (size_t m = 0; m < s->n_marks; m++)
            if (!s->marks[m].vertical && s->marks[m].panel == p) {
                fprintf(f, "%s%.10g with lines lc rgb '%s' dt %d lw 2 notitle",
                        first ? "" : ", \\\n     ", s->marks[m].value, mark_colour(m), 2 + (int)m);
                first = false;
            }
        for (size_t c = 0; c < s->n_curves; c++) {
            if (!has_value(&s->curves[c], p))
                continue; /* said in the notes */
            fprintf(f, "%s$curve%zu using 1:%zu:%zu:%zu with yerrorlines ",
                    first ? "" : ", \\\n     ", c, 2 + 3 * p, 3 + 3 * p, 4 + 3 * p);
            series_style(f, c);
            fprintf(f, "lw 1.5 pt %d ps 0.7 notitle", styles[c % PLOT_N_STYLES].point);
            first = false;
        }
        if (refs)
            for (size_t r = 0; r < s->n_refs; r++) {
                fprintf(f, "%s$ref%zu using 1:2 with lines ", first ? "" : ", \\\n     ", r);
                series_style(f, s->n_curves + r);
                fputs("lw 1.2 notitle", f);
                first = false;
            }
        if (first)
            fputs("NaN notitle", f);
        fputs("\nunset label 1\nunset arrow\n", f);
    }
    /* The band: an empty plot whose key lists every series once, its
     * sample drawn as in the panels, and the notes under it. */
    int band_top = FIG_TITLE_PX + FIG_PANEL_PX * (int)n_panels;
    fprintf(f, "unset grid\nunset border\nunset tics\nunset xlabel\nunset ylabel\n"
               "unset logscale\nunset title\nset xrange [0:1]\nset yrange [0:1]\n"
               "set tmargin at screen %.6f\nset bmargin at screen %.6f\n",
            SCREEN_Y(band_top + 5), SCREEN_Y(height - 2));
    fprintf(f, "set key at screen 0.5,%.6f center top vertical maxrows %zu Left reverse "
               "box samplen 3 width 1\n",
            SCREEN_Y(band_top + 10), rows ? rows : 1);
    for (size_t i = 0; i < n_notes; i++) {
        fprintf(f, "set label %zu ", i + 2);
        quoted(f, notes[i]);
        fprintf(f, " at screen 0.08,%.6f left\n",
                SCREEN_Y(band_top + 20 + (int)rows * FIG_KEY_ROW_PX + 10 +
                         (int)i * FIG_NOTE_PX + 12));
    }
    fputs("plot ", f);
    bool first = true;
    for (size_t c = 0; c < s->n_curves; c++) {
        fprintf(f, "%sNaN with linespoints ", first ? "" : ", \\\n     ");
        series_style(f, c);
        fprintf(f, "lw 1.5 pt %d ps 0.7 title ", styles[c % PLOT_N_STYLES].point);
        quoted(f, s->curves[c].label);
        first = false;
    }
    for (size_t r = 0; r < s->n_refs; r++) {
        fprintf(f, "%sNaN with lines ", first ? "" : ", \\\n     ");
        series_style(f, s->n_curves + r);
        fputs("lw 1.2 title ", f);
        quoted(f, s->refs[r].label);
        first = false;
    }
    for (size_t m = 0; m < s->n_marks; m++) {
        fprintf(f, "%sNaN with lines lc rgb '%s' dt %d lw 2 title ", first ? "" : ", \\\n     ",
                mark_colour(m), 2 + (int)m);
        quoted(f, s->marks[m].label);
        first = false;
    }
    if (first)
        fputs("NaN notitle", f);
    fputs("\nunset multiplot\nset output\n", f);
#undef SCREEN_Y
    return ferror(f) ? -1 : 0;
}

/* Whether an executable `name` is on PATH. */
static bool on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (path == NULL || *path == '\0')
        return false;
    size_t nlen = strlen(name);
    while (*path) {
        size_t len = strcspn(path, ":");
        char buf[4096];
        if (len + nlen + 2 <= sizeof buf) {
            if (len == 0)
                snprintf(buf, sizeof buf, "./%s", name);
            else
                snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, name);
            struct stat st;
            if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
                return true;
        }
        path += len;
        if (*path == ':')
            path++;
    }
    return false;
}

/* gnuplot's messages without its "line 12:" locations (they point into
 * a script the user never sees), the harmless warnings said in words. */
static void report_messages(FILE *msgs, const char *path, plot_message_fn say, void *ctx,
                            char *last, size_t lastlen)
{
    static const struct { const char *gnuplot, *meaning; } known[] = {
        {"Skipping data file with no valid points", "a curve has no finite value to draw"},
        {"empty y range", "a panel's values are all equal; its y axis was widened"},
        {"empty x range", "the sweep has a single x value; the x axis was widened"},
        {"Cannot find or open file", "a curve has no data"},
    };
    char line[1024];
    rewind(msgs);
    while (fgets(line, sizeof line, msgs) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        char *t = line;
        while (*t == ' ' || *t == '\t')
            t++;
        if (*t == '"') { /* "file" line N: */
            char *q = strchr(t + 1, '"');
            t = q ? q + 1 : t;
            while (*t == ' ')
                t++;
        }
        if (strncmp(t, "line ", 5) == 0 && strchr(t, ':') != NULL) {
            t = strchr(t, ':') + 1;
            while (*t == ' ')
                t++;
        }
        if (t[strspn(t, " ^")] == '\0')
            continue; /* blank, or the caret under an echoed command */
        bool warning = strncmp(t, "warning: ", 9) == 0;
        const char *text = warning ? t + 9 : t;
        for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
            if (strstr(text, known[i].gnuplot) != NULL) {
                text = known[i].meaning;
                break;
            }
        if (warning) {
            if (say != NULL)
                say(ctx, path, text);
        } else {
            snprintf(last, lastlen, "%.400s", text);
        }
    }
}

int plot_render(const plot_spec *s, outfile *fig, plot_message_fn say, void *ctx, char *err,
                size_t errlen)
{
    const char *path = fig->path;
    plot_format fmt;
    if (plot_format_of(path, &fmt) != 0) {
        snprintf(err, errlen, "%s: unknown figure format (.svg, .png or .pdf)", path);
        return -1;
    }
    if (!on_path("gnuplot"))
        return PLOT_NO_GNUPLOT;
    /* The script and gnuplot's messages go through anonymous files
     * (tmpfile: created unlinked, nothing to clean, nothing to plant). */
    int rc = -1;
    FILE *script = tmpfile(), *msgs = tmpfile();
    if (script == NULL || msgs == NULL) {
        snprintf(err, errlen, "%s: temporary file: %s", path, strerror(errno));
        goto out;
    }
    /* gnuplot writes the figure on its standard output: the outfile's
     * descriptor, so the figure goes where every output goes. */
    if (plot_write_script(script, s, fmt, "/dev/stdout") != 0 || fflush(script) != 0) {
        snprintf(err, errlen, "%s: temporary file: %s", path, strerror(errno ? errno : EIO));
        goto out;
    }
    rewind(script);
    if (fflush(fig->f) != 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        goto out;
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "gnuplot: %s", strerror(errno));
        goto out;
    }
    if (pid == 0) {
        /* The child, in a process group of its own: Ctrl-C at the terminal
         * stops csmacd (which lets the drawing finish, so the figure
         * matches the rows), not gnuplot halfway through a file. */
        setpgid(0, 0);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGPIPE, SIG_DFL); /* ignored by csmacd (main.c) */
        signal(SIGXFSZ, SIG_DFL);
        if (dup2(fileno(script), STDIN_FILENO) < 0 || dup2(fileno(fig->f), STDOUT_FILENO) < 0 ||
            dup2(fileno(msgs), STDERR_FILENO) < 0)
            _exit(127);
        execlp("gnuplot", "gnuplot", (char *)NULL);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(err, errlen, "gnuplot: %s", strerror(errno));
            goto out;
        }
    char last[512] = "";
    report_messages(msgs, path, say, ctx, last, sizeof last);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        rc = 0;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && last[0] == '\0') {
        snprintf(err, errlen, "%s: gnuplot could not be started", path);
    } else if (last[0] != '\0') {
        snprintf(err, errlen, "%s: gnuplot failed: %s", path, last);
    } else if (WIFEXITED(status)) {
        snprintf(err, errlen, "%s: gnuplot failed (exit status %d)", path, WEXITSTATUS(status));
    } else {
        snprintf(err, errlen, "%s: gnuplot failed (signal %d)", path, WTERMSIG(status));
    }
out:
    if (script != NULL)
        fclose(script);
    if (msgs != NULL)
        fclose(msgs);
    return rc;
}
