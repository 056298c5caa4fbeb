/* test_symbols.c: the call-site symbolizer on this test's own executable: a real return address
 * resolves to this file, the call's line and the calling function; a missing object, a huge
 * offset and offset 0 degrade to "name+0x..." without crashing or printing; a call inside the
 * C library (stripped on Debian: dynamic symbols only) is named by its function. Built with -g. */
#include <dlfcn.h>
#include <inttypes.h>
#include <link.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "symbols.h"

/* noinline: the return address must be that of a real call in main. */
static __attribute__((noinline)) void *return_address(void)
{
    return __builtin_return_address(0);
}

/* dl_iterate_phdr lists the executable first; its dlpi_addr is where its vaddr 0 is mapped. */
static int first_object_bias(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uintptr_t *)data = (uintptr_t)info->dlpi_addr;
    return 1;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Symbolizes a site a few bytes into fn (offset - 1 is the "call"), loaded from *object, into
 * buf; checks that it names want. 0 if fn is not in a loaded object. */
static int check_function(mpirr_symbolizer *s, void *fn, const char *want, const char **object,
                          uint64_t *offset, char *buf, size_t n)
{
    Dl_info info;
    struct link_map *map = NULL;
    CHECK(fn != NULL && dladdr1(fn, &info, (void **)&map, RTLD_DL_LINKMAP) != 0 && map != NULL);
    if (!fn || !map)
        return 0;
    *object = info.dli_fname;
    *offset = (uint64_t)((uintptr_t)fn - (uintptr_t)map->l_addr) + 4;
    mpirr_sym_lookup(s, *object, *offset, buf, n);
    if (!strstr(buf, want))
        fprintf(stderr, "%s+0x%" PRIx64 ": got \"%s\", want %s\n", *object, *offset, buf, want);
    CHECK(strstr(buf, want) != NULL);
    return 1;
}

/* A site inside libc's fclose (an exported function): with or without libc's debug info it is
 * named; a copy stripped of everything but its dynamic symbols (and of the build-id and
 * debuglink that would find the debug info) still names it, by "libc...+0xOFF (fclose)". */
static void check_libc(mpirr_symbolizer *s)
{
    char buf[4096];
    const char *object;
    uint64_t offset;
    if (!check_function(s, dlsym(RTLD_DEFAULT, "fclose"), "fclose)", &object, &offset, buf, sizeof buf))
        return;

    char stripped[] = "/tmp/test_symbols_libc_XXXXXX", cmd[PATH_MAX * 2 + 128];
    int fd = mkstemp(stripped);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    close(fd);
    snprintf(cmd, sizeof cmd, "objcopy --strip-all --remove-section=.gnu_debuglink "
             "--remove-section=.note.gnu.build-id '%s' '%s' 2>/dev/null", object, stripped);
    if (system(cmd) != 0) {
        fprintf(stderr, "objcopy failed (binutils missing?): stripped library not checked\n");
    } else {
        /* "(fclose)" or an alias at the same address, "(_IO_fclose)" */
        char want[128];
        snprintf(want, sizeof want, "%s+0x%" PRIx64 " (", strrchr(stripped, '/') + 1, offset);
        CHECK(mpirr_sym_lookup(s, stripped, offset, buf, sizeof buf) == 0);
        size_t len = strlen(buf);
        int ok = starts_with(buf, want) && len > 7 && strcmp(buf + len - 7, "fclose)") == 0;
        if (!ok)
            fprintf(stderr, "stripped: got \"%s\", want \"%s...fclose)\"\n", buf, want);
        CHECK(ok);
    }
    unlink(stripped);
}

/* A site inside a C++ function is named demangled, as gdb names it: std::exception::what()
 * in libstdc++ (whose mangled name is _ZNKSt9exception4whatEv). */
static void check_cxx(mpirr_symbolizer *s)
{
    void *lib = dlopen("libstdc++.so.6", RTLD_NOW);
    CHECK(lib != NULL);
    char buf[4096];
    const char *object;
    uint64_t offset;
    check_function(s, lib ? dlsym(lib, "_ZNKSt9exception4whatEv") : NULL,
                   "(std::exception::what() const)", &object, &offset, buf, sizeof buf);
}

int main(void)
{
    void *ret = return_address(); const int call_line = __LINE__;

    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    CHECK(len > 0);
    if (len <= 0)
        return CHECK_DONE();
    exe[len] = '\0';
    uintptr_t bias = 0;
    dl_iterate_phdr(first_object_bias, &bias);
    uint64_t offset = (uint64_t)((uintptr_t)ret - bias);

    mpirr_symbolizer *s = mpirr_sym_open();
    CHECK(s != NULL);
    if (!s)
        return CHECK_DONE();

    /* FILE is the DWARF path, shortened only if it lies under the cwd: compare its tail. */
    char buf[4096], want[64];
    snprintf(want, sizeof want, "test_symbols.c:%d (main)", call_line);
    CHECK(mpirr_sym_lookup(s, exe, offset, buf, sizeof buf) == 1);
    const char *slash = strrchr(buf, '/');
    const char *tail = slash ? slash + 1 : buf;
    if (strcmp(tail, want) != 0)
        fprintf(stderr, "got \"%s\", want \"%s\"\n", buf, want);
    CHECK(strcmp(tail, want) == 0);
    /* The source directory, absolute, for the shortening check below. */
    char dir[4096] = "", cwd[4096];
    if (buf[0] != '/' && getcwd(dir, sizeof dir - 1))
        strcat(dir, "/");
    if (strlen(dir) + (size_t)(tail - buf) < sizeof dir)
        strncat(dir, buf, (size_t)(tail - buf));

    /* A cached answer is the same answer, and a short buffer still gets a terminated prefix. */
    char again[4096];
    CHECK(mpirr_sym_lookup(s, exe, offset, again, sizeof again) == 1);
    CHECK(strcmp(again, buf) == 0);
    char small[8];
    CHECK(mpirr_sym_lookup(s, exe, offset, small, sizeof small) == 1);
    CHECK(strlen(small) == sizeof small - 1 && strncmp(small, buf, sizeof small - 1) == 0);
    CHECK(mpirr_sym_lookup(s, exe, offset, NULL, 0) == 1);

    /* A missing object degrades to its basename and the offset as given. */
    CHECK(mpirr_sym_lookup(s, "/nonexistent/dir/libgone.so.3", 0x1234, buf, sizeof buf) == 0);
    CHECK(strcmp(buf, "libgone.so.3+0x1234") == 0);
    CHECK(mpirr_sym_lookup(s, "/nonexistent/dir/libgone.so.3", 0x1234, buf, sizeof buf) == 0);
    CHECK(strcmp(buf, "libgone.so.3+0x1234") == 0);
    /* A file that is not ELF degrades the same way. */
    CHECK(mpirr_sym_lookup(s, "/proc/self/status", 0x10, buf, sizeof buf) == 0);
    CHECK(strcmp(buf, "status+0x10") == 0);

    /* Offsets outside the executable (or before its first byte) are not guessed at. */
    const char *base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
    char degraded[PATH_MAX + 32];
    CHECK(mpirr_sym_lookup(s, exe, UINT64_MAX, buf, sizeof buf) == 0);
    snprintf(degraded, sizeof degraded, "%s+0x%" PRIx64, base, UINT64_MAX);
    CHECK(strcmp(buf, degraded) == 0);
    CHECK(mpirr_sym_lookup(s, exe, 1ull << 40, buf, sizeof buf) == 0);
    CHECK(starts_with(buf, base) && strstr(buf, "+0x10000000000") != NULL);
    CHECK(mpirr_sym_lookup(s, exe, 0, buf, sizeof buf) == 0);
    check_libc(s);
    check_cxx(s);
    mpirr_sym_close(s);

    /* Opened from the source directory, the file name is shortened to be relative to it. */
    CHECK(dir[0] != '\0');
    if (dir[0] && getcwd(cwd, sizeof cwd) && chdir(dir) == 0) {
        s = mpirr_sym_open();
        CHECK(s != NULL);
        if (s) {
            CHECK(mpirr_sym_lookup(s, exe, offset, buf, sizeof buf) == 1);
            if (strcmp(buf, want) != 0)
                fprintf(stderr, "from %s: got \"%s\", want \"%s\"\n", dir, buf, want);
            CHECK(strcmp(buf, want) == 0);
            mpirr_sym_close(s);
        }
        CHECK(chdir(cwd) == 0);
    }
    mpirr_sym_close(NULL);
    return CHECK_DONE();
}
