/* The helper as a child subreaper: it forks the command instead of exec'ing it, adopts every
 * orphan the command leaves (`nohup x &`, `setsid x &`, double forks), and when the command ends,
 * or the helper is told to stop, kills every process still descending from it. Included by
 * nh-sandbox.c; static functions only. */
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

/* After SIGTERM or SIGHUP the command gets this long to exit on its own before everything is
 * killed. Below run-command.ts's KILL_GRACE_MS (2 s), so the helper is never SIGKILLed first. */
#define REAPER_GRACE_MS 1000

/* Sends SIGKILL to every process below `pid` (read from /proc/PID/task/TID/children, every
 * thread's list). Returns how many it signalled. A zombie is signalled harmlessly. */
static int kill_tree_below(pid_t pid, int depth) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
  DIR *tasks = opendir(path);
  if (!tasks) return 0;
  int count = 0;
  struct dirent *task;
  while ((task = readdir(tasks))) {
    if (task->d_name[0] == '.') continue;
    char file[300];
    snprintf(file, sizeof file, "/proc/%d/task/%s/children", (int)pid, task->d_name);
    FILE *f = fopen(file, "re");
    if (!f) continue;
    int child;
    while (fscanf(f, "%d", &child) == 1) {
      /* Parents first, so no child is left to fork another after its parent was looked at; the
       * descendants of a killed parent are reparented to us and found by the next pass. */
      kill(child, SIGKILL);
      count++;
      if (depth < 4096) count += kill_tree_below(child, depth + 1);
    }
    fclose(f);
  }
  closedir(tasks);
  return count;
}

/* The parent of `pid` from /proc/PID/stat, or -1. */
static pid_t parent_of(pid_t pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  char *end = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
  int ppid;
  return end && sscanf(end + 1, " %*c %d", &ppid) == 1 ? ppid : -1;
}

/* For kernels without /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN): every process whose
 * parent chain reaches us, by scanning /proc until a scan finds nothing new. */
static int kill_tree_by_scan(void) {
  pid_t known[4096];
  int nknown = 0, count = 0, added = 1;
  known[nknown++] = getpid();
  while (added) {
    added = 0;
    DIR *proc = opendir("/proc");
    if (!proc) return count;
    struct dirent *entry;
    while ((entry = readdir(proc))) {
      if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
      pid_t pid = atoi(entry->d_name), ppid = parent_of(pid);
      int is_known = 0, parent_known = 0;
      for (int i = 0; i < nknown; i++) {
        if (known[i] == pid) is_known = 1;
        if (known[i] == ppid) parent_known = 1;
      }
      if (is_known || !parent_known) continue;
      kill(pid, SIGKILL);
      count++;
      if (nknown < (int)(sizeof known / sizeof known[0])) known[nknown++] = pid, added = 1;
    }
    closedir(proc);
  }
  return count;
}

/* Contract: returns once no process descends from the helper any more (each pass kills what it
 * sees, then waits for one child; orphans of killed processes become our children). */
static int reap_by_scan; /* --reap-by-scan: tests the fallback on a kernel that has the files */

static void kill_all_descendants(void) {
  char own[64];
  snprintf(own, sizeof own, "/proc/self/task/%d/children", (int)getpid());
  int have_children_files = !reap_by_scan && access(own, R_OK) == 0;
  for (;;) {
    if (have_children_files) kill_tree_below(getpid(), 0);
    else kill_tree_by_scan();
    if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD) return;
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
  }
}

static int status_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

static long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Runs in the forked child before exec: nothing (reap-only), or the whole confinement. */
typedef void (*child_setup_fn)(void);

struct child_args {
  pid_t self;
  char **command;
  child_setup_fn setup;
  const sigset_t *mask;
};

/* The command's side, in memory shared with the helper until exec: no exit(), no malloc. */
static int start_command(void *arg) {
  struct child_args *args = arg;
  in_child = 1;
  /* The helper dying (even by SIGKILL) takes the command with it. */
  prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
  if (getppid() != args->self) _exit(126);
  sigprocmask(SIG_SETMASK, args->mask, NULL);
  if (args->setup) args->setup();
  execvp(args->command[0], args->command);
  int err = errno;
  if (err == ENOENT && !strchr(args->command[0], '/')) fprintf(stderr, "nh-sandbox: %s: command not found\n", args->command[0]);
  else fprintf(stderr, "nh-sandbox: %s: %s\n", args->command[0], strerror(err));
  _exit(err == ENOENT ? 127 : 126);
}

/*
 * Contract: runs `command` as a child and returns its exit status (128 + signal when killed; 126
 * or 127 when it could not be started), after every descendant is gone. SIGTERM and SIGHUP are
 * passed to the command, which has REAPER_GRACE_MS to end before everything is killed. SIGINT and
 * SIGQUIT from a terminal already reached the command (same foreground group); sent with kill()
 * they are passed on. Neither stops the reaping: it happens when the command ends. With
 * `wait_orphans` (background jobs) the helper waits, after the command, until everything it left
 * has ended too, and still kills all of it on SIGTERM or SIGHUP.
 */
static int run_reaped(char **command, child_setup_fn setup, int wait_orphans) {
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) die("cannot become a child subreaper: %s", strerror(errno));
  /* If whoever started us dies (the agent crashed), clean up as if told to stop. */
  prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
  sigset_t watched, previous;
  sigemptyset(&watched);
  sigaddset(&watched, SIGCHLD);
  sigaddset(&watched, SIGTERM);
  sigaddset(&watched, SIGHUP);
  sigaddset(&watched, SIGINT);
  sigaddset(&watched, SIGQUIT);
  if (sigprocmask(SIG_BLOCK, &watched, &previous)) die("cannot block signals: %s", strerror(errno));
  struct child_args args = {.self = getpid(), .command = command, .setup = setup, .mask = &previous};
  /* The child shares our memory and we wait until it execs (as posix_spawn does): copying the
   * helper's page tables for a fork cost a few ms per command on a virtual machine. */
  size_t stack_size = 256 * 1024;
  char *stack = malloc(stack_size);
  if (!stack) die("out of memory");
  pid_t child = clone(start_command, stack + stack_size, CLONE_VM | CLONE_VFORK | SIGCHLD, &args);
  in_child = 0; /* the child set it in our shared memory */
  if (child < 0) die("cannot start the command: %s", strerror(errno));
  free(stack);

  int code = -1;
  long deadline = -1;
  for (;;) {
    /* Done when the command ended, unless told to wait for what it left behind and not stopped. */
    if (code >= 0 && (!wait_orphans || deadline >= 0)) break;
    siginfo_t info;
    int sig;
    if (deadline >= 0) {
      long left = deadline - now_ms();
      if (left <= 0) break;
      struct timespec wait = {.tv_sec = left / 1000, .tv_nsec = (left % 1000) * 1000000L};
      sig = sigtimedwait(&watched, &info, &wait);
    } else {
      sig = sigwaitinfo(&watched, &info);
    }
    if (sig < 0) continue; /* EINTR, or the deadline (checked above) */
    if (sig == SIGCHLD) {
      int status;
      pid_t pid;
      while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
        if (pid == child) code = status_code(status);
      if (pid < 0 && errno == ECHILD) break; /* nothing left at all */
    } else if (sig == SIGTERM || sig == SIGHUP) {
      if (code < 0) kill(child, sig);
      if (deadline < 0) deadline = now_ms() + REAPER_GRACE_MS;
    } else if (info.si_code != SI_KERNEL && code < 0) {
      kill(child, sig);
    }
  }
  kill_all_descendants();
  if (code < 0) code = 128 + SIGKILL; /* the grace ran out: the command was killed with the rest */
  return code;
}


/* Landlock ABI 6+, before the command starts: the helper enters a domain that only scopes
 * signals, so its kills reach nothing but its own domain and the command's (nested inside it),
 * even if a pid it read from /proc were reused meanwhile. Files stay unrestricted for it: the
 * domain handles only REFER (which every ruleset denies unless granted) and grants it beneath /. */
static void scope_helper_signals(void) {
  struct ruleset_attr attr = {.handled_fs = LANDLOCK_ACCESS_FS_REFER, .scoped = LANDLOCK_SCOPE_SIGNAL};
  int fd = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
  int root = open("/", O_PATH | O_CLOEXEC);
  struct landlock_path_beneath_attr rule = {.allowed_access = LANDLOCK_ACCESS_FS_REFER, .parent_fd = root};
  if (fd < 0 || root < 0 || syscall(SYS_landlock_add_rule, fd, LANDLOCK_RULE_PATH_BENEATH, &rule, 0) ||
      prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || syscall(SYS_landlock_restrict_self, fd, 0))
    die("cannot scope the helper's signals: %s", strerror(errno));
  close(root);
  close(fd);
}
