/* remote_shell.h: a command on another host, through the remote shell MPIRR_RSH ("ssh" unless
 * set; its words split as a shell would, e.g. "ssh -i KEY -p 2222"), always called as
 *     MPIRR_RSH -o BatchMode=yes -o ConnectTimeout=10 [FLAG] HOST COMMAND
 * BatchMode: ssh never stops to ask for a password or passphrase, it fails at once (exit
 * status 255, as for a host it cannot reach). Used by a session's `gdb R` for a rank elsewhere
 * and by record --local's gathering. */
#ifndef MPIRR_CLI_REMOTE_SHELL_H
#define MPIRR_CLI_REMOTE_SHELL_H

#include <stddef.h>

enum { REMOTE_SHELL_FAILED = 255 }; /* ssh's exit status when it could not run the command */

/* The argv (NULL-terminated, malloc'ed: remote_shell_free) that runs command, one word the
 * remote shell splits again, on host; flag ("-t", "-n") or NULL. NULL with a reason in err (a
 * host that is not a host name by mpirr_host_name_ok (local_files.h), MPIRR_RSH unreadable,
 * out of memory). */
char **remote_shell_argv(const char *host, const char *flag, const char *command, char *err,
                         size_t errlen);
void remote_shell_free(char **argv);
/* The remote shell as the user set it: MPIRR_RSH's text, or "ssh". */
const char *remote_shell_setting(void);

#endif
