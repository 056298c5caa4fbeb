/* symbols.c: the call-site symbolizer of the post-mortem tools. Owns one offline Dwfl per
 * distinct object path (opened on first use, kept even when opening failed so a missing object
 * is not retried) and a cache of formatted results per (object, offset); everything lives in
 * the mpirr_symbolizer, so separate symbolizers can be used from separate threads. */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* getcwd, strdup under -std=c11 */
#endif

#include "symbols.h"

#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct sym_object {
    char *path;
    uint64_t hash;
    Dwfl *dwfl;       /* NULL: the object or its ELF could not be opened; lookups degrade */
    Dwfl_Module *mod;
    Dwarf_Addr bias;  /* Dwfl address = file vaddr + bias (libdwfl relocates offline ET_DYN) */
    Dwarf_Addr start, end;
};

struct sym_result {
    char *text; /* NULL: empty slot */
    uint64_t offset;
    uint32_t obj;
    int found;
};

struct mpirr_symbolizer {
    char *cwd; /* NULL: unknown, file names are kept as recorded */
    size_t cwd_len;
    struct sym_object *objs;
    size_t nobjs, objs_cap;
    uint32_t *obj_slots; /* open addressing over objs: index + 1, 0 empty */
    size_t obj_slots_cap;
    struct sym_result *results;
    size_t nresults, results_cap;
};

/* Offline: the objects are files named in a recorded load map, not mappings of a live
 * process. Read-only for libdwfl, so one shared table keeps no mutable global state. */
static const Dwfl_Callbacks offline_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
};

static uint64_t hash_str(const char *p)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (; *p; p++)
        h = (h ^ (unsigned char)*p) * 0x100000001b3ull;
    return h;
}

static uint64_t hash_u64(uint64_t x)
{
    x ^= x >> 30; /* splitmix64 finaliser: offsets share low bits (alignment), so mix them */
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static uint64_t result_hash(uint32_t obj, uint64_t offset)
{
    return hash_u64(offset ^ ((uint64_t)obj * 0x9e3779b97f4a7c15ull));
}

static char *current_dir(void)
{
    for (size_t size = 256; size <= (1u << 20); size *= 2) {
        char *buf = malloc(size);
        if (!buf)
            return NULL;
        if (getcwd(buf, size))
            return buf;
        free(buf);
        if (errno != ERANGE)
            return NULL;
    }
    return NULL;
}

mpirr_symbolizer *mpirr_sym_open(void)
{
    mpirr_symbolizer *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    /* A vanished or unreadable cwd only costs the shortening of file names. */
    s->cwd = current_dir();
    s->cwd_len = s->cwd ? strlen(s->cwd) : 0;
    return s;
}

void mpirr_sym_close(mpirr_symbolizer *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nobjs; i++) {
        if (s->objs[i].dwfl)
            dwfl_end(s->objs[i].dwfl);
        free(s->objs[i].path);
    }
    for (size_t i = 0; i < s->results_cap; i++)
        free(s->results[i].text);
    free(s->objs);
    free(s->obj_slots);
    free(s->results);
    free(s->cwd);
    free(s);
}

/* Leaves o->dwfl NULL on any failure: libdwfl reports through dwfl_errno, never on stderr. */
static void object_load(struct sym_object *o)
{
    /* The path comes from the recording's load map: a FIFO or device put there must not
     * block or feed libdw. */
    struct stat st;
    if (stat(o->path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    Dwfl *dwfl = dwfl_begin(&offline_callbacks);
    if (!dwfl)
        return;
    dwfl_report_begin(dwfl);
    Dwfl_Module *mod = dwfl_report_offline(dwfl, o->path, o->path, -1);
    if (!mod || dwfl_report_end(dwfl, NULL, NULL) != 0) {
        dwfl_end(dwfl);
        return;
    }
    Dwarf_Addr bias = 0, start = 0, end = 0;
    /* The bias, not the module's start: for a non-PIE executable start is its link address
     * while the bias is 0, and recorded offsets are already link-time vaddrs. */
    if (!dwfl_module_getelf(mod, &bias)) {
        dwfl_end(dwfl);
        return;
    }
    dwfl_module_info(mod, NULL, &start, &end, NULL, NULL, NULL, NULL);
    o->dwfl = dwfl;
    o->mod = mod;
    o->bias = bias;
    o->start = start;
    o->end = end;
}

static void obj_slot_insert(uint32_t *slots, size_t cap, uint64_t hash, uint32_t idx1)
{
    size_t i = (size_t)hash & (cap - 1);
    while (slots[i])
        i = (i + 1) & (cap - 1);
    slots[i] = idx1;
}

/* The object for path, loaded on first use; NULL only when out of memory. */
static struct sym_object *object_get(mpirr_symbolizer *s, const char *path, uint32_t *index)
{
    uint64_t h = hash_str(path);
    if (s->obj_slots_cap) {
        for (size_t i = (size_t)h & (s->obj_slots_cap - 1); s->obj_slots[i];
             i = (i + 1) & (s->obj_slots_cap - 1)) {
            struct sym_object *o = &s->objs[s->obj_slots[i] - 1];
            if (o->hash == h && strcmp(o->path, path) == 0) {
                *index = s->obj_slots[i] - 1;
                return o;
            }
        }
    }
    if (s->nobjs >= UINT32_MAX - 1)
        return NULL;
    if (s->nobjs == s->objs_cap) {
        size_t cap = s->objs_cap ? s->objs_cap * 2 : 8;
        struct sym_object *objs = realloc(s->objs, cap * sizeof *objs);
        if (!objs)
            return NULL;
        s->objs = objs;
        s->objs_cap = cap;
    }
    if ((s->nobjs + 1) * 2 > s->obj_slots_cap) {
        size_t cap = s->obj_slots_cap ? s->obj_slots_cap * 2 : 16;
        uint32_t *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return NULL;
        for (size_t i = 0; i < s->nobjs; i++)
            obj_slot_insert(slots, cap, s->objs[i].hash, (uint32_t)i + 1);
        free(s->obj_slots);
        s->obj_slots = slots;
        s->obj_slots_cap = cap;
    }
    struct sym_object *o = &s->objs[s->nobjs];
    memset(o, 0, sizeof *o);
    o->path = strdup(path);
    if (!o->path)
        return NULL;
    o->hash = h;
    object_load(o);
    obj_slot_insert(s->obj_slots, s->obj_slots_cap, h, (uint32_t)s->nobjs + 1);
    *index = (uint32_t)s->nobjs++;
    return o;
}

/* What a site resolves to: file NULL means degraded to the object's name and offset (with the
 * function when the symbol table names it). */
struct site {
    const char *file;
    int line;
    const char *fn;
};

/* The source file and line of addr (a Dwfl address), and its unit's compilation directory;
 * NULL when unknown. libdwfl finds the unit through .debug_aranges only, and treats a missing
 * one as covering nothing (elfutils bug 22288); clang emits none unless -gdwarf-aranges, so
 * then each unit is asked whether its ranges hold addr. */
static const char *line_of(Dwfl_Module *mod, Dwarf_Addr addr, int *lineno, const char **comp_dir)
{
    Dwfl_Line *line = dwfl_module_getsrc(mod, addr);
    if (line) {
        *comp_dir = dwfl_line_comp_dir(line);
        return dwfl_lineinfo(line, NULL, lineno, NULL, NULL, NULL);
    }
    Dwarf_Addr bias = 0;
    for (Dwarf_Die *cu = NULL; (cu = dwfl_module_nextcu(mod, cu, &bias)) != NULL;) {
        if (addr < bias || dwarf_haspc(cu, addr - bias) != 1)
            continue;
        Dwarf_Line *l = dwarf_getsrc_die(cu, addr - bias);
        if (!l || dwarf_lineno(l, lineno) != 0)
            return NULL;
        Dwarf_Attribute attr;
        *comp_dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
        return dwarf_linesrc(l, NULL, NULL);
    }
    return NULL;
}

/* A relative DWARF file name is relative to its unit's compilation directory; joined, it can
 * be compared with the cwd. NULL when there is nothing to join (or out of memory). */
static char *join_comp_dir(const char *dir, const char *file)
{
    if (file[0] == '/' || !dir || dir[0] != '/')
        return NULL;
    while (file[0] == '.' && file[1] == '/')
        file += 2;
    size_t dlen = strlen(dir), flen = strlen(file);
    while (dlen > 0 && dir[dlen - 1] == '/') /* "/" joins as "/file", not "//file" */
        dlen--;
    char *path = malloc(dlen + 1 + flen + 1);
    if (path)
        sprintf(path, "%.*s/%s", (int)dlen, dir, file);
    return path;
}

/* *owned receives storage that site.file may point into; the caller frees it. */
static struct site resolve(const mpirr_symbolizer *s, const struct sym_object *o, uint64_t offset,
                           char **owned)
{
    struct site site = {NULL, 0, NULL};
    Dwarf_Addr addr;
    /* offset is a return address: offset - 1 lies inside the call instruction, whose line is
     * wanted (the return address may already belong to the next line or function). Offsets
     * outside the module's loaded range are garbage, not sites to guess a line for. */
    if (!o || !o->dwfl || offset == 0 || __builtin_add_overflow(o->bias, offset - 1, &addr) ||
        addr < o->start || addr >= o->end)
        return site;
    /* The symbol table names the function even without debug info; a stripped object still
     * has its dynamic symbols, which libdwfl falls back to (exported functions only: a static
     * one between two exported ones is not inside either's size, so it stays unnamed). */
    site.fn = dwfl_module_addrname(o->mod, addr);
    int lineno = 0;
    const char *comp_dir = NULL;
    const char *file = line_of(o->mod, addr, &lineno, &comp_dir);
    if (!file || lineno <= 0)
        return site;
    if ((*owned = join_comp_dir(comp_dir, file)))
        file = *owned;
    if (s->cwd && strncmp(file, s->cwd, s->cwd_len) == 0) {
        /* cwd "/" has no separator after it; otherwise require one so /a/bc is not under /a/b */
        if (s->cwd_len == 1 && file[1])
            file += 1;
        else if (s->cwd_len > 1 && file[s->cwd_len] == '/' && file[s->cwd_len + 1])
            file += s->cwd_len + 1;
    }
    site.file = file;
    site.line = lineno;
    return site;
}

/* C++ names are shown demangled, as gdb and addr2line -C show them. The demangler is the C++
 * runtime's own (__cxa_demangle), looked up in libstdc++ when first needed rather than linked:
 * the tools stay C, and without libstdc++ names stay mangled. */
typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);
static cxa_demangle_fn cxa_demangle;
static pthread_once_t cxa_demangle_once = PTHREAD_ONCE_INIT;

static void find_cxa_demangle(void)
{
    void *lib = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
    if (lib)
        *(void **)&cxa_demangle = dlsym(lib, "__cxa_demangle");
}

/* The demangled form of a mangled name (its "@VERSION" dropped), malloc'ed; NULL for a C
 * name or when it cannot be demangled. */
static char *demangle(const char *name)
{
    if (!name || strncmp(name, "_Z", 2) != 0)
        return NULL;
    pthread_once(&cxa_demangle_once, find_cxa_demangle);
    if (!cxa_demangle)
        return NULL;
    char *bare = strndup(name, strcspn(name, "@"));
    int status = -1;
    char *out = bare ? cxa_demangle(bare, NULL, NULL, &status) : NULL;
    free(bare);
    if (status != 0) {
        free(out);
        return NULL;
    }
    return out;
}

static int render(char *dst, size_t n, const struct site *site, const char *path, uint64_t offset)
{
    /* A versioned symbol's name ("fclose@@GLIBC_2.2.5") is shown without its version. */
    int fn_len = site->fn ? (int)strcspn(site->fn, "@") : 0;
    if (site->file && site->fn)
        return snprintf(dst, n, "%s:%d (%.*s)", site->file, site->line, fn_len, site->fn);
    if (site->file)
        return snprintf(dst, n, "%s:%d", site->file, site->line);
    const char *base = strrchr(path, '/');
    base = base && base[1] ? base + 1 : path;
    if (site->fn)
        return snprintf(dst, n, "%s+0x%" PRIx64 " (%.*s)", base, offset, fn_len, site->fn);
    return snprintf(dst, n, "%s+0x%" PRIx64, base, offset);
}

static void copy_out(char *buf, size_t n, const char *text)
{
    if (n == 0)
        return;
    size_t len = strlen(text);
    if (len >= n)
        len = n - 1;
    memcpy(buf, text, len);
    buf[len] = '\0';
}

static void result_slot_insert(struct sym_result *tab, size_t cap, struct sym_result r)
{
    size_t i = (size_t)result_hash(r.obj, r.offset) & (cap - 1);
    while (tab[i].text)
        i = (i + 1) & (cap - 1);
    tab[i] = r;
}

/* Takes ownership of text on success; 0 when out of memory (the caller keeps text). */
static int result_add(mpirr_symbolizer *s, uint32_t obj, uint64_t offset, char *text, int found)
{
    if ((s->nresults + 1) * 2 > s->results_cap) {
        size_t cap = s->results_cap ? s->results_cap * 2 : 64;
        struct sym_result *tab = calloc(cap, sizeof *tab);
        if (!tab)
            return 0;
        for (size_t i = 0; i < s->results_cap; i++)
            if (s->results[i].text)
                result_slot_insert(tab, cap, s->results[i]);
        free(s->results);
        s->results = tab;
        s->results_cap = cap;
    }
    result_slot_insert(s->results, s->results_cap,
                       (struct sym_result){.text = text, .offset = offset, .obj = obj, .found = found});
    s->nresults++;
    return 1;
}

int mpirr_sym_lookup(mpirr_symbolizer *s, const char *path, uint64_t offset, char *buf, size_t n)
{
    uint32_t obj = 0;
    struct sym_object *o = object_get(s, path, &obj);
    if (o && s->results_cap) {
        for (size_t i = (size_t)result_hash(obj, offset) & (s->results_cap - 1);
             s->results[i].text; i = (i + 1) & (s->results_cap - 1)) {
            if (s->results[i].obj == obj && s->results[i].offset == offset) {
                copy_out(buf, n, s->results[i].text);
                return s->results[i].found;
            }
        }
    }
    char *owned = NULL;
    struct site site = resolve(s, o, offset, &owned);
    char *readable = demangle(site.fn);
    if (readable)
        site.fn = readable;
    int found = site.file != NULL;
    int len = render(NULL, 0, &site, path, offset);
    char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (!text) {
        /* Out of memory: still answer, straight into the caller's buffer, just uncached. */
        if (n)
            render(buf, n, &site, path, offset);
        free(owned);
        free(readable);
        return found;
    }
    render(text, (size_t)len + 1, &site, path, offset);
    free(owned);
    free(readable);
    copy_out(buf, n, text);
    if (!o || !result_add(s, obj, offset, text, found))
        free(text);
    return found;
}
