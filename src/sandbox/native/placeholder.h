/* Protected paths that do not exist yet (.git/commondir, .git/modules, .nanohermes/, a missing
 * ~/.bashrc when the workspace is the home folder, ...): a command must not create them either, and
 * Landlock cannot refuse one name beneath a writable folder. So the helper makes a harmless
 * placeholder there (an empty folder, an empty file, a commondir that names the git dir itself),
 * binds it read-only like any protected path, and removes it again when the command has ended.
 * Several helpers may share one placeholder: each holds a shared flock on it while its command
 * runs, and only the last one (the one that gets the lock exclusively) removes it; a helper that
 * finds a placeholder another helper holds adopts it. Included by protect.h only. */
#ifndef NH_PLACEHOLDER_H
#define NH_PLACEHOLDER_H
#include <sys/file.h>

/* A placeholder: its path, its kind, the descriptor holding the flock, and whether this helper
 * removes it at the end (it made it, or adopted one another helper made). */
struct placeholder {
  const char *path;
  int dir, fd, mine;
  dev_t dev;
  ino_t ino;
};

/* What a file placeholder holds: nothing, but for commondir, which git refuses empty: "." names the
 * git dir itself, so git (the user's in another terminal included) reads the repository as before. */
static const char *placeholder_text(const char *path) {
  const char *base = strrchr(path, '/');
  return base && !strcmp(base + 1, "commondir") ? ".\n" : "";
}

/* Makes `p` (when missing) and takes the shared lock. Returns 1 when it is there to bind (p->fd is
 * then the locked descriptor, or -1 for a path of the user's that cannot be opened), 0 when it is
 * left to the check after the command (its folder is missing, it is a symlink, or it keeps changing
 * under us). */
static int placeholder_take(struct placeholder *p) {
  for (int attempt = 0; attempt < 4; attempt++) {
    int made = 0;
    p->fd = -1;
    if (p->dir) made = mkdir(p->path, 0700) == 0;
    else {
      /* Locked before it is filled, so a helper that finds it meanwhile adopts it. */
      p->fd = open(p->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
      made = p->fd >= 0;
      if (made) {
        const char *text = placeholder_text(p->path);
        ssize_t len = (ssize_t)strlen(text);
        if (flock(p->fd, LOCK_SH) || write(p->fd, text, (size_t)len) != len)
          die("cannot make the placeholder %s: %s", p->path, strerror(errno));
      }
    }
    if (!made && errno != EEXIST) return 0; /* no folder to make it in (a missing .git): nothing to protect */
    if (p->fd < 0) p->fd = open(p->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (p->fd < 0) {
      if (errno == ENOENT) continue;  /* removed meanwhile by the helper that made it: make our own */
      if (errno == ELOOP) return 0; /* a symlink: the check after the command compares it */
      return 1; /* the user's own, and unreadable (mode 000, a socket): bound read-only all the same */
    }
    /* Found, not made: adopted when another helper holds it (it cannot be had exclusively), else it
     * is the user's own file or a leftover, bound like any existing protected path and kept. */
    p->mine = made || flock(p->fd, LOCK_EX | LOCK_NB) != 0;
    if (flock(p->fd, LOCK_SH)) die("cannot lock the placeholder %s: %s", p->path, strerror(errno));
    struct stat held, now;
    if (!fstat(p->fd, &held) && !lstat(p->path, &now) && held.st_dev == now.st_dev && held.st_ino == now.st_ino) {
      p->dev = held.st_dev;
      p->ino = held.st_ino;
      return 1;
    }
    close(p->fd); /* removed (and maybe made again) between open and lock: start over */
    p->fd = -1;
  }
  return 0;
}

/* Whether the placeholder still holds only what it was made with (the user may have written to it
 * from outside while the command ran: then it is theirs and stays). */
static int placeholder_untouched(const struct placeholder *p) {
  if (p->dir) return 1; /* rmdir removes only an empty folder */
  char buf[8];
  const char *text = placeholder_text(p->path);
  ssize_t got = pread(p->fd, buf, sizeof buf, 0);
  return got == (ssize_t)strlen(text) && !memcmp(buf, text, (size_t)got);
}

/* Removes it where no other helper holds it any more. Run by the janitor, outside the namespace
 * (the placeholder is no mount point there, and nothing sandboxed ever was in this process). */
static void placeholder_remove(struct placeholder *p) {
  struct stat now;
  if (p->fd < 0) return;
  /* Exclusive only when no other helper's descriptor holds it (ours is shared with the exited helper). */
  if (p->mine && flock(p->fd, LOCK_EX | LOCK_NB) == 0 && !lstat(p->path, &now) && now.st_dev == p->dev &&
      now.st_ino == p->ino && placeholder_untouched(p))
    p->dir ? rmdir(p->path) : unlink(p->path);
  close(p->fd);
  p->fd = -1;
}

/* The helper cannot unmount or remove the placeholders itself once its command has run: its binds
 * are mount points in its namespace (rmdir and unlink refuse them) and the Landlock scope that keeps
 * the command from signalling it also refuses it every mount change. So a janitor forked before
 * the namespace, outside it, removes them when the helper says so or dies (SIGKILL included): it
 * waits for the end of one pipe, and the helper waits for the janitor's end of another. */
static int janitor_go = -1, janitor_done = -1;

static void janitor_start(struct placeholder *list, int n) {
  int go[2], done[2];
  if (pipe2(go, O_CLOEXEC) || pipe2(done, O_CLOEXEC)) die("cannot make the janitor's pipes: %s", strerror(errno));
  pid_t pid = fork();
  if (pid < 0) die("cannot fork the janitor: %s", strerror(errno));
  if (pid == 0) {
    /* Twice, so it is nobody's child here: the reaper never waits for it nor kills it. */
    if (fork() != 0) _exit(0);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
      dup2(null, 0), dup2(null, 1), dup2(null, 2);
      close(null);
    }
    close(go[1]);
    close(done[0]);
    char c;
    ssize_t got;
    while ((got = read(go[0], &c, 1)) > 0 || (got < 0 && errno == EINTR)) {}
    for (int i = n - 1; i >= 0; i--) placeholder_remove(&list[i]);
    _exit(0);
  }
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
  close(go[0]);
  close(done[1]);
  janitor_go = go[1];
  janitor_done = done[0];
}

/* Tells the janitor the command has ended and waits until it removed what it could: the caller's
 * check after the command must find the placeholders gone. */
static void janitor_finish(void) {
  if (janitor_go < 0) return;
  close(janitor_go);
  janitor_go = -1;
  char c;
  ssize_t got;
  while ((got = read(janitor_done, &c, 1)) > 0 || (got < 0 && errno == EINTR)) {}
  close(janitor_done);
  janitor_done = -1;
}

#endif
