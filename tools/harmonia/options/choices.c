/* tools/harmonia/options/choices.c — the names an option accepts, read from
 * the library's name tables when a help text is printed, so that help never
 * lists a choice the library lacks or misses one it gained. */
#include <string.h>

#include <harmonia/analysis.h>
#include <harmonia/offset.h>
#include <harmonia/ops.h>
#include <harmonia/procsync.h>
#include <harmonia/results.h>
#include <harmonia/sync.h>
#include <harmonia/timer.h>

#include "options/config.h"

typedef struct choice_list {
    const char *key;                      /* the option's long name */
    void (*names)(char *buf, size_t len); /* "a, b, c" */
} choice_list_t;

static const choice_list_t choice_lists[] = {
    {"timer", hm_timer_names},
    {"clock-sync", hm_sync_names},
    {"offset", hm_offset_names},
    {"drift", hm_sync_drift_names},
    {"sync", hm_procsync_names},
    {"ops", hm_op_names},
    {"filter", hm_analysis_filter_names},
    {"metric", hm_results_metric_names},
    {"alternative", hm_analysis_alternative_names},
    {"statistic", hm_analysis_statistic_names},
};

/* The list of key (n bytes long) into buf, joined by "|" or, with comma,
 * by ", ". 0 when the key is unknown. */
static int choices_of(const char *key, size_t n, int comma, char *buf, size_t len)
{
    for (size_t i = 0; i < sizeof choice_lists / sizeof choice_lists[0]; i++) {
        if (strlen(choice_lists[i].key) != n || strncmp(choice_lists[i].key, key, n)) continue;
        choice_lists[i].names(buf, len);
        for (char *p = buf; !comma && (p = strstr(p, ", ")); p++)
            memmove(p, p + 1, strlen(p + 1) + 1), *p = '|';
        return 1;
    }
    return 0;
}

void cli_expand_choices(const char *text, char *out, size_t len)
{
    size_t o = 0;
    char list[512];
    while (*text && o + 1 < len) {
        const char *close = *text == '{' ? strchr(text, '}') : NULL;
        size_t n = close ? (size_t)(close - text - 1) : 0;
        int comma = n > 0 && text[n] == ',';
        if (close && choices_of(text + 1, n - comma, comma, list, sizeof list)) {
            size_t k = strlen(list) < len - 1 - o ? strlen(list) : len - 1 - o;
            memcpy(out + o, list, k);
            o += k;
            text = close + 1;
        } else {
            out[o++] = *text++;
        }
    }
    out[o] = '\0';
}
