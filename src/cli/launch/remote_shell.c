/* remote_shell.c: see remote_shell.h. */
#include "remote_shell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "local_files.h"
#include "settings.h"
#include "shell_quote.h"
#include "text_escape.h"

enum { MAX_RSH_WORDS = 64 };

void remote_shell_free(char **argv)
{
    for (int i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

const char *remote_shell_setting(void)
{
    const char *rsh = mpirr_setting_text(MPIRR_SET_RSH); /* checked: environment_check */
    return rsh ? rsh : "ssh";
}

char **remote_shell_argv(const char *host, const char *flag, const char *command, char *err,
                         size_t errlen)
{
    if (!mpirr_host_name_ok(host)) {
        char esc[300];
        snprintf(err, errlen, "'%s' is not a host name", text_escape(host, esc, sizeof esc));
        return NULL;
    }
    const char *rsh = remote_shell_setting();
    char *words[MAX_RSH_WORDS], why[128];
    int n = shell_split_words(rsh, words, MAX_RSH_WORDS, why, sizeof why);
    if (n <= 0) {
        char esc[300];
        snprintf(err, errlen, "MPIRR_RSH='%s': %s", text_escape(rsh, esc, sizeof esc),
                 n == 0 ? "no command" : why);
        return NULL;
    }
    const char *tail[] = {"-o", "BatchMode=yes", "-o", "ConnectTimeout=10", flag, host, command};
    enum { TAIL = sizeof tail / sizeof tail[0] };
    char **argv = calloc((size_t)n + TAIL + 1, sizeof *argv);
    int k = 0, ok = argv != NULL;
    for (int i = 0; i < n; i++) {
        if (ok) argv[k++] = words[i];
        else free(words[i]);
    }
    for (int i = 0; ok && i < (int)TAIL; i++)
        if (tail[i]) ok = (argv[k++] = strdup(tail[i])) != NULL;
    if (!ok) {
        remote_shell_free(argv);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    return argv;
}
