#ifndef KVO_SPAWN_H
#define KVO_SPAWN_H

#include <sys/types.h>

/// Starts `path` (searched on PATH when it has no slash) with `argv` and
/// `envp`, as posix_spawnp does, in a child that dies with the thread that
/// started it (PR_SET_PDEATHSIG, SIGKILL). `dups` holds `dup_count` pairs
/// (from, to) applied in order; `stdin_path`, when not NULL, is opened as
/// standard input. The child starts with every signal unblocked and at its
/// default, except those kvo-run ignores and does not list in `defaults`.
/// `new_group` non-zero: the child leads a new process group (its pid).
/// Returns 0 and sets `*pid`, or an errno value (the exec's, when that failed).
int kvo_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const int *dups,
              int dup_count, const char *stdin_path, const int *defaults, int default_count, int new_group);

#endif
