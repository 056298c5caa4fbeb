/* fuzz_pack.c: libFuzzer target for the node pack reader (rank_pack.c): any bytes as
 * node-00000.pack give its members, each read back through mpirr_fopen_regular (seeking and
 * sized as the readers do), or one line naming the pack. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file_io.h"
#include "fuzz_dir.h"
#include "rank_pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_dir_put_one("node-00000.pack", data, size);
    char path[4400], err[1024] = "";
    mpirr_name_list l;
    if (mpirr_rank_files_list(fuzz_dir(), &l, NULL, err, sizeof err)) {
        if (!strstr(err, "node-00000.pack") || strchr(err, '\n')) __builtin_trap();
        return 0;
    }
    uint64_t sum = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (strchr(l.v[i], '/')) __builtin_trap(); /* never a path out of the recording */
        snprintf(path, sizeof path, "%s/%s", fuzz_dir(), l.v[i]);
        FILE *f = mpirr_fopen_regular(path, err, sizeof err);
        if (!f) {
            if (!err[0]) __builtin_trap();
            continue;
        }
        uint64_t n = 0, got = 0;
        if (mpirr_stream_size(f, &n)) __builtin_trap();
        uint8_t buf[4096];
        for (size_t k; (k = fread(buf, 1, sizeof buf, f)) > 0; got += k) sum += buf[0];
        if (got != n || (n > 1 && (fseek(f, (long)n / 2, SEEK_SET) || ftell(f) != (long)n / 2))) __builtin_trap();
        fclose(f);
    }
    mpirr_name_list_free(&l);
    return sum == 42 ? 0 : 0;
}
