// Why not posix_spawn: a compiled program must die with kvo-run, also when
// kvo-run is killed by SIGKILL, which no handler sees. Only the child can ask
// for that (prctl(PR_SET_PDEATHSIG)), between fork and exec, and posix_spawn
// runs no code there. A process group with forwarding covers SIGTERM and
// SIGHUP but not SIGKILL; a wrapper executable costs an exec per run. So the
// child is started here, in C, with vfork as glibc's posix_spawn does: the
// child only makes system calls before execve, nothing Swift.
#define _GNU_SOURCE
#include "kvo_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int kvo_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const int *dups,
              int dup_count, const char *stdin_path, const int *defaults, int default_count, int new_group) {
    // No handler of kvo-run's may run in the child while it shares kvo-run's
    // memory (vfork): every signal blocked across the fork, as posix_spawn does.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t parent = getpid();
    // Written by the child before it exits when the exec fails (vfork shares memory).
    volatile int failure = 0;
    pid_t child = vfork();
    if (child == 0) {
        // A handler kvo-run installed would run kvo-run's code: at its default
        // instead; an ignored signal stays ignored (as exec keeps it) unless listed.
        for (int signal = 1; signal < NSIG; signal++) {
            struct sigaction action;
            if (sigaction(signal, NULL, &action) != 0) continue;
            int listed = 0;
            for (int index = 0; index < default_count; index++) listed |= defaults[index] == signal;
            if (listed || (action.sa_handler != SIG_IGN && action.sa_handler != SIG_DFL)) {
                struct sigaction fresh;
                memset(&fresh, 0, sizeof fresh);
                fresh.sa_handler = SIG_DFL;
                sigaction(signal, &fresh, NULL);
            }
        }
        // Killed when kvo-run ends, however it ends; and if it has already
        // ended (killed before this line), not started at all.
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) {
            failure = ECHILD;
            _exit(127);
        }
        // A compile step leads a process group of its own, so that the
        // processes it starts (swift-frontend, the linker) can be stopped
        // with it (kill(-pid)) when the run's deadline passes; set here,
        // before exec, so that no grandchild can start outside it.
        if (new_group && setpgid(0, 0) != 0) {
            failure = errno;
            _exit(127);
        }
        for (int index = 0; index < dup_count; index++) {
            int from = dups[2 * index], to = dups[2 * index + 1];
            // dup2 onto itself keeps close-on-exec: cleared as posix_spawn's adddup2 does.
            int done = from == to ? fcntl(from, F_SETFD, 0) : dup2(from, to);
            if (done < 0) {
                failure = errno;
                _exit(127);
            }
        }
        if (stdin_path) {
            int input = open(stdin_path, O_RDONLY);
            if (input < 0 || (input != 0 && (dup2(input, 0) < 0 || close(input) < 0))) {
                failure = errno;
                _exit(127);
            }
        }
        sigset_t none;
        sigemptyset(&none);
        pthread_sigmask(SIG_SETMASK, &none, NULL);
        execvpe(path, argv, envp);
        failure = errno;
        _exit(127);
    }
    int started = child < 0 ? errno : failure;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (child < 0) return started;
    if (started != 0) {
        // The child has ended (it exited before vfork returned): collected here.
        int status;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
        return started;
    }
    *pid = child;
    return 0;
}
