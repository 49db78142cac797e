// Read-only command recognition (the seed's rule, hardened): any shell metacharacter makes a
// command untrusted; then KEY=VALUE prefixes and system path prefixes are skipped and the program
// must be on a whitelist of purely read-only programs, with its writing or executing options
// refused and git limited to read-only subcommands (classify-git.ts).
//
// Decisions the seed leaves open, so an attacker cannot lean on them:
// - Metacharacters count even inside quotes (the seed's check is on the raw text): `rg "a|b"` asks.
// - Globs `* ? [`, braces `{ }` and a leading `~` are not metacharacters: they are allowed, but
//   only for programs whose every option is harmless. A file named `--pre=./x.sh` turns
//   `rg foo *` into `rg foo --pre=./x.sh`, so rg, find, sort, sed, git... refuse expansion.
// - A path prefix is skipped only for the system bin directories: `./ls` is the workspace's own
//   program, not ls.
// - Assignments to variables that change what runs (`PATH`, `LD_*`, `GIT_*`, pagers, `HOME`...)
//   make a command untrusted; other `KEY=VALUE` prefixes are skipped.
// - Control characters, and any character bash would read differently from us, make it untrusted.
import { gitReadOnly, neutraliseGit, resolveLong } from "./classify-git.js";
import { baseName, isAssignment, parseShell, type Word } from "./shell-parse.js";

export { neutraliseGit } from "./classify-git.js";

/** The verdict on one command. */
export interface Classification {
  /** True when the command only reads: safe to run without asking under `on-request`. */
  readOnly: boolean;
  /** One line saying why, for the approval card and `policy check`. */
  reason: string;
  /** The character, word or option that decided it, when one did. */
  part?: string;
}

/** The seed's metacharacters: pipes, lists, redirections, substitutions, subshells, newlines. */
const METACHARS = /[|&;<>`$()\n]/;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

const SYSTEM_BIN = new Set(["/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin"]);

/** Variables that choose which program runs, which libraries load or which config is read. */
const RISKY_ENV =
  /^(PATH|HOME|SHELL|ENV|BASH_ENV|IFS|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|GLOBIGNORE|CDPATH|EDITOR|VISUAL|BROWSER|GCONV_PATH|LOCPATH|NLSPATH|GLIBC_TUNABLES|RIPGREP_CONFIG_PATH|TERMINFO|TERMINFO_DIRS|MAGIC)$|^(LD_|DYLD_|GIT_|XDG_|LESS|MALLOC_|PYTHON|PERL|RUBY|NODE_|NPM_|JAVA_|SSH_)|PAGER$|OPTIONS$|_OPTS?$/;

interface ProgramRule {
  /** What the refused options do, for the reason line. */
  why?: string;
  /** Every option is harmless, so words produced by globbing cannot turn it into a writer. */
  globSafe?: boolean;
  /** Short option letters that write or run something (checked in every cluster). */
  short?: string;
  /** Long options that write or run something; GNU getopt abbreviations match too. */
  long?: string[];
  /** Exact words that write or run something (find's primaries). */
  exact?: string[];
  /** A custom check; returns why the arguments are not read-only. */
  check?: (args: string[]) => { reason: string; part: string } | null;
}

const SAFE: ProgramRule = { globSafe: true };
const HOSTNAME_READ = new Set(["-f", "-s", "-d", "-i", "-I", "-A", "-a", "-y", "-V", "-h", "--fqdn", "--long", "--short", "--domain", "--ip-address", "--all-ip-addresses", "--all-fqdns", "--alias", "--version", "--help"]);

const PROGRAMS: Record<string, ProgramRule> = {
  ...Object.fromEntries(
    [
      "ls", "cat", "head", "tail", "wc", "stat", "pwd", "echo", "printf", "du", "df", "grep", "egrep", "fgrep", "which", "whoami", "id",
      "uname", "basename", "dirname", "realpath", "readlink", "diff", "cmp", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum",
      "sha512sum", "b2sum", "cksum", "nl", "cut", "column", "true", "false", "uptime", "tac", "rev", "fold", "od", "strings", "nproc",
      "comm", "paste", "expand", "unexpand", "seq", "jq",
    ].map((p) => [p, SAFE]),
  ),
  sort: { short: "o", long: ["output", "compress-program"], why: "writes its output to a file or runs a compressor" },
  tree: { short: "oR", long: ["output"], why: "writes its listing to files" },
  file: { short: "C", long: ["compile"], why: "compiles a magic file" },
  date: { short: "s", long: ["set"], why: "sets the system clock" },
  rg: { long: ["pre", "pre-glob", "hostname-bin"], why: "runs a preprocessor or helper program" },
  find: { why: "deletes or writes files, or runs programs", exact: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"] },
  hostname: { check: (args) => firstBad(args, (a) => !HOSTNAME_READ.has(a), "`hostname` with an operand or file sets the host name") },
  sed: { check: (args) => sedReadOnly(args) },
};

/** Programs people expect on the list, with why they are not on it. */
const NOT_READ_ONLY: Record<string, string> = {
  awk: "awk can run programs (system()) and write files (print >)",
  gawk: "awk can run programs (system()) and write files (print >)",
  mawk: "awk can run programs (system()) and write files (print >)",
  tee: "tee writes files",
  xargs: "xargs runs other programs",
  env: "env runs the command it is given",
  less: "a pager can run commands and editors",
  more: "a pager can run commands and editors",
  sudo: "sudo runs a program with more privileges",
  uniq: "uniq writes its second operand",
  xxd: "xxd writes its second operand",
};

function firstBad(args: string[], bad: (a: string) => boolean, reason: string): { reason: string; part: string } | null {
  const hit = args.find(bad);
  return hit === undefined ? null : { reason, part: hit };
}

const SED_FLAGS = "nrEsuzb";
const SED_LONG = ["expression", "file", "in-place", "line-length", "quiet", "silent", "regexp-extended", "separate", "unbuffered", "null-data", "zero-terminated", "posix", "debug", "sandbox", "follow-symlinks", "binary", "help", "version"];

/** sed reads unless `-i` edits in place, `-f` brings a script we cannot see, or the script writes or executes. */
function sedReadOnly(args: string[]): { reason: string; part: string } | null {
  const scripts: string[] = [];
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const name = arg.slice(2).split("=")[0]!;
      // getopt_long accepts an exact name or any unambiguous abbreviation.
      const opt = resolveLong(name, SED_LONG);
      if (!opt) return { reason: `unknown or ambiguous sed option \`${arg}\``, part: arg };
      if (opt === "in-place" || opt === "file") return { reason: `\`sed --${opt}\` edits files or runs a script we cannot see`, part: arg };
      if (opt === "expression") scripts.push(arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : (args[++i] ?? ""));
      if (opt === "line-length" && !arg.includes("=")) i++;
    } else if (arg.startsWith("-") && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const c = arg[j]!;
        if (c === "i" || c === "f") return { reason: c === "i" ? "`sed -i` edits files in place" : "`sed -f` runs a script we cannot see", part: arg };
        if (c === "e" || c === "l") {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : (args[++i] ?? "");
          if (c === "e") scripts.push(value);
          break;
        }
        if (!SED_FLAGS.includes(c)) return { reason: `unknown sed option \`-${c}\``, part: arg };
      }
    } else operands.push(arg);
  }
  if (scripts.length === 0 && operands.length > 0) scripts.push(operands[0]!);
  for (const script of scripts) {
    const why = sedScriptWrites(script);
    if (why) return { reason: why, part: script };
  }
  return null;
}

/** Skips a `<d>...<d>` section starting at the delimiter; returns the index past it or -1. */
function delimited(s: string, i: number): number {
  const d = s[i];
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === d) return j + 1;
  }
  return -1;
}

/**
 * Why one sed command (the metacharacter rule already ruled out `;` and newlines, so there is only
 * one) writes or executes: the `w`, `W` and `e` commands and the `w`/`e` flags of `s`. Anything
 * this small parser does not understand counts as writing.
 */
export function sedScriptWrites(script: string): string | null {
  let i = 0;
  const blank = () => {
    while (script[i] === " " || script[i] === "\t") i++;
  };
  const address = (): boolean => {
    if (/\d/.test(script[i] ?? "")) {
      while (/[\d~]/.test(script[i] ?? "")) i++;
    } else if (script[i] === "/" || script[i] === "\\") {
      if (script[i] === "\\") i++;
      i = delimited(script, i);
      if (i < 0) return false;
      while (script[i] === "I" || script[i] === "M") i++;
    } else if (script[i] === "+" || script[i] === "~") {
      i++;
      while (/\d/.test(script[i] ?? "")) i++;
    }
    return true;
  };
  blank();
  if (!address()) return "a sed address this check cannot read";
  if (script[i] === ",") {
    i++;
    if (!address()) return "a sed address this check cannot read";
  }
  blank();
  if (script[i] === "!") i++;
  blank();
  const command = script[i];
  const rest = script.slice(i + 1);
  if (command === undefined || command === "#") return null;
  if (command === "s" || command === "y") {
    const first = delimited(script, i + 1);
    const second = first < 0 ? -1 : delimited(script, first - 1);
    if (second < 0) return `a sed \`${command}\` command this check cannot read`;
    const flags = script.slice(second);
    if (command === "s" && !/^[gpiImM0-9]*\s*$/.test(flags)) return "the sed `s` flags `w`/`e` write a file or run a command";
    if (command === "y" && flags.trim() !== "") return "a sed `y` command this check cannot read";
    return null;
  }
  if ("pPnNdDgGhHxzlLFqQ=".includes(command)) return /^\s*\d*\s*$/.test(rest) ? null : "a sed command this check cannot read";
  if ("aicrRbtT:v".includes(command)) return null;
  if (command === "w" || command === "W") return "the sed `w` command writes a file";
  if (command === "e") return "the sed `e` command runs a shell command";
  return `the sed command \`${command}\` is not known to be read-only`;
}

/** Checks one whitelisted program's arguments against its rule. */
function argsReadOnly(program: string, rule: ProgramRule, words: Word[]): Classification | null {
  const args = words.map((w) => w.text);
  const does = rule.why ?? "writes files or runs a program";
  const expanding = words.find((w) => w.expands);
  if (expanding && !rule.globSafe) {
    return { readOnly: false, reason: `\`${program}\` has options that write or run programs, and expanding \`${expanding.raw}\` could produce one from a file name`, part: expanding.raw };
  }
  // Every word is checked, `--` included: a value-taking option can swallow `--` and let the
  // next word be parsed as an option, so stopping there would be a bypass.
  for (const arg of args) {
    if (rule.exact?.includes(arg)) return { readOnly: false, reason: `\`${program} ${arg}\` ${does}`, part: arg };
    if (arg.startsWith("--") && arg.length > 2) {
      const name = arg.slice(2).split("=")[0]!;
      const hit = rule.long?.find((f) => name.length > 0 && f.startsWith(name));
      if (hit) return { readOnly: false, reason: `\`${program} --${hit}\` ${does}`, part: arg };
    } else if (arg.startsWith("-") && rule.short && [...arg.slice(1)].some((c) => rule.short!.includes(c))) {
      return { readOnly: false, reason: `\`${program} ${arg}\` ${does}`, part: arg };
    }
  }
  const custom = rule.check?.(args);
  return custom ? { readOnly: false, ...custom } : null;
}

/** The command's words once it passed the character checks, or why it did not. */
function prepare(command: string): { words: Word[]; program: number } | Classification {
  const meta = METACHARS.exec(command);
  if (meta) return { readOnly: false, reason: `contains the shell metacharacter \`${meta[0] === "\n" ? "\\n" : meta[0]}\``, part: meta[0] };
  if (CONTROL.test(command)) return { readOnly: false, reason: "contains a control character" };
  const parsed = parseShell(command);
  const only = parsed.pipelines[0]?.commands[0];
  if (!parsed.complete) return { readOnly: false, reason: "has an unterminated quote" };
  if (!only || parsed.pipelines.length !== 1 || parsed.pipelines[0]!.commands.length !== 1) return { readOnly: false, reason: "not a single simple command" };
  const words = only.words;
  let i = 0;
  for (; i < words.length && isAssignment(words[i]!); i++) {
    const name = words[i]!.text.split("=")[0]!;
    if (RISKY_ENV.test(name)) return { readOnly: false, reason: `setting \`${name}\` can change which program runs or what it loads`, part: words[i]!.raw };
    if (words[i]!.expands) return { readOnly: false, reason: "an expanding assignment", part: words[i]!.raw };
  }
  if (i >= words.length) return { readOnly: false, reason: "no program to run" };
  return { words, program: i };
}

/** Classifies one command for the `on-request` policy. Pure; never throws. */
export function classifyCommand(command: string): Classification {
  const prepared = prepare(command);
  if ("readOnly" in prepared) return prepared;
  const { words, program: at } = prepared;
  const programWord = words[at]!;
  if (programWord.expands) return { readOnly: false, reason: "the program name would be expanded by the shell", part: programWord.raw };
  const typed = programWord.text;
  if (typed.includes("/")) {
    const dir = typed.slice(0, typed.lastIndexOf("/"));
    if (!SYSTEM_BIN.has(dir)) return { readOnly: false, reason: `\`${typed}\` is not a program from a system directory`, part: typed };
  }
  const program = baseName(typed);
  const args = words.slice(at + 1);
  if (program === "git") {
    const expanding = args.find((w) => w.expands);
    if (expanding) return { readOnly: false, reason: `git has options that write or run programs, and expanding \`${expanding.raw}\` could produce one`, part: expanding.raw };
    const verdict = gitReadOnly(args.map((w) => w.text));
    return { readOnly: verdict.ok, reason: verdict.reason, ...(verdict.part !== undefined ? { part: verdict.part } : {}) };
  }
  const rule = PROGRAMS[program];
  if (!rule) return { readOnly: false, reason: NOT_READ_ONLY[program] ?? `\`${program}\` is not a recognised read-only program`, part: program };
  return argsReadOnly(program, rule, args) ?? { readOnly: true, reason: `\`${program}\` only reads` };
}

/** True when `command` only reads: safe to run without asking under the on-request policy. */
export function isReadOnlyCommand(command: string): boolean {
  return classifyCommand(command).readOnly;
}

/**
 * The argv to run for a trusted command, without a shell; null when the command is not trusted.
 * Contract: the caller spawns exactly this argv (no shell, same cwd and environment); running the
 * command as typed instead would skip the git neutralisation.
 * git is neutralised (see `neutraliseGit`); `KEY=VALUE` prefixes become `env KEY=VALUE`; a
 * command that needs the shell's glob, brace or tilde expansion (only harmless programs may use
 * it) is returned as `bash -c <command>`, because only bash expands it the same way; with no
 * metacharacter present, expansion is all bash will do to it.
 */
export function trustedCommandArgv(command: string): string[] | null {
  if (!classifyCommand(command).readOnly) return null;
  const prepared = prepare(command);
  if ("readOnly" in prepared) return null;
  const { words, program } = prepared;
  if (words.some((w) => w.expands)) return ["bash", "-c", command];
  const assignments = words.slice(0, program).map((w) => w.text);
  let argv = words.slice(program).map((w) => w.text);
  if (baseName(argv[0]!) === "git") argv = neutraliseGit(argv);
  return assignments.length > 0 ? ["env", ...assignments, ...argv] : argv;
}
