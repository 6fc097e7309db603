/* run.c -- run one scenario from its text to a verified report.
 *
 * Verification is independent of the node program: the algorithm's expect()
 * computes what each node must hold, and conservation is checked with two
 * additive multiset hashes of every payload in the verified region, taken
 * before and after the run (an element lost, duplicated or altered changes
 * them except with probability about 2^-128).
 */
#ifndef _DEFAULT_SOURCE      /* MAP_ANONYMOUS, MAP_NORESERVE */
#define _DEFAULT_SOURCE
#endif
#include "run.h"
#include "oom.h"
#include "algorithm.h"
#include "prepare.h"
#include "record.h"
#include "progress.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

/* ---- the memory a run may use ------------------------------------------
 *
 * What is sound to compare a run's estimate with: each limit less what
 * it already covers, since the estimate is only what the run will add.
 *  - RLIMIT_AS bounds the whole address space (VmSize): the libraries,
 *    the heap, thread stacks and every mapping, touched or not. The
 *    engine maps its big arrays whole, so they count in full there.
 *  - RLIMIT_DATA bounds the private writable mappings and the heap
 *    (VmData, what the kernel compares it with since Linux 4.7).
 *  - The cgroup's limit bounds the memory charged to the cgroup: the
 *    resident pages of every process in it and its page cache. The cache
 *    is reclaimed before the limit bites, so what is in use is its usage
 *    less its file pages (memory.stat); a cgroup within limited ancestors
 *    is bounded by the tightest of them. It charges only pages touched,
 *    so it is the least exact of the limits and the estimate's generosity
 *    (sim_bytes_needed counts whole arrays and a memory's worth of
 *    messages in flight) is the margin.
 *  - Physical memory is shared with the system, hence the share; what
 *    other processes hold is not counted (it may be swapped or freed).
 *  - $CUBEMU_MEMORY_LIMIT is the user's own bound on what a run adds.
 * The smallest wins. */

/* What every run allocates besides the parts estimated below: the report
 * and its JSON, stdio's buffers, GLib's tables, the scenario. */
#define RUN_MEMORY_OVERHEAD ((uint64_t)16 << 20)

/* A v1 cgroup without a limit reads as the largest page-aligned 63-bit
 * number: at or above this, a limit is none. */
#define RUN_CGROUP_UNLIMITED (UINT64_C(1) << 62)

static char *bytes_text(uint64_t b)
{
    return g_format_size_full(b, G_FORMAT_SIZE_IEC_UNITS);
}

/* limit less used, or 0. */
static uint64_t less_used(uint64_t limit, uint64_t used)
{
    return limit > used ? limit - used : 0;
}

void run_memory_choose(const RunMemoryCandidates *c, RunMemoryLimit *out)
{
    struct { RunLimitKind kind; uint64_t limit, used; } cand[] = {
        { RUN_LIMIT_ENV, c->env, 0 },
        { RUN_LIMIT_AS, c->rlimit_as, c->vm_size },
        { RUN_LIMIT_DATA, c->rlimit_data, c->vm_data },
        { RUN_LIMIT_CGROUP, c->cgroup, c->cgroup_used },
        { RUN_LIMIT_PHYSICAL,
          c->physical ? (uint64_t)((double)c->physical * RUN_MEMORY_SHARE)
                      : RUN_NO_LIMIT, 0 },
    };
    out->bytes = RUN_NO_LIMIT;
    out->kind = RUN_LIMIT_NONE;
    guint best = G_N_ELEMENTS(cand);
    for (guint i = 0; i < G_N_ELEMENTS(cand); i++) {
        if (cand[i].limit == RUN_NO_LIMIT)
            continue;
        uint64_t left = less_used(cand[i].limit, cand[i].used);
        if (best == G_N_ELEMENTS(cand) || left < out->bytes) {
            out->bytes = left;
            out->kind = cand[i].kind;
            best = i;
        }
    }
    if (best == G_N_ELEMENTS(cand)) {
        g_strlcpy(out->text, "no limit", sizeof out->text);
        return;
    }
    g_autofree char *limit = bytes_text(cand[best].limit);
    g_autofree char *used = bytes_text(cand[best].used);
    switch (out->kind) {
    case RUN_LIMIT_ENV:
        g_snprintf(out->text, sizeof out->text, "CUBEMU_MEMORY_LIMIT of %"
                   G_GUINT64_FORMAT " bytes", (guint64)c->env);
        break;
    case RUN_LIMIT_AS:
        g_snprintf(out->text, sizeof out->text,
                   "the RLIMIT_AS of %s less %s in use", limit, used);
        break;
    case RUN_LIMIT_DATA:
        g_snprintf(out->text, sizeof out->text,
                   "the RLIMIT_DATA of %s less %s in use", limit, used);
        break;
    case RUN_LIMIT_CGROUP:
        g_snprintf(out->text, sizeof out->text,
                   "the cgroup's memory limit of %s less %s in use", limit,
                   used);
        break;
    case RUN_LIMIT_PHYSICAL: {
        g_autofree char *all = bytes_text(c->physical);
        g_snprintf(out->text, sizeof out->text,
                   "%.0f%% of physical memory (%s)", RUN_MEMORY_SHARE * 100,
                   all);
        break;
    }
    case RUN_LIMIT_NONE:
        break;
    }
}

gboolean run_cgroup_parse_limit(const char *text, uint64_t *bytes)
{
    g_autofree char *t = g_strstrip(g_strdup(text ? text : ""));
    if (!strcmp(t, "max")) {
        *bytes = RUN_NO_LIMIT;
        return TRUE;
    }
    guint64 v;
    if (!*t || !g_ascii_string_to_unsigned(t, 10, 0, G_MAXUINT64, &v, NULL))
        return FALSE;
    *bytes = v >= RUN_CGROUP_UNLIMITED ? RUN_NO_LIMIT : v;
    return TRUE;
}

gboolean run_parse_field(const char *text, const char *key, uint64_t *value)
{
    size_t n = strlen(key);
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        if (!strncmp(line, key, n) && (line[n] == ':' || line[n] == ' '
                                       || line[n] == '\t')) {
            const char *p = line + n + 1;
            while (*p == ' ' || *p == '\t')
                p++;
            char *rest;
            guint64 v = g_ascii_strtoull(p, &rest, 10);
            if (rest == p)
                return FALSE;
            while (*rest == ' ' || *rest == '\t')
                rest++;
            *value = g_str_has_prefix(rest, "kB") ? v * 1024 : v;
            return TRUE;
        }
        line = end ? end + 1 : NULL;
    }
    return FALSE;
}

char *run_cgroup_path(const char *proc_self_cgroup, gboolean unified)
{
    g_auto(GStrv) lines = g_strsplit(proc_self_cgroup ? proc_self_cgroup : "",
                                     "\n", -1);
    for (char **l = lines; *l; l++) {
        /* hierarchy-ID:controller-list:path; the path may hold colons. */
        char *c1 = strchr(*l, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2 || c2[1] != '/')
            continue;
        g_autofree char *controllers = g_strndup(c1 + 1, (gsize)(c2 - c1 - 1));
        if (unified) {
            if (!strncmp(*l, "0:", 2) && !*controllers)
                return g_strdup(c2 + 1);
            continue;
        }
        g_auto(GStrv) names = g_strsplit(controllers, ",", -1);
        if (g_strv_contains((const char *const *)names, "memory"))
            return g_strdup(c2 + 1);
    }
    return NULL;
}

static char *read_text(const char *path)
{
    char *text = NULL;
    return g_file_get_contents(path, &text, NULL, NULL) ? text : NULL;
}

/* The mount point and mounted root of the cgroup hierarchy (v2, or v1's
 * with the memory controller) from /proc/self/mountinfo: "ID PARENT
 * MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER". */
static gboolean cgroup_mount(const char *mountinfo, gboolean unified,
                             char **point, char **root)
{
    g_auto(GStrv) lines = g_strsplit(mountinfo, "\n", -1);
    for (char **l = lines; *l; l++) {
        g_auto(GStrv) f = g_strsplit(*l, " ", -1);
        guint n = g_strv_length(f), dash = 6;
        while (dash < n && strcmp(f[dash], "-"))
            dash++;
        if (n < 7 || dash + 1 >= n)
            continue;
        const char *type = f[dash + 1];
        const char *super = dash + 3 < n ? f[dash + 3] : "";
        gboolean match;
        if (unified) {
            match = !strcmp(type, "cgroup2");
        } else {
            g_auto(GStrv) opts = g_strsplit(super, ",", -1);
            match = !strcmp(type, "cgroup")
                    && g_strv_contains((const char *const *)opts, "memory");
        }
        if (match) {
            *root = g_strdup(f[3]);
            *point = g_strdup(f[4]);
            return TRUE;
        }
    }
    return FALSE;
}

/* The tightest limit of this process's cgroup and its ancestors in one
 * hierarchy, and that cgroup's usage less its page cache. */
static void cgroup_candidate(const char *mountinfo, const char *cgroups,
                             gboolean unified, RunMemoryCandidates *c)
{
    g_autofree char *point = NULL, *root = NULL;
    g_autofree char *path = run_cgroup_path(cgroups, unified);
    if (!path || !cgroup_mount(mountinfo, unified, &point, &root))
        return;
    /* The path is from the hierarchy's root; the mount shows `root` of
     * it (a container's own cgroup, say) at its mount point. */
    const char *rel = path;
    if (strcmp(root, "/")) {
        size_t n = strlen(root);
        rel = !strncmp(path, root, n) && (path[n] == '/' || !path[n])
                  ? path + n : "";
    }
    g_autofree char *dir = g_build_filename(point, rel, NULL);
    const char *limit_file = unified ? "memory.max" : "memory.limit_in_bytes";
    const char *usage_file = unified ? "memory.current" : "memory.usage_in_bytes";
    const char *cache_key = unified ? "file" : "total_cache";
    size_t floor = strlen(point);
    for (;;) {
        g_autofree char *lf = g_build_filename(dir, limit_file, NULL);
        g_autofree char *text = read_text(lf);
        uint64_t limit;
        if (text && run_cgroup_parse_limit(text, &limit)
            && limit != RUN_NO_LIMIT) {
            g_autofree char *uf = g_build_filename(dir, usage_file, NULL);
            g_autofree char *sf = g_build_filename(dir, "memory.stat", NULL);
            g_autofree char *usage_text = read_text(uf);
            g_autofree char *stat = read_text(sf);
            uint64_t usage = 0, cache = 0;
            if (usage_text)
                usage = g_ascii_strtoull(usage_text, NULL, 10);
            if (stat)
                run_parse_field(stat, cache_key, &cache);
            uint64_t used = less_used(usage, cache);
            if (c->cgroup == RUN_NO_LIMIT
                || less_used(limit, used) < less_used(c->cgroup, c->cgroup_used)) {
                c->cgroup = limit;
                c->cgroup_used = used;
            }
        }
        if (strlen(dir) <= floor)
            break;
        char *parent = g_path_get_dirname(dir);
        g_free(dir);
        dir = parent;
    }
}

static uint64_t rlimit_bytes(int resource)
{
    struct rlimit rl;
    if (getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return RUN_NO_LIMIT;
    return (uint64_t)rl.rlim_cur;
}

void run_memory_candidates(RunMemoryCandidates *c)
{
    *c = (RunMemoryCandidates){
        .rlimit_as = rlimit_bytes(RLIMIT_AS),
        .rlimit_data = rlimit_bytes(RLIMIT_DATA),
        .cgroup = RUN_NO_LIMIT,
        .env = RUN_NO_LIMIT,
    };
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0)
        c->physical = (uint64_t)pages * (uint64_t)size;
    const char *env = g_getenv("CUBEMU_MEMORY_LIMIT");
    if (env && *env)
        c->env = g_ascii_strtoull(env, NULL, 10);
    g_autofree char *status = read_text("/proc/self/status");
    if (status) {
        run_parse_field(status, "VmSize", &c->vm_size);
        run_parse_field(status, "VmData", &c->vm_data);
    }
    g_autofree char *mountinfo = read_text("/proc/self/mountinfo");
    g_autofree char *cgroups = read_text("/proc/self/cgroup");
    if (mountinfo && cgroups) {
        cgroup_candidate(mountinfo, cgroups, TRUE, c);
        cgroup_candidate(mountinfo, cgroups, FALSE, c);
    }
}

void run_memory_find(RunMemoryLimit *out)
{
    RunMemoryCandidates c;
    run_memory_candidates(&c);
    run_memory_choose(&c, out);
}

uint64_t run_memory_limit(void)
{
    RunMemoryLimit limit;
    run_memory_find(&limit);
    return limit.bytes;
}

/* Can `bytes` of address space be had now? Mapped without touching a
 * page and given back: RLIMIT_AS and RLIMIT_DATA count a mapping whole,
 * as they will count the engine's, so this is what they will say. */
static gboolean address_space_free(uint64_t bytes)
{
    if (bytes == 0)
        return TRUE;
    if (bytes > SIZE_MAX)
        return FALSE;
    void *p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return FALSE;
    munmap(p, (size_t)bytes);
    return TRUE;
}

/* What RUN_ORDER_DEFAULT means (run.h, RunOrder). */
static gboolean run_order_env(const Machine *m, RunOrder *order,
                              GError **error)
{
    const char *env = g_getenv("CUBEMU_ORDER");
    *order = m->faults ? RUN_ORDER_CONTRACT : RUN_ORDER_LOCALITY;
    if (!env || !*env)
        return TRUE;
    if (!strcmp(env, "locality")) {
        *order = RUN_ORDER_LOCALITY;
        return TRUE;
    }
    if (!strcmp(env, "contract")) {
        *order = RUN_ORDER_CONTRACT;
        return TRUE;
    }
    if (!strcmp(env, "survey")) {
        *order = RUN_ORDER_SURVEY;
        return TRUE;
    }
    g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                "CUBEMU_ORDER: unknown order '%s' (valid: contract, "
                "locality, survey)", env);
    return FALSE;
}

int run_threads_default(uint32_t nodes)
{
    if (nodes < RUN_THREADS_MIN_NODES)
        return 1;
    /* GLib counts the processors this process may run on (its affinity) */
    return CLAMP((int)g_get_num_processors(), 1, RUN_THREADS_MAX);
}

gboolean run_threads_parse(const char *text, int *threads)
{
    if (!strcmp(text, "auto")) {
        *threads = 0;
        return TRUE;
    }
    guint64 v;
    if (!g_ascii_string_to_unsigned(text, 10, 1, RUN_THREADS_MAX, &v, NULL))
        return FALSE;
    *threads = (int)v;
    return TRUE;
}

/* The run's threads, and the events a tick needs to split:
 * RUN_THREADS_MIN_EVENTS, or $CUBEMU_THREADS_MIN_EVENTS (2 or more), with
 * which the tests split the small ticks of small machines. */
static gboolean run_threads(const RunOptions *options, uint32_t nodes,
                            int *threads, size_t *min_events, GError **error)
{
    int n = options ? options->threads : 0;
    const char *env = g_getenv("CUBEMU_THREADS");
    if (n == 0 && env && *env && !run_threads_parse(env, &n)) {
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                    "CUBEMU_THREADS: '%s' is not a thread count (1 to %d, "
                    "or auto)", env, RUN_THREADS_MAX);
        return FALSE;
    }
    *threads = n == 0 ? run_threads_default(nodes) : n;
    *min_events = RUN_THREADS_MIN_EVENTS;
    const char *min = g_getenv("CUBEMU_THREADS_MIN_EVENTS");
    guint64 v;
    if (min && *min) {
        if (!g_ascii_string_to_unsigned(min, 10, 2, G_MAXUINT32, &v, NULL)) {
            g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                        "CUBEMU_THREADS_MIN_EVENTS: '%s' is not a number of "
                        "events (2 or more)", min);
            return FALSE;
        }
        *min_events = (size_t)v;
    }
    return TRUE;
}

/* $CUBEMU_PAGES: the pages the engine's big arrays are mapped on
 * (emu/oom.h): auto (the default), small or huge; for measuring, since
 * no result depends on it. */
static gboolean run_pages_env(GError **error)
{
    const char *env = g_getenv("CUBEMU_PAGES");
    static const struct { const char *name; EmuPages pages; } choices[] = {
        { "auto", EMU_PAGES_AUTO }, { "small", EMU_PAGES_SMALL },
        { "huge", EMU_PAGES_HUGE },
    };
    if (!env || !*env)
        return TRUE;
    for (size_t i = 0; i < G_N_ELEMENTS(choices); i++)
        if (!strcmp(env, choices[i].name)) {
            if (emu_pages_huge() < 0 || choices[i].pages != EMU_PAGES_AUTO)
                emu_set_pages(choices[i].pages);
            return TRUE;
        }
    g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                "CUBEMU_PAGES: unknown pages '%s' (valid: auto, small, huge)",
                env);
    return FALSE;
}

/* "N bytes (X MiB)": how an allocation that failed is named. */
static char *size_text(uint64_t b)
{
    g_autofree char *iec = bytes_text(b);
    return g_strdup_printf("%" G_GUINT64_FORMAT " bytes (%s)", (guint64)b,
                           iec);
}

/* The largest |reference| over all nodes, for a tolerant comparison. */
static double reference_scale(const Algorithm *alg, const void *config,
                              uint32_t nodes, size_t k, Word *expected)
{
    double scale = 0;
    for (uint32_t x = 0; x < nodes; x++)
        scale = fmax(scale, run_reference_scale(alg, config, x, k, expected));
    return scale;
}

static const Word *sim_memory_of(void *sim, uint32_t x)
{
    return sim_node_memory(sim, x);
}

/* ---- the progress line (util/progress.h) --------------------------------
 *
 * While the engine runs: the tick reached, the events run in this try and
 * their recent rate, and the nodes finished; no ETA (progress.h says
 * why). The nodes' memories, prepared and verified node by node, come
 * with one. A run the locality order gives up on starts again from tick
 * 0 in the contract's (RunOrder); where the first try's line was seen,
 * the new one says "again in the contract order", else nothing: the
 * user saw no first try. */

/* The engine is asked to call back every this many wall microseconds
 * (at the rate of events it has had): it reads the clock, which is all a
 * call costs unless the line is due. */
#define PROGRESS_POLL_US 20000
#define PROGRESS_EVENTS_MIN 64
#define PROGRESS_EVENTS_MAX ((uint64_t)1 << 20)

/* The rate shown is that of the last seconds, not of the whole try: a
 * run's rate changes as it goes. The lines drawn in them are kept (at
 * most PROGRESS_HZ a second). */
#define PROGRESS_RATE_US (2 * G_USEC_PER_SEC)
#define PROGRESS_SAMPLES 32

typedef struct {
    gint64 us;
    uint64_t events;
} RateSample;

typedef struct {
    gint64 start_us;              /* this try's sim_run */
    gint64 last_us;               /* the last call */
    uint64_t last_events;
    RateSample sample[PROGRESS_SAMPLES];  /* the start, then each line */
    unsigned samples, newest;
    gboolean again;               /* the contract order's try after the
                                   * locality order stopped, once the
                                   * first try's line was shown */
} RunProgress;

/* Events a second since the oldest sample of the last PROGRESS_RATE_US
 * (or, if none is that recent, the newest before now), now included. */
static double progress_rate(RunProgress *p, gint64 now, uint64_t events)
{
    const RateSample *from = NULL;
    for (unsigned i = p->samples; i-- > 0;) {
        const RateSample *x = &p->sample[(p->newest + PROGRESS_SAMPLES - i)
                                         % PROGRESS_SAMPLES];
        if (now - x->us <= PROGRESS_RATE_US || i == 0) {
            from = x;
            break;
        }
    }
    double rate = from && now > from->us
                      ? (double)(events - from->events) * 1e6
                        / (double)(now - from->us) : 0;
    p->newest = (p->newest + 1) % PROGRESS_SAMPLES;
    p->sample[p->newest] = (RateSample){ now, events };
    p->samples = MIN(p->samples + 1, PROGRESS_SAMPLES);
    return rate;
}

static uint64_t run_progress(void *data, const SimProgress *w)
{
    RunProgress *p = data;
    gint64 now = g_get_monotonic_time();
    uint64_t ran = w->events - p->last_events;
    gint64 took = now - p->last_us;
    uint64_t next = took > 0 ? ran * PROGRESS_POLL_US / (uint64_t)took
                             : ran * 2;
    next = CLAMP(next, PROGRESS_EVENTS_MIN, PROGRESS_EVENTS_MAX);
    p->last_us = now;
    p->last_events = w->events;
    if (!progress_due())
        return next;
    double per_second = progress_rate(p, now, w->events);
    char tick[32], events[32], rate[32], done[32], nodes[32];
    progress_count_text(tick, sizeof tick, w->now);
    progress_rate_text(events, sizeof events, (double)w->events);
    progress_rate_text(rate, sizeof rate, per_second);
    char finished[96] = "";
    if (w->nodes_done) {
        progress_count_text(done, sizeof done, MIN(w->nodes_done, w->nodes));
        progress_count_text(nodes, sizeof nodes, w->nodes);
        g_snprintf(finished, sizeof finished, ", %s of %s nodes done", done,
                   nodes);
    }
    progress_update("%stick %s, %s events at %s/s%s",
                    p->again ? "again in the contract order: " : "", tick,
                    events, rate, finished);
    return next;
}

/* "STAGE: node X of N, ETA ..." every 1024 nodes of a loop that does
 * the same for every node, begun at since_us. */
static inline void progress_nodes(const char *stage, uint32_t x,
                                  uint32_t nodes, gint64 since_us)
{
    if ((x & 1023) || x == 0 || !progress_due())
        return;
    char at[32], all[32], eta[48];
    progress_count_text(at, sizeof at, x);
    progress_count_text(all, sizeof all, nodes);
    progress_eta(eta, sizeof eta, x, nodes,
                 (double)(g_get_monotonic_time() - since_us) / 1e6);
    progress_update("%s: node %s of %s%s", stage, at, all, eta);
}

/* The verifier's buffer: one node's reference, K elements. */
static uint64_t verify_bytes(const MemoryLayout *layout)
{
    uint64_t k = layout->elements_per_node;
    return (k ? k : 1) * element_words(layout->element) * sizeof(Word);
}

/* Every node against the reference (prepare.c's run_check_node), the
 * sampled part, and conservation. FALSE with *error if the verifier's
 * buffer cannot be allocated. */
static gboolean run_verify(Report *r, Sim *sim, const RunSetup *setup,
                           uint32_t nodes, Fingerprint before,
                           GError **error)
{
    const MemoryLayout *layout = &setup->layout;
    size_t k = layout->elements_per_node;
    size_t computed = layout->computed_elements;
    size_t w = element_words(layout->element);
    uint64_t bytes = verify_bytes(layout);
    g_autofree Word *expected = bytes <= G_MAXSIZE
                                    ? g_try_malloc((gsize)bytes) : NULL;
    if (!expected) {
        g_autofree char *size = size_text(bytes);
        g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                    "cannot allocate %s for the verifier's reference of a "
                    "node", size);
        return FALSE;
    }
    gboolean tolerant = layout->tolerance > 0
                        && layout->element == ELEMENT_COMPLEX;
    double limit = tolerant ? layout->tolerance
                              * reference_scale(setup->algorithm,
                                                setup->config, nodes, k,
                                                expected)
                            : 0;
    /* Each node's memory is read once for both checks, while it is in
     * cache (a big machine's memories, which a second pass would read
     * from memory again). */
    char *problem = NULL;
    Fingerprint after = { 0, 0 };
    gint64 since = g_get_monotonic_time();
    for (uint32_t x = 0; x < nodes; x++) {
        progress_nodes("verifying", x, nodes, since);
        const Word *mem = sim_node_memory(sim, x);
        if (!problem)
            problem = run_check_node(setup, x, mem, expected, limit);
        run_fingerprint_add(&after, mem, computed, k, w);
    }
    if (!problem && layout->sample > 0 && computed > 0)
        problem = run_check_samples(setup, nodes, sim_memory_of, sim);
    r->placement_correct = problem == NULL;
    r->data_problem = problem;
    r->conserved = layout->computed
                   || (after.a == before.a && after.b == before.b);
    if (!r->conserved && !r->data_problem)
        r->data_problem = g_strdup_printf(
            "WRONG: elements were lost or duplicated: every node's [%zu, K) "
            "together holds a different multiset of elements than init put "
            "there (a program that copies elements, as a broadcast does, or "
            "computes them must set layout computed = 1; docs/programs.md)",
            computed);
    r->data_correct = r->placement_correct && r->conserved;
    return TRUE;
}

/* The bytes of every node's [0, K) (--dump-memory); 0 if it overflows,
 * which no limit admits. */
static uint64_t dump_bytes(uint32_t nodes, const MemoryLayout *layout)
{
    uint64_t k = layout->elements_per_node * element_words(layout->element);
    if (k && (uint64_t)nodes > UINT64_MAX / sizeof(Word) / k)
        return UINT64_MAX;
    return (uint64_t)nodes * (k ? k : 1) * sizeof(Word);
}

/* ---- two observers at once ---------------------------------------------
 *
 * A trace and a schedule recorded in one run: a SimObserver that hands
 * every callback to both, and has a callback only where one of them has
 * it, so that the engine's tests of which callbacks there are (sim.c:
 * what it tells at all, which order it runs in) answer as for the two. */

typedef struct {
    const SimObserver *a, *b;
    void *a_data, *b_data;
    SimObserver both;
} RunTee;

static void tee_channel_busy(void *data, const SimMessage *m, uint32_t node,
                             int link, uint64_t first, uint64_t count,
                             Tick start)
{
    const RunTee *t = data;
    if (t->a->channel_busy)
        t->a->channel_busy(t->a_data, m, node, link, first, count, start);
    if (t->b->channel_busy)
        t->b->channel_busy(t->b_data, m, node, link, first, count, start);
}

static void tee_startup(void *data, const SimMessage *m, int link, Tick start,
                        Tick duration)
{
    const RunTee *t = data;
    if (t->a->startup)
        t->a->startup(t->a_data, m, link, start, duration);
    if (t->b->startup)
        t->b->startup(t->b_data, m, link, start, duration);
}

static void tee_mark(void *data, uint32_t node, Tick time, const char *label)
{
    const RunTee *t = data;
    if (t->a->mark)
        t->a->mark(t->a_data, node, time, label);
    if (t->b->mark)
        t->b->mark(t->b_data, node, time, label);
}

static void tee_tick_done(void *data, Tick tick, uint64_t events)
{
    const RunTee *t = data;
    if (t->a->tick_done)
        t->a->tick_done(t->a_data, tick, events);
    if (t->b->tick_done)
        t->b->tick_done(t->b_data, tick, events);
}

static void tee_op(void *data, const SimOp *op)
{
    const RunTee *t = data;
    if (t->a->op)
        t->a->op(t->a_data, op);
    if (t->b->op)
        t->b->op(t->b_data, op);
}

/* The observer that tells A and then B everything (data: T). */
static const SimObserver *run_tee(RunTee *t, const SimObserver *a,
                                  void *a_data, const SimObserver *b,
                                  void *b_data)
{
    *t = (RunTee){ .a = a, .b = b, .a_data = a_data, .b_data = b_data };
    SimObserver *o = &t->both;
    o->channel_busy = a->channel_busy || b->channel_busy ? tee_channel_busy
                                                         : NULL;
    o->startup = a->startup || b->startup ? tee_startup : NULL;
    o->mark = a->mark || b->mark ? tee_mark : NULL;
    o->tick_done = a->tick_done || b->tick_done ? tee_tick_done : NULL;
    o->op = a->op || b->op ? tee_op : NULL;
    return o;
}

/* Refuse the run before it has a report, as every "machine too large"
 * does: "SCENARIO: message", an input error, with the setup released and
 * its machine cleared. NULL, for run_scenario_inner to return. */
static Report *refuse_run(RunSetup *setup, const Scenario *s, GError **error,
                          const char *fmt, ...) G_GNUC_PRINTF(4, 5);

static Report *refuse_run(RunSetup *setup, const Scenario *s, GError **error,
                          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *message = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT, "%s: %s",
                scenario_name(s), message);
    run_setup_release(setup, TRUE);
    return NULL;
}

G_DEFINE_QUARK(run-error-quark, run_error)

static Report *run_scenario_inner(const Scenario *s,
                                  const RunOptions *options, GError **error)
{
    RunSetup setup;
    if (!run_setup(s, &setup, error))
        return NULL;
    Machine machine = setup.machine;
    const Algorithm *alg = setup.algorithm;
    void *config = setup.config;
    MemoryLayout layout = setup.layout;

    uint32_t nodes = machine_nodes(&machine);
    size_t w = element_words(layout.element);
    SimLayout sim_layout = { layout.memory_elements, w, layout.local_size,
                             algorithm_phase_count(alg), layout.each };
    /* The estimate: the engine (what it allocates, the messages in flight
     * included; only channel timelines that hold many spans at once can
     * outgrow it, emu/oom.h), the verifier's buffer, the dumped memory,
     * what any run adds, and a trace recorder's tables as they start;
     * the recorder then grows within what is left (traces/record.h). */
    TraceRecorder *recorder = options && trace_recorder_observes(options->observer)
                                  ? options->observer_data : NULL;
    uint64_t engine = sim_bytes_needed(&machine, &sim_layout);
    uint64_t dump = options && options->dump_memory
                        ? dump_bytes(nodes, &layout) : 0;
    uint64_t recorder_bytes = recorder ? trace_recorder_bytes(recorder) : 0;
    ScheduleRecorder *schedule = options ? options->schedule : NULL;
    uint64_t schedule_bytes = schedule ? schedule_recorder_bytes_for(nodes)
                                       : 0;
    uint64_t parts[] = { engine, verify_bytes(&layout), dump,
                         RUN_MEMORY_OVERHEAD, recorder_bytes,
                         schedule_bytes };
    uint64_t need = 0;
    for (guint i = 0; i < G_N_ELEMENTS(parts); i++)
        need = parts[i] > UINT64_MAX - need ? UINT64_MAX : need + parts[i];
    RunMemoryLimit limit;
    run_memory_find(&limit);
    g_debug("%s: estimate %" G_GUINT64_FORMAT " bytes (engine %" G_GUINT64_FORMAT
            ", trace recorder %" G_GUINT64_FORMAT "), limit %" G_GUINT64_FORMAT
            " bytes: %s", scenario_name(s), (guint64)need, (guint64)engine,
            (guint64)recorder_bytes, (guint64)limit.bytes, limit.text);
    if (need > limit.bytes) {
        g_autofree char *need_text = bytes_text(need);
        g_autofree char *limit_text = bytes_text(limit.bytes);
        return refuse_run(&setup, s, error, "machine too large: %u nodes "
                          "with %zu elements each would need %s%s, more than "
                          "the %s this run may use (%s; set "
                          "CUBEMU_MEMORY_LIMIT in bytes to lower the limit)",
                          nodes, layout.memory_elements, need_text,
                          dump ? " with the dumped memory" : "", limit_text,
                          limit.text);
    }
    /* The estimate fits the limit as the limit is known; whether the
     * address space really has room for it is asked of the kernel, so
     * that the engine's own allocations, which cannot fail softly deep in
     * a run, find it. */
    if (!address_space_free(need)) {
        g_autofree char *size = size_text(need);
        g_autofree char *limit_text = bytes_text(limit.bytes);
        return refuse_run(&setup, s, error, "machine too large: cannot "
                          "allocate %s for %u nodes with %zu elements each "
                          "(the engine, the verifier%s), although the %s this "
                          "run may use (%s) would hold it", size, nodes,
                          layout.memory_elements,
                          dump ? ", the dumped memory" : "", limit_text,
                          limit.text);
    }
    /* What the recorders may grow into: what the limit leaves beside the
     * rest of the estimate, half each where there are two. */
    uint64_t left = limit.bytes - (need - recorder_bytes - schedule_bytes);
    if (recorder && schedule)
        left /= 2;
    if (recorder)
        trace_recorder_set_budget(recorder, left);
    if (schedule) {
        g_autofree char *source = g_strdup_printf("%s: algorithm %s",
                                                  scenario_name(s), alg->name);
        GError *e = NULL;
        if (!schedule_recorder_begin(schedule, &machine, source, layout.each,
                                     scenario_name(s), &e)) {
            refuse_run(&setup, s, error, "%s", e->message);
            g_error_free(e);
            return NULL;
        }
        schedule_recorder_set_budget(schedule, left);
    }
    /* The observer: the caller's, the schedule recorder's, or both. */
    RunTee tee;
    const SimObserver *observer = options ? options->observer : NULL;
    void *observer_data = options ? options->observer_data : NULL;
    if (schedule && observer)
        observer = run_tee(&tee, observer, observer_data,
                           schedule_recorder_observer(), schedule);
    else if (schedule)
        observer = schedule_recorder_observer();
    if (schedule)
        observer_data = observer == schedule_recorder_observer()
                            ? (void *)schedule : (void *)&tee;

    RunOrder order = options ? options->order : RUN_ORDER_DEFAULT;
    int threads = 1;
    size_t min_events = 0;
    if (!run_pages_env(error)
        || (order == RUN_ORDER_DEFAULT
            && !run_order_env(&machine, &order, error))
        || !run_threads(options, nodes, &threads, &min_events, error)) {
        run_setup_release(&setup, TRUE);
        return NULL;
    }
    /* The locality order, and where it stops or the run fails, the
     * contract's from the start (RunOrder). */
    g_autoptr(Sim) sim = NULL;
    Fingerprint before;
    double wall = 0;
    gboolean fallback = FALSE;
    gboolean again = FALSE;     /* the progress line says it starts over */
    Tick from = 0;              /* where the locality order starts */
    for (;;) {
        g_clear_pointer(&sim, sim_free);
        sim = sim_new(&machine, &sim_layout);
        /* An observer with `op` (the schedule recorder) runs the
         * contract's order from the start (sim.c), so that nothing it
         * recorded is recorded again here. */
        if (observer)
            sim_set_observer(sim, observer, observer_data);
        if (order == RUN_ORDER_LOCALITY)
            sim_set_order_from(sim, from);
        else
            sim_set_order(sim, SIM_ORDER_CONTRACT);
        sim_set_survey(sim, order == RUN_ORDER_SURVEY);
        if (options && options->limits)
            sim_set_limits(sim, options->limits);
        sim_set_threads(sim, alg->one_thread ? 1 : threads, min_events);
        if (alg->peek)
            sim_set_peek(sim, alg->peek);
        before = (Fingerprint){ 0, 0 };
        gint64 since = g_get_monotonic_time();
        for (uint32_t x = 0; x < nodes; x++) {
            progress_nodes(again ? "again in the contract order, "
                                   "preparing the memories"
                                 : "preparing the memories",
                           x, nodes, since);
            alg->init(config, x, sim_node_memory(sim, x));
            run_fingerprint_add(&before, sim_node_memory(sim, x),
                                layout.computed_elements,
                                layout.elements_per_node, w);
        }
        GError *e = NULL;
        gint64 t0 = g_get_monotonic_time();
        RunProgress progress = { .start_us = t0, .last_us = t0,
                                 .sample = { { t0, 0 } }, .samples = 1,
                                 .again = again };
        if (progress_enabled())
            sim_set_progress(sim, run_progress, &progress, 1024);
        gboolean ok = sim_run(sim, alg->step, config, &e);
        sim_set_progress(sim, NULL, NULL, 0);
        wall += (double)(g_get_monotonic_time() - t0) / 1e6;
        if (ok)
            break;
        if (g_error_matches(e, SIM_ERROR, SIM_ERROR_LIMIT)) {
            g_propagate_prefixed_error(error, e, "%s: ", scenario_name(s));
            run_setup_release(&setup, TRUE);
            return NULL;
        }
        if (sim_order_locality(sim)) {
            progress_clear();
            /* Only a run that stops on a channel as it starts is tried
             * again from the next tick (run.h says why). */
            gboolean on_channel;
            Tick stopped = sim_order_stopped_at(sim, &on_channel);
            if (stopped == 0 && on_channel && from == 0) {
                from = 1;
                g_debug("%s: %s; running it again, in the contract's order "
                        "for tick 0 and in the locality order after",
                        scenario_name(s), e->message);
            } else {
                order = RUN_ORDER_CONTRACT;
                g_debug("%s: %s; running it again in the contract's order",
                        scenario_name(s), e->message);
            }
            g_error_free(e);
            fallback = TRUE;
            /* Where the first try was on the screen, the line says why
             * it starts again; where it was not, nothing needs saying. */
            again = progress_drawn();
            continue;
        }
        g_autoptr(GString) why = g_string_new(e->message);
        if (alg->stuck && g_error_matches(e, SIM_ERROR, SIM_ERROR_DEADLOCK)
            && alg->stuck(config, why)) {
            g_set_error(error, RUN_ERROR, RUN_ERROR_STUCK, "%s: %s",
                        scenario_name(s), why->str);
            g_error_free(e);
        } else {
            g_propagate_error(error, e);
        }
        run_setup_release(&setup, TRUE);
        return NULL;
    }
    if (alg->stuck) {
        g_autoptr(GString) why = g_string_new(NULL);
        if (alg->stuck(config, why)) {
            g_set_error(error, RUN_ERROR, RUN_ERROR_STUCK, "%s: %s",
                        scenario_name(s), why->str);
            run_setup_release(&setup, TRUE);
            return NULL;
        }
    }
    GError *e = NULL;
    if (schedule && !schedule_recorder_check(schedule, &e)) {
        refuse_run(&setup, s, error, "%s", e->message);
        g_error_free(e);
        return NULL;
    }
    if (recorder && !trace_recorder_check(recorder, &e)) {
        g_autofree char *engine_text = bytes_text(need - recorder_bytes);
        g_autofree char *limit_text = bytes_text(limit.bytes);
        refuse_run(&setup, s, error, "machine too large to trace: %s (the "
                   "run's estimate without the trace is %s of the %s it may "
                   "use: %s; set CUBEMU_MEMORY_LIMIT in bytes to lower the "
                   "limit)", e->message, engine_text, limit_text, limit.text);
        g_error_free(e);
        return NULL;
    }

    Report *r = report_new();
    r->scenario = g_strdup(scenario_name(s));
    r->machine = machine;                 /* the report owns it now */
    run_report_algorithm(r, &setup);
    r->elements_per_node = layout.elements_per_node;
    r->element = layout.element;
    r->wall_seconds = wall;
    SimParCounts pc = sim_par_counts(sim);
    g_debug("%s: %d thread(s); %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
            " ticks split, %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
            " events in them; put off to the commits: %" G_GUINT64_FORMAT
            " sends, %" G_GUINT64_FORMAT " matchings; %" G_GUINT64_FORMAT
            " splits put off too much",
            scenario_name(s), sim_threads(sim), (guint64)pc.ticks_split,
            (guint64)pc.ticks, (guint64)pc.events_split,
            (guint64)sim_stats(sim)->events, (guint64)pc.sends_put_off,
            (guint64)pc.matches_put_off, (guint64)pc.ticks_backed_off);
    if (order == RUN_ORDER_SURVEY) {
        SimSurveyCounts sc = sim_survey_counts(sim);
        g_debug("%s: survey: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                " ticks and %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                " events without a conflict; %" G_GUINT64_FORMAT
                " conflicts%s%lld",
                scenario_name(s), (guint64)(sc.ticks - sc.ticks_conflicted),
                (guint64)sc.ticks,
                (guint64)(sc.events - sc.events_conflicted),
                (guint64)sc.events, (guint64)sc.conflicts,
                sc.first < 0 ? "" : ", the first at tick ",
                sc.first < 0 ? 0LL : (long long)sc.first);
    }
    r->order_locality = sim_order_locality(sim);
    r->order_fallback = fallback;
    report_take_stats(r, sim_stats(sim), alg->phases);

    r->computed = layout.computed;
    r->tolerance = layout.tolerance;
    r->computed_elements = layout.computed_elements;
    r->sampled = layout.computed_elements ? layout.sample : 0;
    if (!run_verify(r, sim, &setup, nodes, before, &e)) {
        g_propagate_prefixed_error(error, e, "%s: ", scenario_name(s));
        run_setup_release(&setup, FALSE);
        report_free(r);
        return NULL;
    }
    if (options && options->dump_memory) {
        size_t k = layout.elements_per_node * w;
        r->memory = dump <= G_MAXSIZE ? g_try_malloc((gsize)dump) : NULL;
        if (!r->memory) {
            g_autofree char *size = size_text(dump);
            g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_INPUT,
                        "%s: cannot allocate %s for the dumped memory",
                        scenario_name(s), size);
            run_setup_release(&setup, FALSE);
            report_free(r);
            return NULL;
        }
        for (uint32_t x = 0; x < nodes; x++)
            memcpy(r->memory + (size_t)x * k, sim_node_memory(sim, x),
                   k * sizeof(Word));
    }
    alg->report(config, r);
    report_machine_bounds(r);
    run_setup_release(&setup, FALSE);     /* the report owns the machine */
    return r;
}

Report *run_scenario(const Scenario *s, const RunOptions *options,
                     GError **error)
{
    progress_begin(scenario_name(s));
    Report *r = run_scenario_inner(s, options, error);
    progress_end();
    return r;
}
