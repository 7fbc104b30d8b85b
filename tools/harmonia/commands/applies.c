/* tools/harmonia/commands/applies.c — options given that would change
 * nothing in this run are refused: a value recorded in the result files but
 * never read would claim a factor that was not in effect. */
#include <stdio.h>
#include <string.h>

#include <harmonia/ops.h>
#include <harmonia/procsync.h>
#include <harmonia/sync.h>

#include "commands/commands.h"
#include "options/options_table.h"

static int given(const cli_config_t *cfg, cli_opt_id_t id)
{
    return (cfg->given & HM_OPT_BIT(id)) != 0;
}

/* 1 when some item of the comma-separated list satisfies test. */
static int any_item(const char *list, int (*test)(const char *item, int arg), int arg)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, ',');
        if (next) *next++ = '\0';
        if (test(item, arg)) return 1;
    }
    return 0;
}

static int reads_param(const char *method, int param)
{
    return hm_procsync_reads(method, (hm_procsync_param_t)param);
}

static int op_rooted(const char *name, int unused)
{
    (void)unused;
    const hm_op_t *op = hm_op_find(name);
    return op && hm_op_is_rooted(op);
}

static int op_pingpong(const char *name, int unused)
{
    (void)unused;
    const hm_op_t *op = hm_op_find(name);
    return op && hm_op_is_pingpong(op);
}

/* A spec of at least `levels` levels (2: nodes, 3: sockets too). */
static int spec_has_levels(const char *spec, int levels)
{
    int n = 0, propagates = 0;
    return hm_sync_spec_levels(spec, &n, &propagates) == HM_OK && n >= levels;
}

/* The options of process synchronization that only some methods read. */
static int check_procsync(const cli_config_t *cfg, const char *methods)
{
    const struct {
        cli_opt_id_t id;
        const char *option;
        hm_procsync_param_t param;
        double value;
    } only[] = {
        {HM_OPT_WINDOW_US, "--window-us", HM_PROCSYNC_PARAM_WINDOW, cfg->window_us},
        {HM_OPT_SLICE_S, "--slice-s", HM_PROCSYNC_PARAM_SLICE, cfg->slice_s},
        {HM_OPT_BCAST_FACTOR, "--bcast-factor", HM_PROCSYNC_PARAM_BCAST_FACTOR, cfg->bcast_factor},
        {HM_OPT_CHECK_EVERY, "--check-every", HM_PROCSYNC_PARAM_CHECK_EVERY, cfg->check_every},
        {HM_OPT_RESYNC_S, "--resync-s", HM_PROCSYNC_PARAM_RESYNC, cfg->resync_s},
    };
    for (size_t i = 0; i < sizeof only / sizeof only[0]; i++) {
        if (!given(cfg, only[i].id) || any_item(methods, reads_param, (int)only[i].param)) continue;
        char readers[128] = "";
        for (size_t m = 0; m < hm_procsync_count(); m++)
            if (hm_procsync_reads(hm_procsync_name_at(m), only[i].param))
                snprintf(readers + strlen(readers), sizeof readers - strlen(readers), "%s%s",
                         readers[0] ? ", " : "", hm_procsync_name_at(m));
        hm_error_set(HM_EINVAL, "%s %g: no method of --sync %s reads it (it applies to --sync %s)",
                     only[i].option, only[i].value, methods, readers);
        return HM_EINVAL;
    }
    return HM_OK;
}

static int op_sized(const char *name, int unused)
{
    (void)unused;
    const hm_op_t *op = hm_op_find(name);
    return op && hm_op_uses_size(op);
}

static int check_ops(const cli_config_t *cfg)
{
    if (given(cfg, HM_OPT_SIZES) && !any_item(cfg->ops, op_sized, 0)) {
        hm_error_set(HM_EINVAL, "--sizes: no operation of --ops %s takes a size", cfg->ops);
        return HM_EINVAL;
    }
    if (given(cfg, HM_OPT_ROOT) && !any_item(cfg->ops, op_rooted, 0)) {
        hm_error_set(HM_EINVAL, "--root %d: no operation of --ops %s has a root", cfg->root,
                     cfg->ops);
        return HM_EINVAL;
    }
    if (given(cfg, HM_OPT_PEER) && !any_item(cfg->ops, op_pingpong, 0)) {
        hm_error_set(HM_EINVAL,
                     "--peer %d: only pingpong has a peer, and --ops %s does not include it",
                     cfg->peer, cfg->ops);
        return HM_EINVAL;
    }
    return HM_OK;
}

/* The virtual topology shapes the levels of a hierarchical --clock-sync
 * and, under --synthetic-clock, which ranks share a clock (one per virtual
 * node); anything else never reads it. A last node with fewer ranks is
 * allowed, as on a real machine (docs/testbed.md). */
static int check_topology(const cli_config_t *cfg, int comm_size)
{
    if (given(cfg, HM_OPT_RANKS_PER_NODE) && cfg->ranks_per_node > comm_size) {
        hm_error_set(HM_EINVAL, "--ranks-per-node %d: more than the %d ranks of the run",
                     cfg->ranks_per_node, comm_size);
        return HM_EINVAL;
    }
    if (given(cfg, HM_OPT_RANKS_PER_NODE) && !cfg->synthetic &&
        !any_item(cfg->clock_sync, spec_has_levels, 2)) {
        hm_error_set(
            HM_EINVAL,
            "--ranks-per-node %d: --clock-sync %s has one level and the clocks are real, so "
            "nothing reads it (it applies to a hierarchical --clock-sync such as hca3+prop, "
            "or to --synthetic-clock)",
            cfg->ranks_per_node, cfg->clock_sync);
        return HM_EINVAL;
    }
    if (given(cfg, HM_OPT_RANKS_PER_SOCKET) && !any_item(cfg->clock_sync, spec_has_levels, 3)) {
        hm_error_set(HM_EINVAL,
                     "--ranks-per-socket %d: no spec of --clock-sync %s has a socket level (it "
                     "applies to three levels, such as hca3+hca3+prop)",
                     cfg->ranks_per_socket, cfg->clock_sync);
        return HM_EINVAL;
    }
    return HM_OK;
}

int cli_run_reads(const cli_config_t *cfg, cli_opt_id_t id)
{
    const cli_command_t *c = cfg->command ? cli_find_command(cfg->command) : NULL;
    if (!c || !(c->options & HM_OPT_BIT(id))) return 0;
    if (id != HM_OPT_ROOT && id != HM_OPT_PEER) return 1;
    /* Another command's default operations are its own (overlap's
     * iallreduce), not cfg->ops: kept there unless --ops says. */
    if (strcmp(cfg->command, "bench") != 0 && !given(cfg, HM_OPT_OPS)) return 1;
    return any_item(cfg->ops, id == HM_OPT_ROOT ? op_rooted : op_pingpong, 0);
}

int cli_check_applies(const cli_config_t *cfg, const char *methods, int comm_size)
{
    int rc = check_topology(cfg, comm_size);
    if (rc == HM_OK && methods) rc = check_procsync(cfg, methods);
    if (rc == HM_OK) rc = check_ops(cfg);
    return rc;
}

int cli_refuse_unread(const cli_config_t *cfg, cli_opt_mask_t reads, const char *why)
{
    cli_opt_mask_t unread = cfg->given & ~(reads | HM_OPT_BIT(HM_OPT_HELP));
    for (int id = 0; id < HM_OPT_COUNT; id++)
        if (unread & HM_OPT_BIT(id))
            return hm_error_set(HM_EINVAL, "--%s: %s", cli_options[id].name, why);
    return HM_OK;
}
