// The read-only programs the classifier trusts (classify.ts), each with the options that would
// make it write or run something, and the programs people expect there with why they are not.
import { resolveLong } from "./classify-git.js";
import { sedReadOnly } from "./classify-sed.js";
import type { Word } from "./shell-parse.js";

/** Why a program's arguments are not read-only, and the word that decided it. */
export interface Refusal {
  reason: string;
  part: string;
}

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
  check?: (args: string[]) => Refusal | null;
}

const SAFE: ProgramRule = { globSafe: true };
const HOSTNAME_READ = new Set([
  "-f",
  "-s",
  "-d",
  "-i",
  "-I",
  "-A",
  "-a",
  "-y",
  "-V",
  "-h",
  "--fqdn",
  "--long",
  "--short",
  "--domain",
  "--ip-address",
  "--all-ip-addresses",
  "--all-fqdns",
  "--alias",
  "--version",
  "--help",
]);

export const PROGRAMS: Record<string, ProgramRule> = {
  ...Object.fromEntries(
    [
      "ls",
      "cat",
      "head",
      "tail",
      "wc",
      "stat",
      "pwd",
      "echo",
      "du",
      "df",
      "grep",
      "egrep",
      "fgrep",
      "which",
      "whoami",
      "id",
      "uname",
      "basename",
      "dirname",
      "realpath",
      "readlink",
      "diff",
      "cmp",
      "md5sum",
      "sha1sum",
      "sha224sum",
      "sha256sum",
      "sha384sum",
      "sha512sum",
      "b2sum",
      "cksum",
      "nl",
      "cut",
      "column",
      "true",
      "false",
      "uptime",
      "tac",
      "rev",
      "fold",
      "od",
      "strings",
      "nproc",
      "comm",
      "paste",
      "expand",
      "unexpand",
      "seq",
      "jq",
    ].map((p) => [p, SAFE]),
  ),
  sort: { short: "o", long: ["output", "compress-program"], why: "writes its output to a file or runs a compressor" },
  tree: { short: "oR", long: ["output"], why: "writes its listing to files" },
  file: { short: "C", long: ["compile"], why: "compiles a magic file" },
  date: { check: (args) => dateSetsClock(args) },
  // `-z`/`--search-zip` runs decompressors; `--pre` and `--hostname-bin` run any program.
  rg: {
    short: "z",
    long: ["pre", "pre-glob", "hostname-bin", "search-zip"],
    why: "runs a preprocessor, decompressor or helper program",
  },
  base64: { short: "o", long: ["output"], why: "writes its output to a file" },
  cd: SAFE,
  find: {
    why: "deletes or writes files, or runs programs",
    exact: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"],
  },
  // `uniq IN OUT` writes OUT; with one operand or none it only reads.
  uniq: { check: (args) => uniqReadOnly(args) },
  hostname: {
    check: (args) =>
      firstBad(args, (a) => !HOSTNAME_READ.has(a), "`hostname` with an operand or file sets the host name"),
  },
  sed: { check: (args) => sedReadOnly(args) },
  // `printf -v PATH /tmp/x` assigns a variable the rest of the line runs with; a glob in the first
  // word could produce `-v...` from a file name.
  printf: {
    globSafe: true,
    check: (args) =>
      /^-(?!-$)|[*?[{~]/.test(args[0] ?? "")
        ? { reason: "`printf -v` assigns a shell variable that later commands run with", part: args[0]! }
        : null,
  },
};

/** Programs people expect on the list, with why they are not on it. */
export const NOT_READ_ONLY: Record<string, string> = {
  awk: "awk can run programs (system()) and write files (print >)",
  gawk: "awk can run programs (system()) and write files (print >)",
  mawk: "awk can run programs (system()) and write files (print >)",
  tee: "tee writes files",
  xargs: "xargs runs other programs",
  env: "env runs the command it is given",
  less: "a pager can run commands and editors",
  more: "a pager can run commands and editors",
  sudo: "sudo runs a program with more privileges",
  xxd: "xxd writes its second operand",
};

/** uniq reads unless a second operand names a file to write. */
function uniqReadOnly(args: string[]): Refusal | null {
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") operands.push(...args.slice(i + 1)), (i = args.length);
    else if (/^-[fsw]$/.test(a)) i++;
    else if (!a.startsWith("-") || a === "-") operands.push(a);
  }
  return operands.length > 1 ? { reason: "`uniq` writes its second operand", part: operands[1]! } : null;
}

const DATE_LONG = [
  "date",
  "debug",
  "file",
  "iso-8601",
  "resolution",
  "rfc-email",
  "rfc-3339",
  "reference",
  "set",
  "universal",
  "utc",
  "help",
  "version",
];

/** `date` only reads unless `-s`/`--set` or an operand other than `+FORMAT` sets the clock. */
function dateSetsClock(args: string[]): Refusal | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--")
      return args[i + 1] !== undefined && !args[i + 1]!.startsWith("+")
        ? { reason: "`date` with a time operand sets the system clock", part: args[i + 1]! }
        : null;
    if (a.startsWith("--")) {
      const name = resolveLong(a.slice(2).split("=")[0]!, DATE_LONG);
      if (name === undefined || name === "set")
        return {
          reason: name === "set" ? "`date --set` sets the system clock" : `unknown or ambiguous date option \`${a}\``,
          part: a,
        };
      if (["date", "file", "reference", "resolution"].includes(name) && !a.includes("=")) i++;
    } else if (a.startsWith("-") && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === "s") return { reason: "`date -s` sets the system clock", part: a };
        if ("dfr".includes(c)) {
          if (j === a.length - 1) i++;
          break;
        }
        if (c === "I") break;
        if (!"uRI".includes(c)) return { reason: `unknown date option \`-${c}\``, part: a };
      }
    } else if (!a.startsWith("+")) return { reason: "`date` with a time operand sets the system clock", part: a };
  }
  return null;
}

function firstBad(args: string[], bad: (a: string) => boolean, reason: string): Refusal | null {
  const hit = args.find(bad);
  return hit === undefined ? null : { reason, part: hit };
}

/** Checks one whitelisted program's arguments against its rule. */
export function argsReadOnly(program: string, rule: ProgramRule, words: Word[]): Refusal | null {
  const args = words.map((w) => w.text);
  const does = rule.why ?? "writes files or runs a program";
  const expanding = words.find((w) => w.expands);
  if (expanding && !rule.globSafe) {
    return {
      reason: `\`${program}\` has options that write or run programs, and expanding \`${expanding.raw}\` could produce one from a file name`,
      part: expanding.raw,
    };
  }
  // Every word is checked, `--` included: a value-taking option can swallow `--` and let the
  // next word be parsed as an option, so stopping there would be a bypass.
  for (const arg of args) {
    if (rule.exact?.includes(arg)) return { reason: `\`${program} ${arg}\` ${does}`, part: arg };
    if (arg.startsWith("--") && arg.length > 2) {
      const name = arg.slice(2).split("=")[0]!;
      const hit = rule.long?.find((f) => name.length > 0 && f.startsWith(name));
      if (hit) return { reason: `\`${program} --${hit}\` ${does}`, part: arg };
    } else if (arg.startsWith("-") && rule.short && [...arg.slice(1)].some((c) => rule.short!.includes(c))) {
      return { reason: `\`${program} ${arg}\` ${does}`, part: arg };
    }
  }
  const custom = rule.check?.(args);
  return custom ?? null;
}
