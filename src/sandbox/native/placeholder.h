/* Protected paths that do not exist yet (.git/commondir, .git/modules, .nanohermes/, a missing
 * ~/.bashrc when the workspace is the home folder, ...): a command must not create them either, and
 * Landlock cannot refuse one name beneath a writable folder. So the helper makes a harmless
 * placeholder there (an empty folder, an empty file, a commondir of "." that names the git dir
 * itself) and binds it read-only like any protected path. It leaves it when it ends: unmounting
 * and removing it here would cost an RCU grace period per path, and another command may be using
 * it. NanoHermes removes placeholders once the last command of the workspace has ended (its
 * namespace is gone by then, so an unlink is just an unlink), and knows them by their shape and
 * by the modification time they are given (PLACEHOLDER_MTIME, mirrored in protected.ts).
 * Included by protect.h only. */
#ifndef NH_PLACEHOLDER_H
#define NH_PLACEHOLDER_H

/* 1970-01-01T00:00:01.234Z: no file of the user's has it (an archive's reproducible times are whole seconds). */
#define PLACEHOLDER_MTIME_SEC 1
#define PLACEHOLDER_MTIME_NSEC 234000000L

struct placeholder {
  const char *path;
  int dir;
};

/* What a file placeholder holds: nothing, but for commondir, which git refuses empty: "." names the
 * git dir itself, so git (the user's in another terminal included) reads the repository as before. */
static const char *placeholder_text(const char *path) {
  const char *base = strrchr(path, '/');
  return base && !strcmp(base + 1, "commondir") ? ".\n" : "";
}

/* Makes `p` when it is missing. Returns 1 when something is there to bind (made now, or already
 * there: the user's own, or another command's placeholder), 0 when its folder is missing too (a
 * repository with no .git: nothing to protect; ~/.config/git without ~/.config: left to the check
 * after the command). */
static int placeholder_take(const struct placeholder *p) {
  int made;
  if (p->dir) made = mkdir(p->path, 0700) == 0;
  else {
    int fd = open(p->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    made = fd >= 0;
    if (made) {
      const char *text = placeholder_text(p->path);
      ssize_t len = (ssize_t)strlen(text);
      ssize_t done = write(fd, text, (size_t)len);
      close(fd);
      if (done != len) die("cannot write the placeholder %s: %s", p->path, strerror(errno));
    }
  }
  if (!made) return errno == EEXIST;
  struct timespec times[2] = {{PLACEHOLDER_MTIME_SEC, PLACEHOLDER_MTIME_NSEC}, {PLACEHOLDER_MTIME_SEC, PLACEHOLDER_MTIME_NSEC}};
  if (utimensat(AT_FDCWD, p->path, times, AT_SYMLINK_NOFOLLOW)) die("cannot mark the placeholder %s: %s", p->path, strerror(errno));
  return 1;
}

#endif
