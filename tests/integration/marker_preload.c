/* marker_preload.c: a library that, once loaded into a process, creates the file named by
 * UNTRUSTED_MARKER. untrusted.sh plants it in edited manifests (-x LD_PRELOAD=, -genv
 * LD_PRELOAD): the marker's absence proves the injected preload never ran, and a direct run
 * of the edited command, which does create it, proves the injection would have worked. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void leave_marker(void)
{
    const char *path = getenv("UNTRUSTED_MARKER");
    int fd = path ? open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644) : -1;
    if (fd >= 0)
        close(fd);
}
