/* fuzz_manifest.c: libFuzzer target for the manifest reader (manifest.c): any bytes as
 * <dir>/manifest give a manifest or one line, never a crash or an unbounded allocation. A
 * manifest read is written again and reads back the same: the run id (32 hexadecimal digits,
 * or none) and the command line round-trip. */
#include <string.h>

#include "fuzz_dir.h"
#include "manifest.h"

/* What was read survives writing it again. */
static void round_trip(const mpirr_manifest *m)
{
    char err[1024], text[MPIRR_RUN_ID_DIGITS + 1];
    mpirr_run_id again;
    mpirr_run_id_text(&m->run_id, text);
    if (!mpirr_run_id_is_none(&m->run_id) &&
        (mpirr_run_id_parse(text, &again) || !mpirr_run_id_equal(&again, &m->run_id)))
        __builtin_trap();
    mpirr_manifest r;
    if (mpirr_manifest_write(fuzz_dir(), m, err, sizeof err)) return; /* the disk, not the reader */
    if (mpirr_manifest_read(fuzz_dir(), &r, err, sizeof err)) __builtin_trap();
    if (!mpirr_run_id_equal(&r.run_id, &m->run_id) || r.argc != m->argc) __builtin_trap();
    for (int i = 0; i < m->argc; i++)
        if (strcmp(r.argv[i], m->argv[i])) __builtin_trap();
    mpirr_manifest_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_dir_put_one("manifest", data, size);
    mpirr_manifest m;
    char err[1024];
    if (mpirr_manifest_read(fuzz_dir(), &m, err, sizeof err) == 0) {
        for (int i = 0; i < m.argc; i++)
            if (!m.argv[i]) __builtin_trap(); /* a read manifest has every argument */
        round_trip(&m);
        mpirr_manifest_free(&m);
    } else if (!err[0] || strchr(err, '\n')) {
        __builtin_trap(); /* a failure is exactly one line */
    }
    return 0;
}
