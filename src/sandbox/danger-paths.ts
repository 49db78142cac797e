// What a path names, as written in a command (quotes removed, nothing expanded): the root, a
// system directory, a home directory, the temp directory, a credential or start-up file, a block
// device. Commands run at the workspace root, so a relative path is inside the workspace.

/**
 * `//x/./` -> `/x`: repeated slashes and trailing `/.` removed; in an absolute path `.` and `..`
 * resolved as written (`/usr/..` is `/`, `/tmp/../etc` is `/etc`), a trailing `/` kept.
 */
export function normalisePath(t: string): string {
  const s = t.replace(/\/{2,}/g, "/").replace(/(\/\.)+\/?$/, "/");
  if (!s.startsWith("/") || !/(^|\/)\.\.?(\/|$)/.test(s)) return s;
  const out: string[] = [];
  for (const part of s.split("/").filter((p) => p !== "")) {
    if (part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}${out.length > 0 && s.endsWith("/") ? "/" : ""}`;
}

const segments = (t: string) => t.split("/").filter((s) => s !== "");

/** `/`, `/*`, `/.`, `//`, `/..`, `/../..`, `/./*`: the filesystem root in any spelling. `/...` is a name. */
export function isRoot(t: string): boolean {
  if (!t.startsWith("/")) return false;
  const parts = segments(normalisePath(t));
  return parts.every((s, k) => s === "." || s === ".." || ((s === "*" || s === ".*") && k === parts.length - 1));
}

/** The home directory as written: `~`, `~user`, `$HOME`, `${HOME}`, `/root`, `/home/u`, `/Users/u`. */
const HOME = /^(~[^/]*|\$HOME|\$\{HOME\}|\/root|\/home\/[^/]+|\/Users\/[^/]+)(?=\/|$)/;

/** The part of `t` after a home directory (`""` for the home itself), or null when not under one. */
export function homeRest(t: string): string | null {
  const m = HOME.exec(normalisePath(t));
  if (!m) return null;
  return normalisePath(t).slice(m[0].length).replace(/^\/+/, "");
}

/** Directories whose recursive deletion leaves no working system (the blocklist's floor). */
const SYSTEM_DIRS =
  /^\/(home|root|etc|usr|var|bin|sbin|boot|lib|lib32|lib64|libx32|opt|srv|Users|System|Library|Applications|private)\/?(\*|\.\*)?$/;
/** Where a write or a recursive change breaks the system or other users. */
const SYSTEM_TREE =
  /^\/(etc|usr|bin|sbin|lib|lib32|lib64|libx32|boot|dev|proc|sys|root|opt|srv|snap|var|private|System|Library)(\/|$)/;
/** Where writing configures the system (macOS mirrors /etc and /var under /private). */
const SYSTEM_WRITE = /^\/(etc|boot|usr|bin|sbin|lib|lib32|lib64|libx32|private\/etc|private\/var|System|Library)(\/|$)/;
const TEMP = /^(\/tmp|\/var\/tmp|\/private\/tmp|\/private\/var\/tmp|\/dev\/shm|\$TMPDIR|\$\{TMPDIR\})(?=\/|$)/;

/** A whole system directory (`/usr`, `/var/*`, `/home`): deleting it recursively is unrecoverable. */
export const isSystemDir = (t: string): boolean => SYSTEM_DIRS.test(normalisePath(t));
/** Under a system directory. */
export const inSystemTree = (t: string): boolean => SYSTEM_TREE.test(normalisePath(t));
/** Writing here changes how the system runs: /etc, /usr, /boot, /private/etc, /private/var... */
export const isSystemWrite = (t: string): boolean => SYSTEM_WRITE.test(normalisePath(t));

/** Under the temp directory, and not the temp directory itself (or all of it: `/tmp/*`). */
export function inTemp(t: string): boolean {
  const n = normalisePath(t);
  const m = TEMP.exec(n);
  if (!m) return false;
  const rest = n.slice(m[0].length).replace(/^\/+/, "");
  return rest !== "" && rest !== "*" && rest !== ".*" && !rest.split("/").includes("..");
}

/** The home directory itself, everything in it, or above it: `~`, `~/`, `~/*`, `$HOME/*`, `~/..`. */
export function isHome(t: string): boolean {
  const rest = homeRest(t);
  return rest === "" || rest === "*" || rest === ".*" || (rest !== null && rest.split("/")[0] === "..");
}

/** Files that hold credentials or run at log-in, relative to a home directory. */
const SENSITIVE_IN_HOME =
  /^(\.ssh(\/|$)|\.gnupg(\/|$)|\.aws(\/|$)|\.kube(\/|$)|\.docker\/config\.json$|\.netrc$|\.pgpass$|\.npmrc$|\.pypirc$|\.git-credentials$|\.gitconfig$|\.config\/git(\/|$)|\.nanohermes(\/|$)|\.config\/nanohermes(\/|$)|\.(bashrc|bash_profile|bash_login|bash_logout|bash_aliases|bash_functions|profile|zshrc|zshenv|zprofile|zlogin|zlogout|kshrc|mkshrc|yashrc|cshrc|tcshrc|login|inputrc|xprofile|xinitrc|xsession|xsessionrc|pam_environment|tmux\.conf|screenrc)(\.local)?$|\.(bashrc|zshrc|profile)\.d(\/|$)|\.oh-my-zsh(\/|$)|\.zsh(\/|$)|\.config\/(bash|zsh|tmux|nushell|powershell)(\/|$)|\.config\/fish(\/|$)|\.config\/autostart(\/|$)|\.config\/systemd\/user(\/|$)|\.config\/environment\.d(\/|$)|\.local\/bin(\/|$)|\.cargo\/credentials|\.cargo\/config|Library\/LaunchAgents(\/|$)|\.hermes(\/|$)|\.config\/gcloud(\/|$)|\.azure(\/|$)|\.config\/gh(\/|$)|\.terraformrc$|\.vault-token$|\.m2\/settings\.xml$|\.gradle\/gradle\.properties$)/;

/** What writing `t` plants, or null: credentials or log-in commands (`~/.ssh/*`, `~/.bashrc`), system files. */
export function sensitiveTarget(t: string): string | null {
  const rest = homeRest(t);
  if (rest !== null && SENSITIVE_IN_HOME.test(rest)) return "a credential or start-up file";
  if (isSystemWrite(t)) return "a system file";
  return null;
}

/** A `.env` file: secrets that are usually git-ignored, so an overwrite cannot be undone. */
export const isEnvFile = (t: string): boolean => /(^|\/)\.env(\.[\w.-]+)?$/.test(t);

/** Device nodes that are safe to write. */
const HARMLESS_DEVICE =
  /^\/dev\/(null|zero|full|random|urandom|tty|stdout|stderr|stdin|fd\/\d+|pts\/\d+|ptmx|shm\/.*)$/;
/** Disks and partitions however named: sd*, nvme*, by-uuid, mapper, md, the root alias. */
const DISK =
  /^\/dev\/(sd[a-z]+\d*|hd[a-z]+\d*|vd[a-z]+\d*|xvd[a-z]+\d*|nvme\d+n\d+(p\d+)?|mmcblk\d+(p\d+)?|disk\d+(s\d+)?|rdisk\d+(s\d+)?|root|mapper\/.+|md\d+(p\d+)?|md\/.+|dm-\d+|disk\/by-[a-z-]+\/.+|[a-z]+vg\/.+)$/;

/** `disk` for a disk or partition, `device` for another device node, null for anything else. */
export function deviceKind(t: string): "disk" | "device" | null {
  const n = normalisePath(t);
  if (!n.startsWith("/dev/") || HARMLESS_DEVICE.test(n)) return null;
  return DISK.test(n) ? "disk" : "device";
}

/** A filesystem spec naming a disk: a disk device, `UUID=...`, `LABEL=...`, `PARTUUID=...`. */
export const namesDisk = (t: string): boolean =>
  deviceKind(t) === "disk" || /^(UUID|LABEL|PARTUUID|PARTLABEL)=/.test(t);

/**
 * Why a recursive delete or ownership change of `t` reaches beyond the workspace and the temp
 * directory, or null. `.git` and the whole workspace count too: neither comes back from git.
 */
export function beyondWorkspace(t: string): string | null {
  const n = normalisePath(t);
  if (/^(\.|\*|\.\*|\.\/\*?|\.\/\.\*|\*\/)$/.test(n)) return "the whole workspace";
  if (/^(\.\/)?\.git\/?$/.test(n)) return "the repository's history (.git)";
  if (/^\.\.(\/|$)/.test(n) || n.split("/").includes("..")) return "a path outside the workspace";
  if (homeRest(n) !== null) return homeRest(n) === "" || isHome(n) ? "a home directory" : "files in a home directory";
  if (inTemp(n)) return null;
  if (/^[$`]/.test(n) || n.includes("$(")) return "a path known only when it runs (an empty variable leaves `/`)";
  if (n.startsWith("/")) {
    if (inTemp(n)) return null;
    if (/^(\/tmp|\/var\/tmp|\/private\/tmp|\/dev\/shm)\/?(\*|\.\*)?$/.test(n)) return "the whole temp directory";
    return inSystemTree(n) ? "a system path" : "a path outside the workspace";
  }
  return null;
}
