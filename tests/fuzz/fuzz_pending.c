/* fuzz_pending.c: libFuzzer target for the pending-slot reader (pending_slots.c): any bytes
 * as a rank's .pending file give its live slots as records, or one line. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_dir.h"
#include "pending_slots.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_dir_put_one("rank-00000.pending", data, size);
    char path[512], err[1024] = "";
    snprintf(path, sizeof path, "%s/rank-00000.pending", fuzz_dir());
    mpirr_record *recs = NULL;
    size_t n = 0;
    if (mpirr_pending_load(path, NULL, &recs, &n, err, sizeof err) < 0 && !err[0]) __builtin_trap();
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) sum += recs[i].event; /* every slot returned is readable */
    free(recs);
    return sum == 42 ? 0 : 0;
}
