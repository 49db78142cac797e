/* Protected paths inside writable roots (.git/config, .git/hooks, shell start-up files, ...): the
 * helper enters its own mount namespace and binds each one onto itself read-only, since Landlock
 * cannot take write access away beneath a writable root. Included by nh-sandbox.c only. */
#ifndef NH_PROTECT_H
#define NH_PROTECT_H
#include <sched.h>
#include <limits.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

/* The flags of the mount a path is on: a remount in a user namespace must keep the locked ones
 * (nosuid, nodev, noexec, atime) or the kernel refuses it with EPERM. */
static unsigned long protect_kept_flags(const char *path) {
  struct statvfs st;
  unsigned long flags = 0;
  if (statvfs(path, &st)) return 0;
  if (st.f_flag & ST_NOSUID) flags |= MS_NOSUID;
  if (st.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (st.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (st.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (st.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (st.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  return flags;
}

static int protect_write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t len = (ssize_t)strlen(text), done = write(fd, text, (size_t)len);
  close(fd);
  return done == len ? 0 : -1;
}

/* A private mount namespace: as root a plain one; otherwise inside a new user namespace that maps
 * only our own uid and gid (where the kernel allows unprivileged user namespaces). Mounts are made
 * private first, so nothing bound here ever propagates back to the user's namespace. Returns 0, or
 * -1 with errno set and `why` naming the step that failed (the process then mounts nothing). */
static int protect_enter_namespace(const char **why);
/* Set in the trial child, which tries for real. */
static int protect_trial;
/* --no-namespace: behave as a host where no mount namespace can be made (tests, and a way to
 * compare); only ever weaker, like --abi-max. */
static int protect_no_namespace;

/* Whether a child can make and map a user namespace: inside another sandbox (Landlock refuses the
 * writes to /proc/self/uid_map) it cannot, and this process must not find out by trying itself,
 * since a user namespace cannot be left again. */
static int protect_userns_works(void) {
  pid_t pid = fork();
  if (pid < 0) return 0;
  if (pid == 0) {
    const char *ignored = NULL;
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) dup2(fd, 2); /* the child's die() lines are not the user's business */
    protect_trial = 1;
    _exit(protect_enter_namespace(&ignored) ? 1 : 0);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int protect_enter_namespace(const char **why) {
  if (protect_no_namespace) return errno = EPERM, *why = "switched off by --no-namespace", -1;
  uid_t uid = geteuid();
  gid_t gid = getegid();
  if (uid == 0) {
    if (unshare(CLONE_NEWNS | CLONE_NEWIPC)) return *why = "unshare(CLONE_NEWNS|CLONE_NEWIPC)", -1;
  } else {
    char map[64];
    if (!protect_trial && !protect_userns_works()) return errno = EPERM, *why = "a trial user namespace (inside another sandbox?)", -1;
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWIPC)) return *why = "unshare(CLONE_NEWUSER|CLONE_NEWNS|CLONE_NEWIPC)", -1;
    /* From here there is no way back: without its maps the process would run as the overflow
     * uid and could not even read the user's files, so a failure ends the run (fail closed).
     * setgroups must be denied before an unprivileged process may write gid_map. */
    if (protect_write_file("/proc/self/setgroups", "deny")) die("cannot deny setgroups in the new user namespace: %s", strerror(errno));
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    if (protect_write_file("/proc/self/uid_map", map)) die("cannot write the uid map of the new user namespace: %s", strerror(errno));
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    if (protect_write_file("/proc/self/gid_map", map)) die("cannot write the gid map of the new user namespace: %s", strerror(errno));
  }
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) return *why = "making mounts private", -1;
  return 0;
}

/* Binds `path` onto itself, then (when `readonly`) remounts that bind read-only. The bind alone
 * makes the path a mount point, which rename and rmdir refuse (EBUSY): .git cannot be swapped for
 * a planted one. A missing path or a symlink is skipped (the TypeScript check covers those). */
static void protect_bind(const char *path, int readonly) {
  struct stat st;
  if (lstat(path, &st)) {
    if (errno == ENOENT || errno == ENOTDIR) return;
    die("cannot protect %s: %s", path, strerror(errno));
  }
  if (S_ISLNK(st.st_mode)) return;
  /* MS_REC: mounts already beneath it (an outer sandbox's binds) come along instead of failing. */
  if (mount(path, path, NULL, MS_BIND | MS_REC, NULL)) die("cannot protect %s: bind failed: %s", path, strerror(errno));
  if (readonly && mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | protect_kept_flags(path), NULL))
    die("cannot protect %s: read-only remount failed: %s", path, strerror(errno));
}

static int protect_by_length(const void *a, const void *b) {
  size_t la = strlen(*(const char *const *)a), lb = strlen(*(const char *const *)b);
  return la < lb ? -1 : la > lb;
}

#include "placeholder.h"

/* The --pin, --protect, --placeholder and --absent-* arguments (each repeatable; at most argc of them). */
struct protect_list {
  const char **pins, **paths;
  int npins, npaths;
  struct placeholder *absent;
  int nabsent;
  /* Set once the namespace exists: IPC objects and mounts are then the command's own. */
  int isolated;
};

static struct protect_list protect_list_new(int argc) {
  struct protect_list list = {calloc((size_t)argc, sizeof(char *)), calloc((size_t)argc, sizeof(char *)), 0, 0,
                               calloc((size_t)argc, sizeof(struct placeholder)), 0, 0};
  if (!list.pins || !list.paths || !list.absent) die("out of memory");
  return list;
}

/* Takes `--pin PATH` (bound in place, stays writable), `--protect PATH` (bound read-only),
 * `--placeholder DIR` (a folder git reads that does not exist yet, such as .git/hooks: made empty
 * first, as git init would, then bound read-only, so nothing can be planted in it while the command
 * runs), or `--absent-file PATH` / `--absent-dir PATH` (a path that must stay absent: bound
 * read-only when it exists, else a placeholder is made and bound; see placeholder.h); returns 0
 * for any other argument. */
static int protect_arg(struct protect_list *list, const char *arg, const char *value) {
  if (!strcmp(arg, "--pin")) list->pins[list->npins++] = value;
  else if (!strcmp(arg, "--absent-file") || !strcmp(arg, "--absent-dir"))
    list->absent[list->nabsent++] = (struct placeholder){.path = value, .dir = !strcmp(arg, "--absent-dir")};
  else if (!strcmp(arg, "--protect")) list->paths[list->npaths++] = value;
  else if (!strcmp(arg, "--placeholder")) {
    struct stat st;
    /* Only when its parent is a real folder: a symlinked .git is followed by nobody here. */
    char parent[PATH_MAX];
    snprintf(parent, sizeof parent, "%s", value);
    char *slash = strrchr(parent, '/');
    if (slash && slash != parent) *slash = '\0';
    if (lstat(value, &st) && errno == ENOENT && !lstat(parent, &st) && S_ISDIR(st.st_mode) && mkdir(value, 0755) && errno != EEXIST)
      die("cannot make the placeholder %s: %s", value, strerror(errno));
    list->paths[list->npaths++] = value;
  } else return 0;
  return 1;
}

/* Applies --pin and --protect in this process, before Landlock and the capability drop, so the
 * command and everything it forks inherit them; the drop (CAP_SYS_ADMIN) and Landlock (which
 * refuses mount and umount to a sandboxed process) keep them from being undone, and a nested user
 * namespace gets the binds as locked mounts it cannot take apart. Shorter paths go first, so .git
 * is bound before .git/config is bound inside it. Without a namespace nothing is mounted: the
 * caller's after-command check is then the only protection, and --probe-protect says so. */
static void protect_apply(struct protect_list *list) {
  const char *why = NULL;
  if (protect_enter_namespace(&why)) return;
  list->isolated = 1;
  /* Pins first: a placeholder made in a .git is made through its pinned bind (the same folder). */
  qsort(list->pins, (size_t)list->npins, sizeof *list->pins, protect_by_length);
  for (int i = 0; i < list->npins; i++) protect_bind(list->pins[i], 0);
  for (int i = 0; i < list->nabsent; i++)
    if (placeholder_take(&list->absent[i])) list->paths[list->npaths++] = list->absent[i].path;
  qsort(list->paths, (size_t)list->npaths, sizeof *list->paths, protect_by_length);
  for (int i = 0; i < list->npaths; i++) protect_bind(list->paths[i], 1);
}

/* --probe-protect: whether this process can make the namespace the binds need. */
static int protect_probe(void) {
  const char *why = NULL;
  int root = geteuid() == 0;
  if (protect_enter_namespace(&why)) {
    if (protect_no_namespace) return printf("{\"mountNamespace\":false,\"reason\":\"%s\"}\n", why), 0;
    printf("{\"mountNamespace\":false,\"reason\":\"%s failed: %s\"}\n", why, strerror(errno));
    return 0;
  }
  printf("{\"mountNamespace\":true,\"reason\":\"%s\"}\n", root ? "a private mount namespace (as root)" : "a private user and mount namespace (unprivileged)");
  return 0;
}

#endif
