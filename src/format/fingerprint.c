/* fingerprint.c: FNV-1a over a file's bytes. Executables are a few MB at most, read once per
 * rank at MPI_Init and once by the CLI. */
#include "fingerprint.h"

#include <fcntl.h>
#include <unistd.h>

#include "varint.h"

uint64_t mpirr_file_fingerprint(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    uint8_t buf[1 << 16];
    uint64_t h = MPIRR_FNV64_OFFSET;
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) h = mpirr_fnv64(h, buf, (size_t)n);
    close(fd);
    return n < 0 ? 0 : (h ? h : 1);
}
