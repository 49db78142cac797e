// The dangerous-command rules for one simple command (wrappers stripped): what it deletes,
// formats, overwrites, kills or runs. Paths come from danger-paths.ts, write targets from
// danger-writes.ts, git from danger-git.ts.
import {
  beyondWorkspace,
  deviceKind,
  inSystemTree,
  isHome,
  isRoot,
  isSystemDir,
  isSystemWrite,
  namesDisk,
} from "./danger-paths.js";
import { gitHits } from "./danger-git.js";
import { codeHits, gitRuns } from "./danger-code.js";
import { familyHits } from "./danger-families.js";
import type { Hit } from "./danger-rules.js";
import { builtFlag, builtName } from "./expand.js";
import { hasOption, parseOptions } from "./options.js";
import { baseName, isAssignment, type SimpleCommand } from "./shell-parse.js";
import { INTERPRETERS, PRIVILEGED, SHELLS, shellPayload, shellQuote, unwrap, type Unwrapped } from "./unwrap.js";
import { writeHits, writeTargets } from "./danger-writes.js";
import { sedArgs, sedScript } from "./classify-sed.js";
import { DOWNLOADERS } from "./danger-download.js";
import {
  SQL_CLIENTS,
  FIND_TESTS,
  METADATA_HOSTS,
  UNINSTALL,
  PACKAGE_MANAGERS,
  destructiveSql,
  readsStdin,
  isDecoder,
  worldWritable,
  killTargets,
  braceWords,
} from "./danger-words.js";

export { downloadThenRun } from "./danger-download.js";

/** Runs the whole rule set on nested command text (a `sh -c` script, a heredoc, a find -exec). */
export type Inspect = (command: string, depth: number) => Hit[];

/** The program word's index in `cmd.words`, once assignments and wrappers are stripped. */
const programIndex = (cmd: SimpleCommand, u: Unwrapped) => cmd.words.length - u.args.length - 1;

/** Rules on one simple command; `before` are the commands piped into it, `pipeline` their text. */
export function commandHits(
  cmd: SimpleCommand,
  before: SimpleCommand[],
  depth: number,
  pipeline: string,
  inspect: Inspect,
): Hit[] {
  const words = cmd.words.map((w) => w.text);
  const u = unwrap(
    words,
    cmd.words.map((w) => (isAssignment(w) ? w.raw : w.text)),
  );
  const { program: p, args } = u;
  const part = cmd.raw;
  const hits: Hit[] = [];
  const hit = (rule: string, reason: string) => hits.push({ rule, reason, part });
  const privileged = u.wrappers.some((w) => PRIVILEGED.has(w)) || p === "su";
  const at = programIndex(cmd, u);
  const programWord = cmd.words[at];
  const built = programWord && builtName(programWord);
  if (built) hit("built-command", built);
  for (const w of cmd.words.slice(at + 1)) {
    const flag = builtFlag(w);
    if (flag) {
      hit("built-command", flag);
      break;
    }
  }
  // sudo of a shell, or sudo that can get a password without a person typing it.
  if (privileged) {
    const opts = u.privilegeOptions;
    if (opts.some((o) => /^-[a-zA-Z]*[SA]/.test(o) || /^--(st|as)/.test(o)))
      hit("root-shell", "sudo reading a password from stdin or a helper lets a program guess it");
    else if (
      opts.some((o) => /^-[a-zA-Z]*[si]/.test(o) || /^--(sh|lo)/.test(o)) ||
      SHELLS.has(p) ||
      (p === "su" && !u.payload)
    )
      hit("root-shell", `a root shell runs whatever it is given, unseen`);
  }
  const downloads =
    cmd.words.some((w) => w.dynamic && /\b(curl|wget|fetch)\b/.test(w.text)) ||
    cmd.redirects.some((r) => r.target?.dynamic && /\b(curl|wget|fetch)\b/.test(r.target.text));
  const runner = SHELLS.has(p) || INTERPRETERS.has(p) || p === "source" || p === "." || p === "eval";
  if (runner && downloads)
    hit(
      privileged ? "pipe-to-root-shell" : "pipe-to-shell",
      `\`${p}\` runs content fetched from the network${privileged ? " as root" : ""}`,
    );
  const rootShell =
    privileged &&
    ((p === "" && u.privilegeOptions.some((o) => /^-[a-zA-Z]*[si]/.test(o))) || (p === "su" && !u.payload));
  // `at` and `batch` run their stdin as a shell script later, unless `-f FILE` names one; `ssh HOST`
  // with no command runs it on the other side.
  const scheduler =
    ((p === "at" || p === "batch") && !args.some((a) => /^-[a-zA-Z]*f/.test(a))) ||
    (p === "ssh" && shellPayload(u) === null);
  if (
    (SHELLS.has(p) || INTERPRETERS.has(p) || rootShell || scheduler) &&
    before.length > 0 &&
    (rootShell || scheduler || readsStdin(args))
  ) {
    const feeders = before.map((c) => unwrap(c.words.map((w) => w.text)));
    const piped = (rule: string, reason: string) => hits.push({ rule, reason, part: pipeline });
    // `echo 'rm -rf ~' | sh`: the text echoed is the script.
    for (const f of feeders.filter((x) => x.program === "echo" || x.program === "printf"))
      hits.push(
        ...inspect(f.args.filter((a) => !/^-[neE]+$/.test(a)).join(" "), depth + 1).map((h) => ({
          ...h,
          reason: `${h.reason} (in the text piped into \`${p}\`)`,
        })),
      );
    if (feeders.some((f) => DOWNLOADERS.has(f.program)))
      piped(
        privileged ? "pipe-to-root-shell" : "pipe-to-shell",
        `downloaded content is piped into \`${p}\`${privileged ? " running as root" : ""}`,
      );
    else if (feeders.some(isDecoder))
      piped("decode-to-shell", `decoded content is piped into \`${p}\`, hiding what runs`);
    else if (SHELLS.has(p) || scheduler)
      piped("shell-indirection", `text piped into \`${p}\` runs as commands, hiding what runs`);
  }
  if (SHELLS.has(p) || p === "source" || p === "." || scheduler) {
    const fed = cmd.redirects.find(
      (r) => r.op === "<<" || r.op === "<<-" || r.op === "<<<" || (r.op === "<" && r.target?.dynamic),
    );
    const procSub = args.find((a) => /^<\(/.test(a));
    if (fed || procSub) {
      for (const text of cmd.stdin)
        hits.push(
          ...inspect(text, depth + 1).map((h) => ({ ...h, reason: `${h.reason} (in the script fed to \`${p}\`)` })),
        );
      hit(
        "shell-indirection",
        `\`${p}\` runs a script fed through ${procSub ? "process substitution" : fed!.op === "<<<" ? "a here-string" : fed!.op === "<" ? "process substitution" : "a heredoc"}, which hides what runs`,
      );
    }
  }
  const payload = shellPayload(u);
  if (payload !== null) {
    // `sh -c 'SCRIPT'` is judged by its script; a script known only when it runs is not.
    const opaque =
      cmd.words.slice(at + 1).some((w) => w.dynamic && w.text === payload) ||
      (p === "eval" && cmd.words.slice(at + 1).some((w) => w.dynamic));
    if (opaque) hit("shell-indirection", `\`${p}\` runs a command string known only when it runs`);
    hits.push(...inspect(payload, depth + 1).map((h) => ({ ...h, reason: `${h.reason} (inside \`${p}\`)` })));
  }
  // Commands stored to run later (`alias x='...'`, `trap '...' EXIT`) are judged now.
  const stored =
    p === "alias"
      ? args.filter((a) => a.includes("=")).map((a) => a.slice(a.indexOf("=") + 1))
      : p === "trap" && args[0] !== undefined && !args[0].startsWith("-")
        ? [args[0]]
        : [];
  for (const text of stored)
    hits.push(
      ...inspect(text, depth + 1).map((h) => ({ ...h, reason: `${h.reason} (stored by \`${p}\` to run later)` })),
    );
  hits.push(...codeHits(p, args, cmd.stdin, part, depth, inspect));
  hits.push(...programHits(p, args, cmd, u, depth, inspect));
  hits.push(...familyHits(p, args, part));
  hits.push(...writeHits(writeTargets(u, cmd.redirects), part));
  if (SQL_CLIENTS.has(p)) {
    const texts = [...args, ...cmd.stdin, ...before.flatMap((c) => [...c.words.map((w) => w.text), ...c.stdin])];
    const why = texts.map(destructiveSql).find((x) => x !== null);
    if (why) hits.push({ rule: "sql-destructive", reason: why, part: before.length > 0 ? pipeline : part });
  }
  if (DOWNLOADERS.has(p) && args.some((a) => METADATA_HOSTS.test(a)))
    hit("cloud-credentials", "a cloud metadata endpoint hands out this machine's credentials");
  return hits;
}

/** Rules by program name. */
function programHits(
  p: string,
  args: string[],
  cmd: SimpleCommand,
  u: Unwrapped,
  depth: number,
  inspect: Inspect,
): Hit[] {
  const part = cmd.raw;
  const hits: Hit[] = [];
  const hit = (rule: string, reason: string) => hits.push({ rule, reason, part });
  switch (p) {
    case "rm":
    case "rmdir":
    case "unlink":
    case "shred":
    case "srm": {
      const o = parseOptions(args, {
        long: [
          "recursive",
          "force",
          "interactive",
          "no-preserve-root",
          "preserve-root",
          "one-file-system",
          "dir",
          "verbose",
          "help",
          "version",
        ],
      });
      const recursive = hasOption(o, "r", "recursive") || o.short.has("R");
      if (p === "rm" && recursive && o.long.has("no-preserve-root"))
        hit("delete-root", "rm --no-preserve-root exists only to delete `/`");
      for (const t of recursive ? o.operands.flatMap(braceWords) : []) {
        if (isRoot(t)) hit("delete-root", `recursive rm of \`${t}\` deletes the whole filesystem`);
        else if (isSystemDir(t) || isHome(t))
          hit(
            "delete-system",
            `recursive rm of \`${t}\` deletes ${isHome(t) ? "a home directory" : "a whole system directory"}`,
          );
        else {
          const where = beyondWorkspace(t);
          if (where) hit("recursive-delete", `recursive rm of \`${t}\` deletes ${where}`);
        }
      }
      break;
    }
    case "find": {
      const firstTest = args.findIndex((a) => /^[-(!]/.test(a));
      const starts = firstTest < 0 ? args : args.slice(0, firstTest);
      const exec = args.findIndex((a) => a === "-exec" || a === "-execdir" || a === "-ok" || a === "-okdir");
      if (exec >= 0) {
        const end = args.findIndex((a, k) => k > exec && (a === ";" || a === "+"));
        const inner = args
          .slice(exec + 1, end < 0 ? undefined : end)
          .map(shellQuote)
          .join(" ");
        hits.push(...inspect(inner, depth + 1).map((h) => ({ ...h, reason: `${h.reason} (inside find -exec)` })));
      }
      const execRm = exec >= 0 && ["rm", "shred", "unlink", "rmdir"].includes(baseName(args[exec + 1] ?? ""));
      const deletes = args.includes("-delete") || execRm;
      for (const t of deletes ? starts : []) {
        if (isRoot(t)) hit("delete-root", `find ${t} deleting matches can remove the whole filesystem`);
        else if (isSystemDir(t) || isHome(t))
          hit(
            "delete-system",
            `find ${t} deleting matches reaches ${isHome(t) ? "a home directory" : "a whole system directory"}`,
          );
      }
      if (deletes && hits.length === 0) {
        const targeted = args.some((a) => FIND_TESTS.has(a));
        hit(
          "bulk-delete",
          `find ${args.includes("-delete") ? "-delete" : "-exec rm"} deletes ${targeted ? "every match" : "everything it finds"}, a list known only when it runs`,
        );
      }
      break;
    }
    case "xargs":
      break;
    case "sed":
      for (const run of sedScript(sedArgs(args).scripts.join("\n")).runs) {
        if (run === "")
          hit("shell-indirection", "sed's `e` runs the text it edits as a shell command, known only then");
        else hits.push(...inspect(run, depth + 1).map((h) => ({ ...h, reason: `${h.reason} (run by sed's \`e\`)` })));
      }
      break;
    case "dd":
      for (const a of args.filter((x) => x.startsWith("if=")))
        if (deviceKind(a.slice(3)) === "disk")
          hit("disk-read", `dd reads the raw disk ${a.slice(3)}: every file on it, secrets included`);
      break;
    case "hdparm":
      if (
        args.some((a) =>
          /^--(security-erase|security-erase-enhanced|trim-sector-ranges|write-sector|make-bad-sector|dco-restore)/.test(
            a,
          ),
        )
      )
        hit("overwrite-disk", "hdparm erases or overwrites disk sectors");
      break;
    case "cat":
    case "pv":
    case "head":
    case "tail":
    case "cp":
      if (args.some((a) => deviceKind(a) === "disk"))
        hit("disk-read", `${p} reads a raw disk: every file on it, secrets included`);
      break;
    case "nvme":
      if (["format", "sanitize", "write-zeroes"].includes(args[0] ?? ""))
        hit("overwrite-disk", `nvme ${args[0]} erases a disk`);
      break;
    case "badblocks":
      if (args.some((a) => /^-[a-zA-Z]*w/.test(a)))
        hit("overwrite-disk", "badblocks -w overwrites every block of the disk");
      break;
    case "fdisk":
    case "sfdisk":
    case "cfdisk":
    case "parted":
    case "gdisk":
    case "sgdisk":
      hit("partition-disk", `${p} changes partition tables`);
      break;
    case "wipefs":
      if (!hits.length) hit("partition-disk", "wipefs erases filesystem signatures");
      break;
    case "chmod":
    case "chown":
    case "chgrp": {
      const o = parseOptions(args, {
        long: [
          "recursive",
          "reference=",
          "from=",
          "verbose",
          "changes",
          "silent",
          "quiet",
          "dereference",
          "no-dereference",
          "preserve-root",
          "no-preserve-root",
          "help",
          "version",
        ],
      });
      const recursive = hasOption(o, "R", "recursive");
      const [spec, ...targets] = o.long.has("reference") ? ["", ...o.operands] : o.operands;
      if (p === "chmod" && spec && worldWritable(spec))
        hit("world-writable", `chmod ${spec} makes files world-writable${recursive ? ", recursively" : ""}`);
      // Tightening a key's mode (`chmod 600 ~/.ssh/id_rsa`) is routine; changing system files is not.
      const system = targets.find(isSystemWrite);
      if (system && !recursive) hit("system-file-write", `${p} changes who may read, write or run ${system}`);
      for (const t of recursive ? targets : []) {
        const where = isRoot(t)
          ? "the whole filesystem"
          : p === "chmod"
            ? isHome(t) || isSystemDir(t) || inSystemTree(t)
              ? "a system or home directory"
              : null
            : beyondWorkspace(t);
        if (where && !(p !== "chmod" && where === "the whole workspace"))
          hit("recursive-chown", `recursive ${p} of \`${t}\` changes ${where}`);
      }
      break;
    }
    case "systemctl": {
      const verb = parseOptions(args, {
        valued: "tpHMn",
        long: ["type=", "property=", "host=", "machine=", "lines=", "output=", "signal=", "kill-whom="],
      }).operands[0];
      if (
        verb &&
        [
          "stop",
          "disable",
          "mask",
          "kill",
          "restart",
          "isolate",
          "try-restart",
          "reload-or-restart",
          "try-reload-or-restart",
        ].includes(verb)
      )
        hit("service-stop", `systemctl ${verb} stops or disables a service`);
      if (
        verb &&
        ["poweroff", "reboot", "halt", "kexec", "soft-reboot", "rescue", "emergency", "default"].includes(verb)
      )
        hit("shutdown", `systemctl ${verb} takes the machine down`);
      if (verb && ["suspend", "hibernate", "hybrid-sleep"].includes(verb))
        hit("service-stop", `systemctl ${verb} puts the machine to sleep`);
      break;
    }
    case "service":
    case "rc-service": {
      const ops = parseOptions(args).operands;
      if (["stop", "restart"].includes(ops[1] ?? "")) hit("service-stop", `${p} ${ops[0]} ${ops[1]} stops a service`);
      break;
    }
    case "launchctl":
      if (
        ["stop", "unload", "bootout", "remove", "disable", "kickstart", "kill"].includes(
          args.find((a) => !a.startsWith("-")) ?? "",
        )
      )
        hit("service-stop", "launchctl stops or restarts a service");
      break;
    case "docker":
    case "podman":
    case "nerdctl": {
      const ops = parseOptions(args, {
        valued: "cHl",
        long: ["context=", "host=", "log-level=", "config=", "file=", "project-name="],
      }).operands;
      const verb = ops[0] === "compose" || ops[0] === "container" ? ops[1] : ops[0];
      if (verb && ["stop", "kill", "restart", "down", "rm", "prune", "pause"].includes(verb))
        hit("service-stop", `${p} ${verb} stops or removes containers`);
      break;
    }
    case "kill": {
      const targets = killTargets(args);
      if (targets.includes("-1")) hit("kill-all", "kill of pid -1 signals every process you own");
      else if (cmd.words.some((w) => w.dynamic && /\b(pgrep|pidof)\b/.test(w.text)))
        hit("kill-by-name", "kill of `$(pgrep ...)` kills by name, which can hit unrelated processes and this agent");
      break;
    }
    case "killall5":
      hit("kill-all", "killall5 signals every process");
      break;
    case "killall": {
      const informational = args.length > 0 && args.every((a) => /^(-l|-V|--list|--version|--help|-h)$/.test(a));
      if (!informational) hit("kill-by-name", "killall kills every process matching a name");
      break;
    }
    case "pkill":
      hit("kill-by-name", "pkill kills every process matching a pattern");
      break;
    case "shutdown":
    case "reboot":
    case "halt":
    case "poweroff":
      if (!args.some((a) => /^(--help|--version|-c)$/.test(a))) hit("shutdown", `${p} takes the machine down`);
      break;
    case "init":
    case "telinit":
      if (args[0] === "0" || args[0] === "6") hit("shutdown", `${p} ${args[0]} halts or reboots the machine`);
      break;
    case "crontab": {
      const o = parseOptions(args, { valued: "uT" });
      if (o.short.has("r") || args.includes("--remove"))
        hit("crontab-remove", "crontab -r deletes every scheduled job");
      else if (o.operands.length > 0 && !o.short.has("l"))
        hit("crontab-remove", `crontab ${o.operands[0]} replaces every scheduled job with that file's`);
      break;
    }
    case "git":
      hits.push(...gitHits(args, part));
      for (const run of gitRuns(args))
        hits.push(...inspect(run, depth + 1).map((h) => ({ ...h, reason: `${h.reason} (run by git)` })));
      break;
  }
  if (p === "xargs" || u.wrappers.includes("xargs")) {
    if (["rm", "shred", "unlink", "rmdir"].includes(p) || ["rm", "shred", "unlink"].includes(baseName(args[0] ?? "")))
      hit("bulk-delete", "xargs rm deletes a list of files known only when it runs");
  }
  if (/^(mkfs(\..+)?|mke2fs|mkswap|mkdosfs|mkntfs|mkexfatfs|mkfs\.\w+)$/.test(p)) {
    // Any word naming a disk counts, whatever option precedes it: a flag read as taking a value
    // must not hide the device (`mkfs.ext4 -F /dev/vda1`).
    const ops = args.filter((a) => !a.startsWith("-"));
    const viaSub = cmd.words.slice(1).find((w) => w.dynamic);
    const disk = ops.find(namesDisk);
    if (disk || viaSub)
      hit(
        "format-disk",
        `${p} of ${disk ?? viaSub!.raw} erases a disk${viaSub && !disk ? " (whatever the substitution names, possibly the one mounted at /)" : ""}`,
      );
    else hit("make-filesystem", `${p} erases what it formats`);
  }
  if (PACKAGE_MANAGERS.has(p)) {
    // The verb comes after global options, some with values (`--prefix ./app`, `--proxy URL`), and
    // after `global` for yarn: any of the first three words that are not options.
    const words = args.filter((a) => !a.startsWith("-")).slice(0, 3);
    const verb = words.findIndex((a) => UNINSTALL.test(a));
    if (verb >= 0 && !words.slice(0, verb).some((w) => w === "run" || w === "exec" || w === "x"))
      hit("package-uninstall", `${p} ${words[verb]} removes installed packages other projects may use`);
  }
  return hits;
}
