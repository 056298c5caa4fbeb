/* view_page_build.c: see view_page_build.h. The page's own policy forbids every network
 * access; the live page's differs in one directive (connect-src 'self'), patched here so
 * that both are the same compiled-in sources. */
#include "view_page_build.h"

#include <string.h>

#include "diag.h"
#include "view_page.h"

static const char csp_static[] = "connect-src 'none'", csp_live[] = "connect-src 'self'";

int view_page_load(const char *dir, struct analysis *a, struct view_data *d)
{
    /* happened-before first: the race analysis reads what it leaves in the messages */
    int rc = analysis_open(dir, a, 1, 0);
    if (rc) return rc;
    memset(d, 0, sizeof *d);
    if (view_collect_events(a, d) || view_collect_links(a, d) || view_collect_endings(a, d)) {
        view_page_unload(a, d);
        return CLI_EXIT_FAIL; /* said why */
    }
    return 0;
}

void view_page_unload(struct analysis *a, struct view_data *d)
{
    view_data_free(d);
    analysis_close(a);
}

void view_page_write(FILE *f, const struct view_data *d, const char *dir, int live)
{
    const unsigned char *head = view_page_head;
    size_t n = sizeof view_page_head;
    const unsigned char *csp = live ? memmem(head, n, csp_static, sizeof csp_static - 1) : NULL;
    if (csp) {
        fwrite(head, 1, (size_t)(csp - head), f);
        fputs(csp_live, f);
        size_t skip = (size_t)(csp - head) + sizeof csp_static - 1;
        fwrite(head + skip, 1, n - skip, f);
    } else {
        fwrite(head, 1, n, f); /* (a live page without the directive gets no network at all) */
    }
    view_write_data(f, d, dir, live);
    fwrite(view_page_tail, 1, sizeof view_page_tail, f);
}
