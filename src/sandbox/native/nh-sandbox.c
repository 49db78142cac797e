/* nh-sandbox: prepares a Linux Landlock ruleset and forks the command, which restricts itself
 * before exec, so the command and every child it starts inherit the rules; the helper stays
 * outside and reaps everything the command leaves behind (reaper.h). Fails closed: when the
 * protection asked for cannot be enforced it exits 126 with one line on stderr and never runs the
 * command. `--mode off` only reaps. Built by scripts/build-native.mjs. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Older kernel headers lack the newer rights; the values are fixed kernel ABI. */
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif

/* Our own copy of struct landlock_ruleset_attr as of ABI 6, since old headers have only the first
 * field. The size passed to the kernel is cut to what its ABI knows. */
struct ruleset_attr {
  uint64_t handled_fs;
  uint64_t handled_net;
  uint64_t scoped;
};

#define READ_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
/* The only rights the kernel accepts in a rule on a file rather than a directory. */
#define FILE_RIGHTS (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
                     LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)
/* Device nodes are never creatable: a node for the disk would bypass every path rule. */
#define DEVICE_NODES (LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_BLOCK)
/* Writable roots get every right except device nodes and device ioctls (IOCTL_DEV is not a write). */
#define WRITE_RIGHTS(handled) ((handled) & ~(DEVICE_NODES | LANDLOCK_ACCESS_FS_IOCTL_DEV))
/* `cmd > /dev/null` opens with O_TRUNC, so the sink devices need TRUNCATE as well as WRITE_FILE.
 * No IOCTL_DEV: on a terminal that would allow TIOCSTI (typing into the user's shell). */
#define DEVICE_RIGHTS (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE)
static const char *const sink_devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"};

/* Set in the command's child, which shares the helper's memory until it execs (reaper.h): it must
 * leave with _exit, never run the helper's exit handlers. */
static int in_child;

static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("nh-sandbox: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  if (in_child) _exit(126);
  exit(126);
}

#include "protect.h"

/* Every filesystem right this ABI knows: handling them all makes anything not granted denied. */
static uint64_t fs_rights(int abi) {
  uint64_t all = (1ULL << 13) - 1; /* ABI 1: EXECUTE .. MAKE_SYM */
  if (abi >= 2) all |= LANDLOCK_ACCESS_FS_REFER;    /* else cross-directory renames/links always fail */
  if (abi >= 3) all |= LANDLOCK_ACCESS_FS_TRUNCATE; /* else truncate(2) is unrestricted */
  if (abi >= 5) all |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
  return all;
}

static const char *unavailable_reason(int err) {
  if (err == ENOSYS) return "the kernel has no Landlock support (ENOSYS)";
  if (err == EOPNOTSUPP) return "Landlock is built into the kernel but disabled (EOPNOTSUPP; add landlock to the lsm= boot parameter)";
  return strerror(err);
}

static int kernel_abi(void) {
  return (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
}

/* --probe: the ABI, and whether a ruleset really can be enforced (this process exits right after,
 * so it restricts itself to find out rather than trusting the version call alone). */
static int probe(void) {
  int abi = kernel_abi();
  if (abi < 0) {
    printf("{\"abi\":0,\"landlock\":false,\"reason\":\"%s\"}\n", unavailable_reason(errno));
    return 0;
  }
  struct ruleset_attr attr = {.handled_fs = LANDLOCK_ACCESS_FS_MAKE_BLOCK};
  int fd = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(uint64_t), 0);
  if (fd < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || syscall(SYS_landlock_restrict_self, fd, 0)) {
    printf("{\"abi\":%d,\"landlock\":false,\"reason\":\"restricting a process failed: %s\"}\n", abi, strerror(errno));
    return 0;
  }
  printf("{\"abi\":%d,\"landlock\":true,\"reason\":\"Landlock ABI %d is enforced\"}\n", abi, abi);
  return 0;
}

/* Grants `access` beneath `path` (or on it, for a file). A missing optional path grants nothing. */
static void allow(int ruleset, const char *path, uint64_t access, int required) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) {
    if (!required && (errno == ENOENT || errno == ENXIO)) return;
    die("cannot open %s: %s", path, strerror(errno));
  }
  struct stat st;
  if (fstat(fd, &st)) die("cannot stat %s: %s", path, strerror(errno));
  if (!S_ISDIR(st.st_mode)) access &= FILE_RIGHTS;
  struct landlock_path_beneath_attr rule = {.allowed_access = access, .parent_fd = fd};
  if (syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0))
    die("cannot add a rule for %s: %s", path, strerror(errno));
  close(fd);
}

/* A terminal inherited from outside keeps every ioctl (Landlock checks rights when a file is
 * opened), so TIOCSTI could type a command into the user's shell (CVE-2017-5226 in bubblewrap).
 * A seccomp filter refuses TIOCSTI and TIOCLINUX for native, 32-bit and x32 callers. */
#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#define COMPAT_ARCH AUDIT_ARCH_I386
#define X32_IOCTL (0x40000000 | 514)
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#define COMPAT_ARCH AUDIT_ARCH_ARM
#define X32_IOCTL __NR_ioctl
#endif
#define COMPAT_IOCTL 54 /* ioctl's number on i386 and 32-bit ARM */

static void block_terminal_injection(void) {
#ifdef NATIVE_ARCH
  struct sock_filter code[] = {
      /* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 0, 3),
      /* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      /* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 4, 0),
      /* 4 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, X32_IOCTL, 3, 6),
      /* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, COMPAT_ARCH, 0, 5),
      /* 6 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      /* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, COMPAT_IOCTL, 0, 3),
      /* 8: the request's low 32 bits (both architectures are little-endian) */
      /* 8 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
      /* 9 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCSTI, 2, 0),
      /* 10 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TIOCLINUX, 1, 0),
      /* 11 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      /* 12 */ BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
  };
  struct sock_fprog prog = {.len = sizeof code / sizeof code[0], .filter = code};
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) die("cannot install the seccomp filter: %s", strerror(errno));
#endif
}

/* Nothing the caller had open may leak in (a pipe to the agent, a log file, a socket). */
static void close_inherited_fds(void) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
  DIR *dir = opendir("/proc/self/fd");
  if (!dir) die("cannot list open file descriptors: %s", strerror(errno));
  struct dirent *entry;
  while ((entry = readdir(dir))) {
    int fd = atoi(entry->d_name);
    if (fd > 2 && fd != dirfd(dir)) close(fd);
  }
  closedir(dir);
}

#include "caps.h"
#include "net-filter.h"
#include "reach.h"
#include "reaper.h"
#include "tmpdir.h"

static int child_ruleset = -1, child_network_off = 0;
/* The protected paths (global: the command's setup reads whether the namespace was made). */
static struct protect_list protect;

/* Where no mount namespace could be made, the binds do not hold and a command can change .git/config
 * or plant a hook while it runs: git run by the command then runs none of the repository's
 * programs. Added after whatever GIT_CONFIG_COUNT the caller set, so these win. */
static const char *const git_safe_config[][2] = {
    {"core.hooksPath", "/dev/null"}, {"core.fsmonitor", "false"}, {"core.pager", "cat"}, {"diff.external", ""}};

static void neutralise_git_env(void) {
  const char *given = getenv("GIT_CONFIG_COUNT");
  int base = given ? atoi(given) : 0, n = (int)(sizeof git_safe_config / sizeof git_safe_config[0]);
  if (base < 0 || base > 1000) base = 0;
  char name[64], count[16];
  for (int i = 0; i < n; i++) {
    snprintf(name, sizeof name, "GIT_CONFIG_KEY_%d", base + i);
    if (setenv(name, git_safe_config[i][0], 1)) die("cannot set %s: %s", name, strerror(errno));
    snprintf(name, sizeof name, "GIT_CONFIG_VALUE_%d", base + i);
    if (setenv(name, git_safe_config[i][1], 1)) die("cannot set %s: %s", name, strerror(errno));
  }
  snprintf(count, sizeof count, "%d", base + n);
  if (setenv("GIT_CONFIG_COUNT", count, 1)) die("cannot set GIT_CONFIG_COUNT: %s", strerror(errno));
}


/* Runs in the forked command before exec. A failure exits 126 there, so nothing runs unconfined. */
static void confine_command(void) {
  /* no_new_privs first: restrict_self requires it, and a setuid program must not shed the rules. */
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) die("cannot set no_new_privs: %s", strerror(errno));
  if (!protect.isolated) neutralise_git_env();
  first_for_oom_killer();
  fresh_session_keyring();
  keep_needed_capabilities();
  block_terminal_injection();
  install_net_filter(child_network_off);
  block_open_by_handle();
  if (syscall(SYS_landlock_restrict_self, child_ruleset, 0)) die("cannot enforce the Landlock ruleset: %s; refusing to run", strerror(errno));
  close_inherited_fds();
}

static void usage(void) {
  die("usage: nh-sandbox --mode read-only|workspace-write|off [--workspace DIR] [--writable DIR]... "
      "[--tmpdir DIR] [--network on|off] [--abi-min N] [--wait-orphans] [--no-namespace] [--pin PATH]... [--protect PATH]... "
      "[--placeholder DIR]... [--absent-file PATH]... [--absent-dir PATH]... -- PROGRAM ARGS... | nh-sandbox [--no-namespace] --probe | --probe-protect");
}

int main(int argc, char **argv) {
  const char *mode = NULL, *workspace = NULL, *tmpdir = NULL;
  const char **writable = calloc((size_t)argc, sizeof *writable);
  int nwritable = 0, network_off = 0, abi_min = 1, abi_max = 1 << 30, wait_orphans = 0;
  char **command = NULL;
  protect = protect_list_new(argc);
  if (!writable) die("out of memory");
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(arg, "--no-namespace")) { protect_no_namespace = 1; continue; }
    if (!strcmp(arg, "--probe")) return probe();
    if (!strcmp(arg, "--probe-protect")) return protect_probe();
    if (!strcmp(arg, "--")) { command = argv + i + 1; break; }
    if (!strcmp(arg, "--wait-orphans")) { wait_orphans = 1; continue; } /* see run_reaped() */
    if (!strcmp(arg, "--reap-by-scan")) { reap_by_scan = 1; continue; }
    if (!value) usage();
    if (!strcmp(arg, "--mode")) mode = value;
    else if (!strcmp(arg, "--workspace")) workspace = value;
    else if (!strcmp(arg, "--writable")) writable[nwritable++] = value;
    else if (!strcmp(arg, "--tmpdir")) tmpdir = value;
    else if (!strcmp(arg, "--network") && (!strcmp(value, "on") || !strcmp(value, "off"))) network_off = !strcmp(value, "off");
    else if (!strcmp(arg, "--abi-min")) abi_min = atoi(value);
    else if (!strcmp(arg, "--abi-max")) abi_max = atoi(value); /* use at most this ABI: tests older kernels */
    else if (!protect_arg(&protect, arg, value)) usage();
    i++;
  }
  int write_mode = mode && !strcmp(mode, "workspace-write");
  if (mode && !strcmp(mode, "off") && command && command[0]) return run_reaped(command, NULL, wait_orphans); /* reaping only */
  if (!mode || (!write_mode && strcmp(mode, "read-only")) || !command || !command[0]) usage();
  if (write_mode && !workspace) die("workspace-write needs --workspace DIR");

  int abi = kernel_abi();
  if (abi < 0) die("Landlock is unavailable: %s; refusing to run unsandboxed", unavailable_reason(errno));
  if (abi > abi_max) abi = abi_max;
  if (abi < abi_min) die("Landlock ABI %d is below the required %d; refusing to run", abi, abi_min);
#ifndef NATIVE_ARCH
  /* Below ABI 4 only the seccomp filter keeps TCP out, and it is built for native x86_64 and aarch64 only. */
  if (network_off && abi < 4)
    die("--network off needs Landlock ABI 4 (TCP rules) but this kernel has ABI %d; refusing to run with the network open", abi);
#endif

  struct ruleset_attr attr = {.handled_fs = fs_rights(abi)};
  if (network_off) attr.handled_net = LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP; /* no port allowed */
  if (abi >= 6) attr.scoped = LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL;
  size_t size = abi >= 6 ? sizeof attr : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t);
  int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
  if (ruleset < 0) die("cannot create a Landlock ruleset: %s", strerror(errno));

  uint64_t handled = attr.handled_fs;
  allow(ruleset, "/", READ_RIGHTS, 1);
  for (size_t i = 0; i < sizeof sink_devices / sizeof sink_devices[0]; i++) allow(ruleset, sink_devices[i], DEVICE_RIGHTS & handled, 0);
  /* The terminal we were given, so `echo > /dev/stderr` works when run by hand. */
  for (int fd = 0; fd <= 2; fd++)
    if (isatty(fd) && ttyname(fd)) allow(ruleset, ttyname(fd), DEVICE_RIGHTS & handled, 0);
  if (write_mode) {
    allow(ruleset, workspace, WRITE_RIGHTS(handled), 1);
    allow(ruleset, safe_tmpdir(tmpdir ? tmpdir : getenv("TMPDIR"), workspace), WRITE_RIGHTS(handled), 0);
    for (int i = 0; i < nwritable; i++) allow(ruleset, writable[i], WRITE_RIGHTS(handled), 1);
  }

  /* Mounts while the helper still holds CAP_SYS_ADMIN and before any Landlock domain (Landlock
   * refuses mount changes): the forked command inherits the namespace and then drops the power. */
  protect_apply(&protect);
  limit_processes();
  /* The helper stays outside the command's domain (so the command cannot signal or trace it with
   * ABI 6, and it can remove its private temp folder); the forked command confines itself before
   * exec, nested in the helper's signal-only domain. */
  child_ruleset = ruleset;
  child_network_off = network_off;
  if (abi >= 6) scope_helper_signals();
  int status = run_reaped(command, confine_command, wait_orphans);
  close(ruleset);
  remove_private_tmpdir();
  remove_pids_cgroup();
  return status;
}
