/* tests/output/test_factors.c — the factor list, and the summaries that
 * hm_factors_collect writes, fed with host lists and bindings that one
 * machine cannot produce (several hosts, uneven ranks per host). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <harmonia/output.h>

#include "output/output_impl.h"
#include "testutil.h"

static const char *get(const hm_factors_t *f, const char *key)
{
    const char *value = NULL;
    return hm_factors_get(f, key, &value) == HM_OK ? value : "(missing)";
}

static void check_list(void)
{
    hm_factors_t *f;
    HM_CHECK(hm_factors_create(&f) == HM_OK, "list created");
    hm_factors_set(f, "alpha", "%d", 1);
    hm_factors_set(f, "beta", "%s", "two\nlines\r\tand tab");
    hm_factors_set(f, "gamma", "%.3f", 2.5);
    hm_factors_set(f, "alpha", "replaced %s", "value");
    const char *key, *value;
    HM_CHECK(hm_factors_count(f) == 3, "3 keys after replacing one (got %zu)", hm_factors_count(f));
    hm_factors_at(f, 0, &key, &value);
    HM_CHECK(strcmp(key, "alpha") == 0 && strcmp(value, "replaced value") == 0,
             "a replaced key keeps its place with the new value: %s = %s", key, value);
    HM_CHECK(strcmp(get(f, "beta"), "two lines  and tab") == 0,
             "control characters became spaces: \"%s\"", get(f, "beta"));
    HM_CHECK(hm_factors_at(f, 3, &key, &value) == HM_ERANGE, "past the end is HM_ERANGE");
    HM_CHECK(hm_factors_get(f, "delta", &value) == HM_ENOENT, "a missing key is HM_ENOENT");
    int bad = hm_factors_set(f, "has space", "x") == HM_EINVAL;
    bad += hm_factors_set(f, "colon:", "x") == HM_EINVAL;
    bad += hm_factors_set(f, "", "x") == HM_EINVAL;
    HM_CHECK(bad == 3, "keys with a space, a colon or empty are HM_EINVAL (%d of 3)", bad);
    HM_CHECK(hm_factors_count(f) == 3, "refused keys were not added (%zu)", hm_factors_count(f));
    hm_factors_free(f);
}

/* FNV-1a 64 written out here from its definition, to check the library's. */
static uint64_t fnv(const char *text)
{
    uint64_t h = 14695981039346656037u;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    return h;
}

static void check_hosts_uneven(void)
{
    const char *hosts[] = {"node2", "node1", "node2", "node3", "node2"};
    hm_factors_t *f;
    hm_factors_create(&f);
    hm__output_summarize_hosts(f, hosts, 5);
    char digest[32];
    snprintf(digest, sizeof digest, "%016" PRIx64, fnv("node1\nnode2\nnode3\n"));
    HM_CHECK(strcmp(get(f, "nodes"), "3") == 0, "3 distinct hosts: nodes = %s", get(f, "nodes"));
    HM_CHECK(strcmp(get(f, "processes_per_node"), "1-3") == 0,
             "1 to 3 ranks per host: processes_per_node = %s", get(f, "processes_per_node"));
    HM_CHECK(strcmp(get(f, "hosts"), "node1,node2,node3") == 0, "hosts sorted: %s",
             get(f, "hosts"));
    HM_CHECK(strcmp(get(f, "hosts_digest"), digest) == 0, "hosts_digest %s, expected %s",
             get(f, "hosts_digest"), digest);
    hm_factors_free(f);
}

static void check_hosts_many(void)
{
    char names[20][16];
    const char *hosts[40];
    for (int i = 0; i < 20; i++) snprintf(names[i], sizeof names[i], "n%02d", i);
    for (int r = 0; r < 40; r++) hosts[r] = names[r / 2];
    hm_factors_t *f;
    hm_factors_create(&f);
    hm__output_summarize_hosts(f, hosts, 40);
    HM_CHECK(strcmp(get(f, "hosts"), "20 hosts") == 0 && strcmp(get(f, "nodes"), "20") == 0 &&
                 strcmp(get(f, "processes_per_node"), "2") == 0,
             "20 hosts x 2 ranks: hosts = %s, nodes = %s, processes_per_node = %s", get(f, "hosts"),
             get(f, "nodes"), get(f, "processes_per_node"));
    hm_factors_free(f);
}

static void check_pinning(void)
{
    hm_factors_t *f;
    hm_factors_create(&f);
    const char *unbound[] = {"unbound", "unbound", "unbound"};
    hm__output_summarize_pinning(f, unbound, 3);
    HM_CHECK(strcmp(get(f, "pinning"), "unbound") == 0, "all unbound: %s", get(f, "pinning"));
    const char *cores[] = {"0", "1", "unbound"};
    hm__output_summarize_pinning(f, cores, 3);
    HM_CHECK(strcmp(get(f, "pinning"), "0:0 1:1 2:unbound") == 0, "per-rank list: %s",
             get(f, "pinning"));
    const char *many[512];
    char cpu[64][8];
    for (int i = 0; i < 64; i++) snprintf(cpu[i], sizeof cpu[i], "%d", i);
    for (int r = 0; r < 512; r++) many[r] = cpu[r % 64];
    hm__output_summarize_pinning(f, many, 512);
    HM_CHECK(strcmp(get(f, "pinning"), "64 distinct bindings") == 0, "512 ranks on 64 cores: %s",
             get(f, "pinning"));
    hm_factors_free(f);
}

static void check_shell_join(void)
{
    const char *argv[] = {"harmonia", "bench", "--ops", "bcast,allreduce", "a b", "it's",
                          "",         "x\ny",  "$HOME"};
    char *line = hm_output_shell_join(9, argv);
    const char *expect =
        "harmonia bench --ops bcast,allreduce 'a b' 'it'\\''s' '' $'x\\ny' '$HOME'";
    HM_CHECK(strcmp(line, expect) == 0, "command line quoted for a shell: %s", line);
    free(line);
}

int main(void)
{
    check_list();
    check_hosts_uneven();
    check_hosts_many();
    check_pinning();
    check_shell_join();
    return hm_test_finish();
}
