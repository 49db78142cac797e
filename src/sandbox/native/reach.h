/* Less reach for a command (issue 26.5): no open_by_handle_at (it opens a file through any mount
 * of its file system, the writable one under a read-only bind included), a fresh session keyring,
 * first in line for the OOM killer, and a process limit where the host lets us set one. Included by
 * nh-sandbox.c after net-filter.h (its BPF macros); static functions only. */
#include <limits.h>
#include <sys/resource.h>

#ifndef __NR_open_by_handle_at
#define __NR_open_by_handle_at 304
#endif
#if defined(__x86_64__)
#define COMPAT_OPEN_BY_HANDLE_AT 342
#elif defined(__aarch64__)
#define COMPAT_OPEN_BY_HANDLE_AT 371
#endif

/* Contract: open_by_handle_at fails with EPERM for native, x32 and 32-bit callers. Dropping
 * CAP_DAC_READ_SEARCH (caps.h) already makes it fail; this holds even if a capability stays. */
static void block_open_by_handle(void) {
#ifdef NATIVE_ARCH
  struct sock_filter code[] = {
      /* 0 */ LOAD(arch),
      /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 0, 3), /* else -> 5 */
      /* 2 */ LOAD(nr),
      /* 3 */ BPF_STMT(BPF_ALU | BPF_AND | BPF_K, ~X32_BIT),
      /* 4 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_open_by_handle_at, 4, 3), /* -> 9 : 8 */
      /* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, COMPAT_ARCH, 0, 2),              /* else -> 8 */
      /* 6 */ LOAD(nr),
      /* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, COMPAT_OPEN_BY_HANDLE_AT, 1, 0), /* -> 9 */
      /* 8 */ ALLOW,
      /* 9 */ DENY_WITH(EPERM),
  };
  struct sock_fprog prog = {.len = sizeof code / sizeof code[0], .filter = code};
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) die("cannot install the handle seccomp filter: %s", strerror(errno));
#endif
}

/* A session keyring of its own: the user's session keys (kerberos tickets, fscrypt keys, ...) are
 * out of reach. A kernel without keys support has nothing to reach. */
static void fresh_session_keyring(void) {
  if (syscall(SYS_keyctl, 1 /* KEYCTL_JOIN_SESSION_KEYRING */, NULL) < 0 && errno != ENOSYS)
    die("cannot give the command a session keyring of its own: %s", strerror(errno));
}

/* The OOM killer takes the command before NanoHermes (raising the score needs no privilege). */
static void first_for_oom_killer(void) {
  int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return; /* no /proc: nothing to set */
  if (write(fd, "1000", 4) != 4) die("cannot set oom_score_adj: %s", strerror(errno));
  close(fd);
}

/* Processes a command's tree may have at once: a fork bomb stops there instead of freezing the host. */
#define PROCESS_LIMIT 2048

static char pids_cgroup[PATH_MAX];

/* The pids cgroup (v1, or v2 with the controller enabled) this process is in, as a folder, or 0. */
static int own_pids_cgroup(char *out, size_t size) {
  FILE *f = fopen("/proc/self/cgroup", "r");
  char line[PATH_MAX];
  int found = 0;
  if (!f) return 0;
  while (!found && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    char *controllers = strchr(line, ':'), *path = controllers ? strchr(controllers + 1, ':') : NULL;
    if (!path) continue;
    *path++ = '\0';
    controllers++;
    if (!strcmp(controllers, "pids")) found = snprintf(out, size, "/sys/fs/cgroup/pids%s", path) < (int)size;
  }
  fclose(f);
  return found;
}

/* Puts the helper (and so the command it forks) into a new pids cgroup limited to PROCESS_LIMIT,
 * where the host allows it (root on cgroup v1 with a writable pids hierarchy). Root is exempt from
 * RLIMIT_NPROC, so for root this is the only limit; other users also get RLIMIT_NPROC. */
static void limit_processes(void) {
  char parent[PATH_MAX - 32];
  if (getuid() != 0) {
    struct rlimit now;
    if (!getrlimit(RLIMIT_NPROC, &now) && (now.rlim_cur == RLIM_INFINITY || now.rlim_cur > 16 * PROCESS_LIMIT)) {
      struct rlimit lim = {16 * PROCESS_LIMIT, 16 * PROCESS_LIMIT};
      setrlimit(RLIMIT_NPROC, &lim); /* counts all the user's processes: generous, a backstop */
    }
    return;
  }
  if (!own_pids_cgroup(parent, sizeof parent)) return;
  size_t len = strlen(parent);
  if (len > 0 && parent[len - 1] == '/') parent[len - 1] = '\0';
  snprintf(pids_cgroup, sizeof pids_cgroup, "%s/nh-sandbox-%d", parent, (int)getpid());
  if (mkdir(pids_cgroup, 0755)) {
    pids_cgroup[0] = '\0';
    return;
  }
  char file[PATH_MAX + 16], value[32];
  snprintf(file, sizeof file, "%s/pids.max", pids_cgroup);
  snprintf(value, sizeof value, "%d", PROCESS_LIMIT);
  int ok = !protect_write_file(file, value);
  snprintf(file, sizeof file, "%s/cgroup.procs", pids_cgroup);
  snprintf(value, sizeof value, "%d", (int)getpid());
  if (!ok || protect_write_file(file, value)) {
    rmdir(pids_cgroup);
    pids_cgroup[0] = '\0';
  }
}

/* Called by the helper last: its own cgroup can go once it is the only one left, so it moves out. */
static void remove_pids_cgroup(void) {
  if (!pids_cgroup[0]) return;
  char parent[PATH_MAX], value[32];
  snprintf(parent, sizeof parent, "%s/../cgroup.procs", pids_cgroup);
  snprintf(value, sizeof value, "%d", (int)getpid());
  protect_write_file(parent, value);
  rmdir(pids_cgroup);
}
