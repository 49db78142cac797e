/* Which temp folder workspace-write makes writable: TMPDIR (or --tmpdir) unless it is `/`, the home
 * folder or one of its parents, or a parent of the workspace; then a private folder the helper
 * makes and removes after the command. Included by nh-sandbox.c; static functions only. */
#include <ftw.h>
#include <limits.h>
#include <pwd.h>

static char private_tmpdir[64];

/* True when `dir` is `path` or one of its parents (both already resolved). */
static int contains_path(const char *dir, const char *path) {
  size_t n = strlen(dir);
  if (!strcmp(dir, "/")) return 1;
  return !strncmp(dir, path, n) && (path[n] == '\0' || path[n] == '/');
}

/* Why `dir` must not become writable, or NULL. /tmp itself stays allowed as a workspace's parent:
 * every user can write there already. */
static const char *unsafe_tmpdir(const char *dir, const char *workspace) {
  if (!strcmp(dir, "/")) return "/";
  const char *home = getenv("HOME");
  struct passwd *pw = home && home[0] == '/' ? NULL : getpwuid(getuid());
  if (pw) home = pw->pw_dir;
  char real_home[PATH_MAX], real_ws[PATH_MAX];
  if (home && home[0] == '/' && realpath(home, real_home) && contains_path(dir, real_home)) return "the home folder or a parent of it";
  if (realpath(workspace, real_ws) && contains_path(dir, real_ws) && strcmp(dir, real_ws) && strcmp(dir, "/tmp")) return "a parent of the workspace";
  return NULL;
}

/*
 * Contract: returns the folder to make writable and sets TMPDIR to it for the command. `wanted`
 * (NULL or relative means /tmp) is used unless unsafe_tmpdir() names a reason; then one line goes
 * to stderr and a fresh private folder under /tmp is used (removed by remove_private_tmpdir()).
 */
static const char *safe_tmpdir(const char *wanted, const char *workspace) {
  const char *dir = wanted && wanted[0] == '/' ? wanted : "/tmp";
  static char real[PATH_MAX];
  const char *why = realpath(dir, real) ? unsafe_tmpdir(real, workspace) : NULL;
  if (why) {
    strcpy(private_tmpdir, "/tmp/nh-sandbox-tmp-XXXXXX");
    if (!mkdtemp(private_tmpdir)) die("TMPDIR %s is %s and no private temp folder could be made: %s", dir, why, strerror(errno));
    fprintf(stderr, "nh-sandbox: TMPDIR %s is %s: not making it writable; using the private temp folder %s\n", dir, why, private_tmpdir);
    dir = private_tmpdir;
  }
  setenv("TMPDIR", dir, 1);
  return dir;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
  (void)st, (void)type, (void)ftw;
  remove(path);
  return 0;
}

static void remove_private_tmpdir(void) {
  if (private_tmpdir[0]) nftw(private_tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
