/* thread_omp: OpenMP threads inside every rank racing on OpenMP's own synchronizations, whose
 * order decides the output: argv[1] names the construct.
 *   critical  4 threads append their number to a shared sequence in `omp critical`, 300 times
 *   lock      the same under an omp_lock_t (omp_set_lock/omp_unset_lock)
 *   nest      the same under an omp_nest_lock_t taken twice (its owner takes it again)
 *   dynamic   `omp for schedule(dynamic)` over 400 iterations: which thread ran each one
 * Rank 0 gathers each rank's digest and prints "digest HEX". Runs differ natively; under mpirr a replay
 * prints the same only for what mpirr orders (docs/threads.md: with LLVM's libomp, critical
 * sections and locks through OMPT; nothing of libgomp's; no dynamic schedule). The main thread alone
 * calls MPI; the parallel regions run after MPI_Init. */
#include <omp.h>
#include <string.h>

#include "../programs/common.h"

enum { NT = 4, ROUNDS = 300, ITERS = 400 };

/* n tenths of a microsecond of work: long enough that threads on two cores interleave */
static void spin(unsigned n) { (void)busy_work(100ull * n); }

static void critical_order(digest_t *d)
{
#pragma omp parallel num_threads(NT)
    {
        int id = omp_get_thread_num();
        for (int i = 0; i < ROUNDS; i++) {
#pragma omp critical(seq)
            digest_int(d, id);
            spin(50 + (unsigned)(id * 37 + i) % 200);
        }
    }
}

static void lock_order(digest_t *d)
{
    omp_lock_t l;
    omp_init_lock(&l);
#pragma omp parallel num_threads(NT)
    {
        int id = omp_get_thread_num();
        for (int i = 0; i < ROUNDS; i++) {
            omp_set_lock(&l);
            digest_int(d, id);
            omp_unset_lock(&l);
            spin(50 + (unsigned)(id * 37 + i) % 200);
        }
    }
    omp_destroy_lock(&l);
}

static void nest_order(digest_t *d)
{
    omp_nest_lock_t l;
    omp_init_nest_lock(&l);
#pragma omp parallel num_threads(NT)
    {
        int id = omp_get_thread_num();
        for (int i = 0; i < ROUNDS; i++) {
            omp_set_nest_lock(&l);
            omp_set_nest_lock(&l);
            digest_int(d, id);
            omp_unset_nest_lock(&l);
            omp_unset_nest_lock(&l);
            spin(50 + (unsigned)(id * 37 + i) % 200);
        }
    }
    omp_destroy_nest_lock(&l);
}

static void dynamic_order(digest_t *d)
{
    static int ran_by[ITERS];
#pragma omp parallel for schedule(dynamic) num_threads(NT)
    for (int i = 0; i < ITERS; i++) {
        ran_by[i] = omp_get_thread_num();
        spin(50 + (unsigned)(i * 37) % 200);
    }
    digest_ints(d, ran_by, ITERS);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *what = argc > 1 ? argv[1] : "critical";
    digest_t d;
    digest_init(&d);
    if (!strcmp(what, "critical")) critical_order(&d);
    else if (!strcmp(what, "lock")) lock_order(&d);
    else if (!strcmp(what, "nest")) nest_order(&d);
    else if (!strcmp(what, "dynamic")) dynamic_order(&d);
    else fail("thread_omp: unknown construct %s", what);
    return digest_finish(&d);
}
