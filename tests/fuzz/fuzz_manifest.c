/* fuzz_manifest.c: libFuzzer target for the manifest reader (manifest.c): any bytes as
 * <dir>/manifest give a manifest or one line, never a crash or an unbounded allocation. */
#include <string.h>

#include "fuzz_dir.h"
#include "manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_dir_put_one("manifest", data, size);
    mpirr_manifest m;
    char err[1024];
    if (mpirr_manifest_read(fuzz_dir(), &m, err, sizeof err) == 0) {
        for (int i = 0; i < m.argc; i++)
            if (!m.argv[i]) __builtin_trap(); /* a read manifest has every argument */
        mpirr_manifest_free(&m);
    } else if (!err[0] || strchr(err, '\n')) {
        __builtin_trap(); /* a failure is exactly one line */
    }
    return 0;
}
