/* elf_mpi.c: reads the dynamic section of an executable and looks at the libraries it needs:
 * which MPI, whether it calls MPI from Fortran through the MPI's bindings, and which OpenMP
 * runtime it uses (libgomp's own synchronizations are not ordered: docs/threads.md).
 * Done directly rather than with ldd, which runs the dynamic loader on the program; only the
 * program's own DT_NEEDED entries are seen, which is where mpicc puts the MPI library. */
#include "elf_mpi.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if __SIZEOF_POINTER__ == 8
#define NATIVE_CLASS ELFCLASS64
#else
#define NATIVE_CLASS ELFCLASS32
#endif

/* Sonames. MPICH installs libmpi.so.12 too, so it must be tested before Open MPI's libmpi.so.N;
 * Open MPI's language bindings are libmpi_<lang>. */
static const struct impl_clue soname_clues[] = {
    {"libmpich", IMPL_MPICH},   {"libmpifort", IMPL_MPICH},   {"libmpi.so.12", IMPL_MPICH},
    {"libmpi.so", IMPL_OPENMPI}, {"libmpi_", IMPL_OPENMPI},    {"libopen-rte", IMPL_OPENMPI},
    {"libopen-pal", IMPL_OPENMPI}, {NULL, IMPL_UNKNOWN},
};

/* [off, off+len) lies inside the image and is suitably aligned for align-byte objects. */
static int fits(size_t size, uint64_t off, uint64_t len, size_t align)
{
    return off <= size && len <= size - off && off % align == 0;
}

/* Called with each DT_NEEDED name until it returns nonzero. */
typedef int (*needed_fn)(const char *name, void *ctx);

static void scan_dynamic(const unsigned char *img, size_t size, const ElfW(Shdr) *dyn,
                         const ElfW(Shdr) *strtab, needed_fn fn, void *ctx)
{
    if (!fits(size, dyn->sh_offset, dyn->sh_size, _Alignof(ElfW(Dyn))) ||
        !fits(size, strtab->sh_offset, strtab->sh_size, 1))
        return;
    const ElfW(Dyn) *d = (const ElfW(Dyn) *)(img + dyn->sh_offset);
    const char *strs = (const char *)img + strtab->sh_offset;
    for (size_t i = 0; i < dyn->sh_size / sizeof *d && d[i].d_tag != DT_NULL; i++) {
        if (d[i].d_tag != DT_NEEDED || d[i].d_un.d_val >= strtab->sh_size)
            continue;
        const char *name = strs + d[i].d_un.d_val;
        if (memchr(name, '\0', strtab->sh_size - d[i].d_un.d_val) && fn(name, ctx))
            return;
    }
}

static void scan_image(const unsigned char *img, size_t size, needed_fn fn, void *ctx)
{
    const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)img;
    if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_ident[EI_CLASS] != NATIVE_CLASS || eh->e_shentsize != sizeof(ElfW(Shdr)) ||
        !fits(size, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(ElfW(Shdr)),
              _Alignof(ElfW(Shdr))))
        return;
    const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(img + eh->e_shoff);
    for (unsigned i = 0; i < eh->e_shnum; i++)
        if (sh[i].sh_type == SHT_DYNAMIC && sh[i].sh_link < eh->e_shnum) {
            scan_dynamic(img, size, &sh[i], &sh[sh[i].sh_link], fn, ctx);
            return;
        }
}

/* Calls fn with the DT_NEEDED entries of the executable at path (none if it is not one). */
static void scan_needed(const char *path, needed_fn fn, void *ctx)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        /* Mapped, not read: executables can be large and only the headers are touched. */
        size_t size = (size_t)st.st_size;
        void *img = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (img != MAP_FAILED) {
            scan_image(img, size, fn, ctx);
            munmap(img, size);
        }
    }
    close(fd);
}

int elf_is_elf(const char *path)
{
    unsigned char magic[SELFMAG];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    int is = read(fd, magic, sizeof magic) == (ssize_t)sizeof magic &&
             memcmp(magic, ELFMAG, SELFMAG) == 0;
    close(fd);
    return is;
}

static int first_impl(const char *name, void *ctx)
{
    enum mpi_impl *impl = ctx;
    *impl = mpi_impl_from_clues(soname_clues, name);
    return *impl != IMPL_UNKNOWN;
}

enum mpi_impl elf_mpi_impl(const char *path)
{
    enum mpi_impl impl = IMPL_UNKNOWN;
    scan_needed(path, first_impl, &impl);
    return impl;
}

/* The first DT_NEEDED entry that starts with one of prefixes (NULL-terminated): its index in
 * prefixes, its soname in soname; -1 if none does. */
struct needed_match {
    const char *const *prefixes;
    char *soname;
    size_t n;
    int found;
};

static int first_prefixed(const char *name, void *ctx)
{
    struct needed_match *m = ctx;
    for (int i = 0; m->prefixes[i] && m->found < 0; i++)
        if (strncmp(name, m->prefixes[i], strlen(m->prefixes[i])) == 0) {
            m->found = i;
            snprintf(m->soname, m->n, "%s", name);
        }
    return m->found >= 0;
}

static int needed_prefixed(const char *path, const char *const *prefixes, char *soname, size_t n)
{
    struct needed_match m = {prefixes, soname, n, -1};
    scan_needed(path, first_prefixed, &m);
    return m.found;
}

/* The Fortran bindings: Open MPI's mpif.h and `use mpi` (libmpi_mpifh; `use mpi` also
 * libmpi_usempi_ignore_tkr or libmpi_usempi), `use mpi_f08` (libmpi_usempif08); MPICH's
 * (libmpichfort, libmpifort). */
static const char *const fortran_sonames[] = {"libmpi_mpifh", "libmpi_usempi", "libmpichfort",
                                              "libmpifort", NULL};

int elf_mpi_fortran(const char *path, char *soname, size_t n)
{
    return needed_prefixed(path, fortran_sonames, soname, n) >= 0;
}

/* The OpenMP runtimes, in enum elf_openmp order from ELF_OPENMP_GNU: GCC's; LLVM's (libomp,
 * and Intel's libiomp5 it comes from). */
static const char *const openmp_sonames[] = {"libgomp.so", "libomp.so", "libiomp5.so", NULL};

enum elf_openmp elf_openmp(const char *path, char *soname, size_t n)
{
    int i = needed_prefixed(path, openmp_sonames, soname, n);
    return i < 0 ? ELF_OPENMP_NONE : i == 0 ? ELF_OPENMP_GNU : ELF_OPENMP_LLVM;
}
