// What a command really runs: assignments and wrappers (sudo, env, nice, timeout, xargs...)
// stripped, and the command string a shell, `eval`, `su -c`, `env -S`, `watch`, `ssh`, `tmux` or
// `screen` will run. Shared by the dangerous-command rules and the deny rules, so neither can be
// dodged by `sudo` or `bash -c`.
import { baseName } from "./shell-parse.js";

/** A simple command with wrappers (sudo, env, nice, timeout, xargs...) and assignments removed. */
export interface Unwrapped {
  program: string;
  args: string[];
  /** A command string a wrapper will run through a shell (`env -S`, `su -c`). */
  payload?: string;
  /** The wrappers stripped, in order (`sudo`, `env`...). */
  wrappers: string[];
  /** The option words given to sudo, doas or su, as typed (`-S`, `--stdin`, `-i`). */
  privilegeOptions: string[];
}

/** Wrappers that run their command as another user. */
export const PRIVILEGED = new Set(["sudo", "doas", "su", "run0", "pkexec", "runuser"]);

/** Options that take a value, per wrapper; other options are flags. */
const WRAPPERS: Record<string, string[]> = {
  sudo: [
    "-u",
    "-g",
    "-h",
    "-p",
    "-C",
    "-D",
    "-R",
    "-T",
    "-U",
    "-r",
    "-t",
    "--user",
    "--group",
    "--host",
    "--prompt",
    "--chdir",
    "--chroot",
    "--close-from",
    "--other-user",
    "--role",
    "--type",
    "--command-timeout",
  ],
  doas: ["-u", "-C"],
  run0: ["-u", "--user"],
  pkexec: ["--user"],
  env: ["-u", "-C", "--unset", "--chdir"],
  nice: ["-n", "--adjustment"],
  nohup: [],
  time: [],
  command: [],
  exec: ["-a"],
  builtin: [],
  stdbuf: ["-i", "-o", "-e"],
  ionice: ["-c", "-n", "-t", "-p"],
  timeout: ["-s", "-k", "--signal", "--kill-after"],
  xargs: [
    "-I",
    "-n",
    "-P",
    "-d",
    "-a",
    "-E",
    "-L",
    "-s",
    "--max-args",
    "--max-procs",
    "--delimiter",
    "--arg-file",
    "--max-lines",
    "--max-chars",
    "--replace",
  ],
  busybox: [],
  // `chroot [--userspec=U] NEWROOT CMD`: the command is judged as if NEWROOT were `/` (worst case).
  chroot: ["--userspec", "--groups"],
  setsid: [],
  unbuffer: [],
  caffeinate: [],
  flock: ["-w", "-E", "-c"],
  // Tools that run their command with tracing, scheduling or namespaces: the command is what matters.
  chrt: [],
  taskset: [],
  strace: ["-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-S", "-X"],
  ltrace: ["-o", "-e", "-p", "-s", "-u", "-n", "-a", "-l"],
  fakeroot: ["-l", "-s", "-i", "-b"],
  unshare: ["-S", "-G", "-R", "-w", "--setuid", "--setgid", "--root", "--wd"],
  nsenter: ["-t", "-S", "-G", "-r", "-w", "--target"],
  firejail: [],
  proot: ["-r", "-b", "-w"],
  valgrind: [],
  numactl: ["-C", "-N", "-m", "-i", "-p"],
  "systemd-run": ["-u", "-p", "-E", "--unit", "--property", "--setenv", "--uid", "--gid"],
  runuser: ["-u", "-g", "-G", "--user", "--group"],
  sg: [],
  script: ["-E", "-O", "-I", "-T", "-B"],
};
/** Wrappers whose first operand is a value (`chrt 10 cmd`, `taskset 0x1 cmd`, `timeout 5 cmd`, `sg group cmd`). */
const POSITIONAL = new Set(["timeout", "flock", "chrt", "taskset", "sg", "chroot"]);
export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash"]);
export const INTERPRETERS = new Set([
  "python",
  "python2",
  "python3",
  "perl",
  "ruby",
  "node",
  "php",
  "lua",
  "deno",
  "bun",
]);

/** Strips assignments and wrapper programs to find what really runs. */
export function unwrap(words: string[], raw: string[] = words): Unwrapped {
  const wrappers: string[] = [];
  const privilegeOptions: string[] = [];
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(raw[i] ?? words[i]!)) i++;
  for (let guard = 0; guard < 8 && i < words.length; guard++) {
    const name = baseName(words[i]!);
    const valued = WRAPPERS[name];
    if (!valued) break;
    wrappers.push(name);
    i++;
    while (i < words.length && words[i]!.startsWith("-") && words[i] !== "-") {
      const opt = words[i]!;
      if (PRIVILEGED.has(name)) privilegeOptions.push(opt);
      if (opt === "--") {
        i++;
        break;
      }
      // `env -S "cmd args"`, `flock -c`, `script -c`, `runuser -c` hand a string to a shell.
      if (
        (name === "env" && (opt === "-S" || opt.startsWith("--split-string"))) ||
        (["flock", "script", "runuser"].includes(name) && (/^-[a-zA-Z]*c$/.test(opt) || opt.startsWith("--command")))
      ) {
        const payload = opt.includes("=") ? opt.slice(opt.indexOf("=") + 1) : words[i + 1];
        return {
          program: name,
          args: words.slice(i),
          wrappers,
          privilegeOptions,
          ...(payload !== undefined ? { payload } : {}),
        };
      }
      i += valued.includes(opt) ? 2 : 1;
    }
    while (name === "env" && i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
    if (POSITIONAL.has(name) && i < words.length) i++;
    // `flock FILE -c CMD`, and runuser's su-like form `runuser -l USER -c CMD`, pass a command string.
    const c =
      name === "flock" ? i : name === "runuser" ? words.findIndex((w, k) => k >= i && /^-[a-z]*c$/.test(w)) : -1;
    if (c >= 0 && /^(-[a-z]*c|--command)$/.test(words[c] ?? "") && words[c + 1] !== undefined)
      return { program: name, args: words.slice(c), wrappers, privilegeOptions, payload: words[c + 1]! };
    // `sg GROUP 'cmd args'` runs its command string through a shell.
    if (name === "sg" && words[i] !== undefined && words[i] !== "-c")
      return { program: "sg", args: words.slice(i), wrappers, privilegeOptions, payload: words.slice(i).join(" ") };
  }
  const program = baseName(words[i] ?? "");
  const args = words.slice(i + 1);
  if (program === "su") {
    privilegeOptions.push(...args.filter((a) => a.startsWith("-")));
    const c = args.findIndex(
      (a) => a === "-c" || a === "--command" || a.startsWith("--command=") || /^-[a-z]*c$/.test(a),
    );
    const inline = args[c]?.startsWith("--command=") ? args[c]!.slice("--command=".length) : undefined;
    const payload = inline ?? args[c + 1];
    if (c >= 0 && payload !== undefined)
      return { program, args, wrappers: [...wrappers, "su"], privilegeOptions, payload };
  }
  return { program, args, wrappers, privilegeOptions };
}

/** One word for a shell, quoted only when it needs it. */
export const shellQuote = (arg: string): string =>
  /^[A-Za-z0-9_@%+=:,./~-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;

/** The operands after options; `valued` letters take the next word (or the rest of the cluster). */
function operandsAfter(args: readonly string[], valued: string): string[] {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") return args.slice(i + 1);
    if (!a.startsWith("-") || a === "-") return args.slice(i);
    const letter = [...a.slice(1)].findIndex((c) => valued.includes(c));
    if (letter >= 0 && letter === a.length - 2) i++;
  }
  return [];
}

/** tmux subcommands that run a shell command, and the letters their options take a value with. */
const TMUX_RUNS: Record<string, string> = {
  "new-session": "cefFnstxyX",
  new: "cefFnstxyX",
  "new-window": "cefFnst",
  neww: "cefFnst",
  "split-window": "cefFlpt",
  splitw: "cefFlpt",
  "respawn-pane": "cet",
  respawnp: "cet",
  "respawn-window": "cet",
  respawnw: "cet",
  "run-shell": "ct",
  run: "ct",
  "send-keys": "NtT",
  send: "NtT",
};

/**
 * The command string that programs running their operands through a shell will run: `watch CMD`,
 * `ssh HOST CMD`, `tmux new-session CMD` (and send-keys), `screen CMD`, `at`'s `-f`-less stdin
 * aside. Joined as the shell on the other side would see them.
 */
function remotePayload(u: Unwrapped): string | null {
  const { program: p, args } = u;
  if (p === "watch") {
    const words = operandsAfter(args, "nd");
    return words.length > 0 ? words.join(" ") : null;
  }
  if (p === "ssh") {
    const [, ...command] = operandsAfter(args, "BbcDEeFIiJLlmOoPpQRSWw");
    return command.length > 0 ? command.join(" ") : null;
  }
  if (p === "screen") {
    const words = operandsAfter(args, "ScehpTXs");
    const x = args.indexOf("-X");
    if (x >= 0 && args[x + 1] === "stuff") return args[x + 2] ?? null;
    return words.length > 0 ? words.map(shellQuote).join(" ") : null;
  }
  if (p === "tmux") {
    const global = operandsAfter(args, "LSfcT");
    const c = args.indexOf("-c");
    if (c >= 0 && args.length - global.length > c) return args[c + 1] ?? null;
    const [sub, ...rest] = global;
    const valued = TMUX_RUNS[sub ?? ""];
    if (valued === undefined) return null;
    const words = operandsAfter(rest, valued).filter((w) => !/^(Enter|C-m|KPEnter|C-j)$/.test(w));
    return words.length > 0 ? words.join(" ") : null;
  }
  return null;
}

/** The command string a shell or `eval` will run, when this command is one. */
export function shellPayload(u: Unwrapped): string | null {
  if (u.payload !== undefined) return u.payload;
  if (u.program === "eval") return u.args.join(" ");
  if (!SHELLS.has(u.program)) return remotePayload(u);
  for (let i = 0; i < u.args.length; i++) {
    const a = u.args[i]!;
    if (a === "-o" || a === "+o" || a === "-O" || a === "+O") i++;
    else if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) return u.args.slice(i + 1).find((x) => !x.startsWith("-")) ?? "";
    else if (!a.startsWith("-") && !a.startsWith("+")) return null;
  }
  return null;
}
