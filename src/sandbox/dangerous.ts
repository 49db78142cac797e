// Dangerous and unrecoverable commands (Hermes' DANGEROUS_PATTERNS and UNRECOVERABLE_BLOCKLIST,
// as named rules over parsed commands rather than regexes over text, so quoting cannot hide them).
// "dangerous" asks even under the `never` policy unless --yolo; "blocked" is refused in every mode.
// Every simple command of a compound one is checked, and so is every command nested in $(...),
// backticks, <(...), `sh -c`, `eval`, `su -c`, `env -S` and `find -exec`; the verdict names the part.
import { allCommands, baseName, isAssignment, type SimpleCommand } from "./shell-parse.js";
import { INTERPRETERS, SHELLS, shellPayload, unwrap, type Unwrapped } from "./unwrap.js";

export type DangerLevel = "blocked" | "dangerous";

export interface DangerVerdict {
  level: DangerLevel | null;
  rule: string | null;
  reason: string;
  /** The simple command (or pipeline) that matched, as typed. */
  part: string | null;
}

export interface DangerRule {
  name: string;
  level: DangerLevel;
  description: string;
}

/** The catalogue, for docs, `policy check` and the approval card. */
export const DANGER_RULES: readonly DangerRule[] = [
  { name: "delete-root", level: "blocked", description: "recursive delete of the filesystem root (`rm -rf /`, `/*`, --no-preserve-root)" },
  { name: "fork-bomb", level: "blocked", description: "a function or loop that forks without end" },
  { name: "format-disk", level: "blocked", description: "mkfs of a disk device (sd*, nvme*, vd*, xvd*, hd*, mmcblk*)" },
  { name: "overwrite-disk", level: "blocked", description: "dd, a redirection, shred or blkdiscard over a whole disk device" },
  { name: "recursive-delete", level: "dangerous", description: "recursive delete of home, the workspace (`.`, `*`), a parent, a system path, or `$VAR/` that may be empty" },
  { name: "make-filesystem", level: "dangerous", description: "mkfs/mkswap of anything that is not a disk device" },
  { name: "device-write", level: "dangerous", description: "dd, a redirection or a wipe tool writing to a device node" },
  { name: "partition-disk", level: "dangerous", description: "fdisk, parted, sfdisk, gdisk, wipefs: changes partition tables" },
  { name: "world-writable", level: "dangerous", description: "chmod that makes files world-writable (777, o+w), worst when recursive" },
  { name: "recursive-chown", level: "dangerous", description: "recursive chown/chgrp/chmod of the root, a system or top-level directory, or home" },
  { name: "sql-destructive", level: "dangerous", description: "DROP TABLE/DATABASE/SCHEMA, TRUNCATE, or DELETE FROM without WHERE sent to a SQL client" },
  { name: "service-stop", level: "dangerous", description: "stopping, disabling, masking or restarting a system service" },
  { name: "kill-all", level: "dangerous", description: "kill of every process (`kill -9 -1`, killall5)" },
  { name: "kill-by-name", level: "dangerous", description: "killall/pkill: kills by name, which can hit unrelated processes and this agent" },
  { name: "pipe-to-shell", level: "dangerous", description: "downloaded content run by a shell or interpreter (`curl | sh`, `bash <(curl)`)" },
  { name: "decode-to-shell", level: "dangerous", description: "decoded content run by a shell (`base64 -d | sh`), which hides what runs" },
  { name: "shell-indirection", level: "dangerous", description: "a command run through `sh -c`, `eval`, `su -c`, `env -S` or piped into a shell: hides intent" },
  { name: "git-force-push", level: "dangerous", description: "git push --force/-f/+ref/--mirror: overwrites history others may have" },
  { name: "git-discard-changes", level: "dangerous", description: "git reset --hard, clean -f, checkout/restore of `.`, stash clear: loses uncommitted work" },
  { name: "shutdown", level: "dangerous", description: "shutdown, reboot, halt, poweroff, init 0/6" },
  { name: "crontab-remove", level: "dangerous", description: "crontab -r: deletes every scheduled job" },
  { name: "system-file-write", level: "dangerous", description: "writing, copying, editing or deleting files under /etc, /boot, /usr, /bin, /sbin or /lib" },
];

interface Hit {
  rule: string;
  reason: string;
  part: string;
}

const LEVEL = new Map(DANGER_RULES.map((r) => [r.name, r.level]));

const WHOLE_DISK = /^\/dev\/(sd[a-z]+|hd[a-z]+|vd[a-z]+|xvd[a-z]+|nvme\d+n\d+|mmcblk\d+|disk\d+)$/;
const DISK_DEVICE = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|root\b)/;
const HARMLESS_DEVICE = /^\/dev\/(null|zero|full|random|urandom|tty|stdout|stderr|stdin|fd\/\d+|pts\/\d+)$/;
const SYSTEM_ROOTS = /^\/(etc|usr|bin|sbin|lib|lib32|lib64|libx32|boot|dev|proc|sys|root|opt|srv|snap|var\/lib)(\/|$)/;
const SYSTEM_WRITE = /^\/(etc|boot|usr|bin|sbin|lib|lib32|lib64|libx32)(\/|$)/;

/** A write to `target` if it is a device: whole disks are unrecoverable, other devices dangerous. */
function deviceWrite(target: string, how: string, part: string): Hit | null {
  if (!target.startsWith("/dev/") || HARMLESS_DEVICE.test(target)) return null;
  if (WHOLE_DISK.test(target)) return { rule: "overwrite-disk", reason: `${how} overwrites the whole disk ${target}`, part };
  return { rule: "device-write", reason: `${how} writes to the device ${target}`, part };
}

const normalisePath = (t: string) => t.replace(/\/{2,}/g, "/").replace(/(\/\.)+\/?$/, "/");

/** `/`, `/*`, `/.`, `//`: the filesystem root in any spelling. */
const isRoot = (t: string) => /^\/[/.]*\*?$/.test(normalisePath(t));

/**
 * Why a recursive operation on `target` is broad, or null when it is a specific path. Commands
 * run at the workspace root, so `.` and `*` are the whole workspace. `system` marks the kinds a
 * recursive chown/chmod must not touch (a chmod -R of the workspace is routine).
 */
function broad(target: string): { what: string; system: boolean } | null {
  const t = normalisePath(target);
  if (/^(~[^/]*|\$HOME|\$\{HOME\})(\/(\*|\.\*)?)?$/.test(t)) return { what: "a home directory", system: true };
  if (/^(\.|\*|\.\*|\.\/\*?|\.\/\.\*)$/.test(t)) return { what: "the whole workspace", system: false };
  if (/^\.\.(\/|$)/.test(t)) return { what: "a path outside the workspace", system: false };
  if (/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?\/\*?$/.test(t)) return { what: "a variable that, if empty, leaves `/`", system: false };
  if (/^\/[^/]+\/?\*?$/.test(t) || /^\/home\/[^/]+\/?\*?$/.test(t)) return { what: "a top-level directory", system: true };
  if (SYSTEM_ROOTS.test(t)) return { what: "a system path", system: true };
  return null;
}

const FIND_TESTS = new Set(["-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-newer", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-size", "-empty", "-user", "-group", "-perm", "-lname", "-ilname", "-links", "-inum", "-samefile"]);
const shortHas = (args: string[], letters: string) => args.some((a) => /^-[^-]/.test(a) && [...a.slice(1)].some((c) => letters.includes(c)));
const operands = (args: string[]) => {
  const dd = args.indexOf("--");
  return [...(dd < 0 ? args : args.slice(0, dd)).filter((a) => !a.startsWith("-")), ...(dd < 0 ? [] : args.slice(dd + 1))];
};

const SQL_CLIENTS = new Set(["psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "sqlcmd", "clickhouse-client", "pgcli", "mycli", "litecli", "usql", "cockroach"]);

/** Why some SQL in `text` destroys data, or null. */
function destructiveSql(text: string): string | null {
  const drop = /\bdrop\s+(table|database|schema)\b/i.exec(text);
  if (drop) return `${drop[0].toUpperCase()} deletes it with all its data`;
  if (/\btruncate\s+(table\s+)?[\w"`.]/i.test(text)) return "TRUNCATE empties a table";
  for (const statement of text.split(";")) {
    if (/\bdelete\s+from\s+\S+/i.test(statement) && !/\bwhere\b/i.test(statement)) return "DELETE FROM without WHERE empties a table";
  }
  return null;
}

/** Rules on one simple command; `before` are the commands piped into it, `pipeline` their text. */
function commandHits(cmd: SimpleCommand, before: SimpleCommand[], depth: number, pipeline: string): Hit[] {
  const words = cmd.words.map((w) => w.text);
  const raw = cmd.words.map((w) => (isAssignment(w) ? w.raw : w.text));
  const u = unwrap(words, raw);
  const { program: p, args } = u;
  const part = cmd.raw;
  const hits: Hit[] = [];
  const hit = (rule: string, reason: string) => hits.push({ rule, reason, part });
  for (const r of cmd.redirects) {
    if (!/^(>|>>|>\||&>|&>>|<>)$/.test(r.op) || !r.target) continue;
    const dev = deviceWrite(r.target.text, `the redirection ${r.op}`, part);
    if (dev) hits.push(dev);
    else if (SYSTEM_WRITE.test(r.target.text)) hit("system-file-write", `the redirection writes ${r.target.text}`);
  }
  const dynamicDownload = cmd.words.some((w) => w.dynamic && /\b(curl|wget|fetch)\b/.test(w.text));
  if ((SHELLS.has(p) || INTERPRETERS.has(p) || p === "source" || p === "." || p === "eval") && dynamicDownload) hit("pipe-to-shell", `\`${p}\` runs content fetched from the network`);
  if ((SHELLS.has(p) || INTERPRETERS.has(p)) && before.length > 0 && readsStdin(args)) {
    const feeders = before.map((c) => unwrap(c.words.map((w) => w.text)));
    const piped = (rule: string, reason: string) => hits.push({ rule, reason, part: pipeline });
    if (feeders.some((f) => ["curl", "wget", "fetch", "aria2c", "http", "lwp-request"].includes(f.program))) piped("pipe-to-shell", `downloaded content is piped into \`${p}\``);
    else if (feeders.some(isDecoder)) piped("decode-to-shell", `decoded content is piped into \`${p}\`, hiding what runs`);
    else if (SHELLS.has(p)) piped("shell-indirection", `text piped into \`${p}\` runs as commands, hiding what runs`);
  }
  const payload = shellPayload(u);
  if (payload !== null) {
    const inner = depth < 4 ? inspect(payload, depth + 1) : [];
    if (inner.length > 0) hits.push(...inner.map((h) => ({ ...h, reason: `${h.reason} (inside \`${p}\`)` })));
    else hit("shell-indirection", `\`${p}\` runs a command string, which hides what will run`);
  }
  const ops = operands(args);
  const recursive = shortHas(args, "rR") || args.includes("--recursive");
  switch (p) {
    case "rm":
      if (recursive && args.includes("--no-preserve-root")) hit("delete-root", "rm --no-preserve-root exists only to delete `/`");
      for (const t of ops) {
        if (recursive && isRoot(t)) hit("delete-root", `recursive rm of \`${t}\` deletes the whole filesystem`);
        else if (recursive && broad(t)) hit("recursive-delete", `recursive rm of \`${t}\` deletes ${broad(t)!.what}`);
        else if (SYSTEM_WRITE.test(t)) hit("system-file-write", `rm deletes ${t}`);
      }
      break;
    case "find": {
      const firstTest = args.findIndex((a) => /^[-(!]/.test(a));
      const starts = firstTest < 0 ? args : args.slice(0, firstTest);
      const exec = args.findIndex((a) => a === "-exec" || a === "-execdir" || a === "-ok" || a === "-okdir");
      if (exec >= 0) {
        const end = args.findIndex((a, k) => k > exec && (a === ";" || a === "+"));
        const inner = args.slice(exec + 1, end < 0 ? undefined : end).join(" ");
        if (depth < 4) hits.push(...inspect(inner, depth + 1).map((h) => ({ ...h, reason: `${h.reason} (inside find -exec)` })));
      }
      const deletes = args.includes("-delete") || (exec >= 0 && baseName(args[exec + 1] ?? "") === "rm");
      // `find . -name '*.o' -delete` is routine cleanup; without a test it deletes everything.
      const targeted = args.some((a) => FIND_TESTS.has(a));
      for (const t of deletes ? starts : []) {
        if (isRoot(t)) hit("delete-root", `find ${t} deleting matches can remove the whole filesystem`);
        else if (broad(t)?.system || (broad(t) && !targeted)) hit("recursive-delete", `find ${t} deleting matches reaches ${broad(t)!.what}`);
      }
      break;
    }
    case "dd":
      for (const a of args.filter((x) => x.startsWith("of="))) {
        const dev = deviceWrite(a.slice(3), "dd", part);
        if (dev) hits.push(dev);
        else if (SYSTEM_WRITE.test(a.slice(3))) hit("system-file-write", `dd writes ${a.slice(3)}`);
      }
      break;
    case "tee":
    case "shred":
    case "blkdiscard":
    case "wipefs":
      for (const t of ops) {
        const dev = deviceWrite(t, p, part);
        if (dev) hits.push(dev);
        else if (p === "tee" && SYSTEM_WRITE.test(t)) hit("system-file-write", `tee writes ${t}`);
      }
      if (p === "wipefs" && hits.length === 0) hit("partition-disk", "wipefs erases filesystem signatures");
      break;
    case "fdisk": case "sfdisk": case "cfdisk": case "parted": case "gdisk": case "sgdisk":
      hit("partition-disk", `${p} changes partition tables`);
      break;
    case "chmod":
    case "chown":
    case "chgrp": {
      const [spec, ...targets] = ops;
      if (p === "chmod" && spec && worldWritable(spec)) hit("world-writable", `chmod ${spec} makes files world-writable${recursive ? ", recursively" : ""}`);
      for (const t of recursive ? targets : []) {
        if (isRoot(t) || broad(t)?.system) hit("recursive-chown", `recursive ${p} of \`${t}\` changes ${isRoot(t) ? "the whole filesystem" : broad(t)!.what}`);
      }
      break;
    }
    case "systemctl": {
      const verb = ops[0];
      if (verb && ["stop", "disable", "mask", "kill", "restart", "isolate", "try-restart"].includes(verb)) hit("service-stop", `systemctl ${verb} stops or disables a service`);
      if (verb && ["poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "rescue", "emergency"].includes(verb)) hit("shutdown", `systemctl ${verb} takes the machine down`);
      break;
    }
    case "service": case "rc-service":
      if (["stop", "restart"].includes(ops[1] ?? "")) hit("service-stop", `${p} ${ops[0]} ${ops[1]} stops a service`);
      break;
    case "launchctl":
      if (["stop", "unload", "bootout", "remove", "disable"].includes(ops[0] ?? "")) hit("service-stop", `launchctl ${ops[0]} stops a service`);
      break;
    case "kill":
      if (killTargets(args).includes("-1")) hit("kill-all", "kill of pid -1 signals every process you own");
      break;
    case "killall5":
      hit("kill-all", "killall5 signals every process");
      break;
    case "killall": case "pkill":
      hit("kill-by-name", `${p} kills every process matching a name`);
      break;
    case "shutdown": case "reboot": case "halt": case "poweroff":
      hit("shutdown", `${p} takes the machine down`);
      break;
    case "init": case "telinit":
      if (ops[0] === "0" || ops[0] === "6") hit("shutdown", `${p} ${ops[0]} halts or reboots the machine`);
      break;
    case "crontab":
      if (shortHas(args, "r") || args.includes("--remove")) hit("crontab-remove", "crontab -r deletes every scheduled job");
      break;
    case "git":
      hits.push(...gitHits(args, part));
      break;
    case "cp": case "mv": case "install": case "ln": case "rsync": {
      const dest = ops.at(-1);
      if (ops.length >= 2 && dest && SYSTEM_WRITE.test(dest)) hit("system-file-write", `${p} writes into ${dest}`);
      break;
    }
    case "sed": case "truncate":
      if ((p === "truncate" || shortHas(args, "i") || args.some((a) => a.startsWith("--in-place"))) && ops.some((t) => SYSTEM_WRITE.test(t))) hit("system-file-write", `${p} edits a file under a system path`);
      break;
  }
  if (/^(mkfs(\..+)?|mke2fs|mkswap|mkdosfs|mkntfs|mkexfatfs)$/.test(p)) {
    const disk = ops.find((t) => DISK_DEVICE.test(t));
    if (disk) hit("format-disk", `${p} of ${disk} erases a disk`);
    else hit("make-filesystem", `${p} erases what it formats`);
  }
  if (SQL_CLIENTS.has(p)) {
    const texts = [...args, ...cmd.stdin, ...before.flatMap((c) => [...c.words.map((w) => w.text), ...c.stdin])];
    const why = texts.map(destructiveSql).find((x) => x !== null);
    if (why) hits.push({ rule: "sql-destructive", reason: why, part: before.length > 0 ? pipeline : part });
  }
  return hits;
}

/** A shell reads its script from stdin when given no script operand (or `-s` / `-`). */
function readsStdin(args: string[]): boolean {
  for (const a of args) {
    if (a === "-" || a === "-s") return true;
    if (!a.startsWith("-")) return false;
  }
  return true;
}

function isDecoder(u: Unwrapped): boolean {
  const decode = u.args.some((a) => a === "-d" || a === "--decode" || a === "-D" || /^-[a-z]*d/.test(a));
  if (["base64", "base32", "basenc", "base58"].includes(u.program)) return decode;
  if (u.program === "xxd") return u.args.some((a) => /^-[a-z]*r/.test(a));
  if (u.program === "openssl") return u.args.includes("-d") || u.args.includes("-base64");
  return ["uudecode", "gunzip", "zcat", "xzcat", "bzcat", "rev"].includes(u.program);
}

function worldWritable(spec: string): boolean {
  if (/^[0-7]{3,4}$/.test(spec)) return "2367".includes(spec.at(-1)!);
  return spec.split(",").some((clause) => {
    const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    return m !== null && m[2] !== "-" && m[3]!.includes("w") && /[oa]/.test(m[1]!);
  });
}

/** The pids `kill` is given: the first `-SIG`/`-N` is the signal, later ones are (group) pids. */
function killTargets(args: string[]): string[] {
  const targets: string[] = [];
  let signal = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") targets.push(...args.slice(i + 1)), (i = args.length);
    else if (a === "-s" || a === "-n" || a === "--signal") (i++, (signal = true));
    else if (a.startsWith("-") && !signal && !/^-(l|L|-list|-table)$/.test(a)) signal = true;
    else targets.push(a);
  }
  return targets;
}

function gitHits(args: string[], part: string): Hit[] {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += ["-C", "-c", "--git-dir", "--work-tree", "--namespace"].includes(args[i]!) ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  const ops = operands(rest);
  const hit = (rule: string, reason: string): Hit[] => [{ rule, reason, part }];
  if (sub === "push") {
    if (rest.includes("--force") || shortHas(rest, "f") || rest.includes("--mirror") || ops.some((r) => r.startsWith("+"))) return hit("git-force-push", "a forced push overwrites the remote branch's history");
  }
  if (sub === "reset" && rest.includes("--hard")) return hit("git-discard-changes", "git reset --hard throws away uncommitted changes");
  if (sub === "clean" && (shortHas(rest, "f") || rest.includes("--force"))) return hit("git-discard-changes", "git clean -f deletes untracked files");
  if ((sub === "checkout" || sub === "restore") && (ops.some((t) => t === "." || t === "*" || t === ":/") || (sub === "checkout" && (rest.includes("-f") || rest.includes("--force"))))) {
    if (!(sub === "restore" && rest.includes("--staged") && !rest.includes("--worktree"))) return hit("git-discard-changes", `git ${sub} of the whole tree throws away uncommitted changes`);
  }
  if (sub === "switch" && (rest.includes("--discard-changes") || rest.includes("-f") || rest.includes("--force"))) return hit("git-discard-changes", "git switch --discard-changes throws away uncommitted changes");
  if (sub === "stash" && rest[0] === "clear") return hit("git-discard-changes", "git stash clear deletes every stash");
  return [];
}

/** Function bodies that call themselves at least twice with `&` or `|`: `:(){ :|:& };:` and kin. */
function forkBomb(command: string): boolean {
  const text = command.replace(/\s+/g, " ");
  if (/\bfork\s*(\(\s*\))?\s*while\s*fork\b|\bwhile\s*\(?\s*(1|true|True)\s*\)?\s*:?\s*(os\.)?fork\s*\(\s*\)/.test(text)) return true;
  const defs = text.matchAll(/(?:function\s+)?([^\s(){};|&]+)\s*(?:\(\s*\))?\s*\{(.*?)\}/g);
  for (const [, name, body] of defs) {
    const escaped = name!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const calls = body!.match(new RegExp(`(^|[\\s|&;{])${escaped}(?=$|[\\s|&;}])`, "g")) ?? [];
    if (calls.length >= 2 && /[&|]/.test(body!)) return true;
  }
  return false;
}

/** Every rule hit in `command`, nested commands included. */
function inspect(command: string, depth: number): Hit[] {
  const hits: Hit[] = [];
  if (forkBomb(command)) hits.push({ rule: "fork-bomb", reason: "a function that forks itself without end", part: command.trim() });
  for (const pipeline of allCommands(command, depth).pipelines) {
    pipeline.commands.forEach((cmd, k) => hits.push(...commandHits(cmd, pipeline.commands.slice(0, k), depth, pipeline.raw)));
  }
  return hits;
}

/**
 * Classifies `command` against the dangerous rules and the unrecoverable blocklist. Contract:
 * pure, never throws; a blocked part wins over an earlier dangerous one; `part` is the simple
 * command or pipeline as typed (for nested commands, the nested text).
 */
export function classifyDanger(command: string): DangerVerdict {
  const hits = inspect(command, 0);
  const chosen = hits.find((h) => LEVEL.get(h.rule) === "blocked") ?? hits[0];
  if (!chosen) return { level: null, rule: null, reason: "no dangerous pattern", part: null };
  return { level: LEVEL.get(chosen.rule) ?? "dangerous", rule: chosen.rule, reason: chosen.reason, part: chosen.part };
}
