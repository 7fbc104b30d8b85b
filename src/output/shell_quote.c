/* src/output/shell_quote.c — the command line as a user can paste it back
 * into a shell to repeat the run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error_set.h"
#include "output/output_impl.h"

/* Characters that never need quoting in a POSIX shell word. */
static int is_plain(const char *arg)
{
    if (!*arg) return 0;
    for (const char *p = arg; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                    "_@%+=:,./-",
                    *p))
            return 0;
    return 1;
}

static int has_control(const char *arg)
{
    for (const unsigned char *p = (const unsigned char *)arg; *p; p++)
        if (*p < 0x20 || *p == 0x7f) return 1;
    return 0;
}

/* Worst case per byte: "'\''" (4) or "\xHH" (4). */
static size_t quoted_bound(const char *arg)
{
    return 4 * strlen(arg) + 4;
}

/* 'text' with each ' written as '\'' */
static char *put_single_quoted(char *out, const char *arg)
{
    *out++ = '\'';
    for (const char *p = arg; *p; p++) {
        if (*p == '\'') {
            memcpy(out, "'\\''", 4);
            out += 4;
        } else {
            *out++ = *p;
        }
    }
    *out++ = '\'';
    return out;
}

/* $'text': bash/ksh/zsh quoting that keeps control characters on one line. */
static char *put_ansi_quoted(char *out, const char *arg)
{
    *out++ = '$';
    *out++ = '\'';
    for (const unsigned char *p = (const unsigned char *)arg; *p; p++) {
        if (*p == '\n') {
            memcpy(out, "\\n", 2), out += 2;
        } else if (*p == '\t') {
            memcpy(out, "\\t", 2), out += 2;
        } else if (*p == '\\' || *p == '\'') {
            *out++ = '\\';
            *out++ = (char)*p;
        } else if (*p < 0x20 || *p == 0x7f) {
            out += sprintf(out, "\\x%02x", *p);
        } else {
            *out++ = (char)*p;
        }
    }
    *out++ = '\'';
    return out;
}

char *hm_output_shell_join(int argc, const char *const *argv)
{
    if (!argv && argc > 0) {
        hm__error_null(__func__, "argv");
        return NULL;
    }
    size_t size = 1;
    for (int i = 0; i < argc; i++) size += quoted_bound(argv[i] ? argv[i] : "") + 1;
    char *line = malloc(size), *out = line;
    if (!line) return NULL;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i] ? argv[i] : "";
        if (i > 0) *out++ = ' ';
        if (is_plain(arg)) {
            strcpy(out, arg);
            out += strlen(arg);
        } else if (has_control(arg)) {
            out = put_ansi_quoted(out, arg);
        } else {
            out = put_single_quoted(out, arg);
        }
    }
    *out = '\0';
    return line;
}
