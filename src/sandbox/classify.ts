// Read-only recognition (the seed's rule, hardened): a command is trusted when every simple
// command in it is a whitelisted, purely read-only program with no writing or executing option,
// joined only by `&&`, `||`, `;` or `|`, with no redirection but to /dev/null or another
// descriptor, and with nothing the shell substitutes at run time. `bash -c SCRIPT` (and -lc,
// sh, zsh, dash) is judged by its script. git is limited to read-only subcommands (classify-git.ts).
//
// Decisions the seed leaves open, so an attacker cannot lean on them:
// - Quotes are read as bash reads them (shell-parse.ts): `rg "a|b"` is one argument, `$(x)`,
//   backticks, `$VAR`, `<(x)`, subshells, background jobs, loops and `if` are refused.
// - Globs `* ? [`, braces `{ }` and a leading `~` are allowed, but only for programs whose every
//   option is harmless. A file named `--pre=./x.sh` turns `rg foo *` into `rg foo --pre=./x.sh`,
//   so rg, find, sort, sed, git... refuse expansion.
// - A path prefix is skipped only for the system bin directories: `./ls` is the workspace's own
//   program, not ls.
// - Assignments to variables that change what runs (`PATH`, `LD_*`, `GIT_*`, pagers, `HOME`...)
//   make a command untrusted; other `KEY=VALUE` prefixes are skipped.
// - Control characters, and any character bash would read differently from us, make it untrusted.
import { gitReadOnly, neutraliseGit } from "./classify-git.js";
import { argsReadOnly, NOT_READ_ONLY, PROGRAMS } from "./classify-programs.js";
import { baseName, isAssignment, parseShell, type Redirect, type SimpleCommand, type Word } from "./shell-parse.js";

export { neutraliseGit } from "./classify-git.js";
export { sedScriptWrites } from "./classify-sed.js";

/** The verdict on one command. */
export interface Classification {
  /** True when the command only reads: safe to run without asking under `on-request`. */
  readOnly: boolean;
  /** One line saying why, for the approval card and `policy check`. */
  reason: string;
  /** The character, word or option that decided it, when one did. */
  part?: string;
}

/** Operators between trusted parts: lists and pipes. Background jobs, subshells and `case` are not. */
const JOINERS = new Set(["&&", "||", ";", "|", "\n"]);
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

const SYSTEM_BIN = new Set(["/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin"]);

/** Variables that choose which program runs, which libraries load or which config is read. */
const RISKY_ENV =
  /^(PATH|HOME|SHELL|ENV|BASH_ENV|IFS|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|GLOBIGNORE|CDPATH|EDITOR|VISUAL|BROWSER|GCONV_PATH|LOCPATH|NLSPATH|GLIBC_TUNABLES|RIPGREP_CONFIG_PATH|TERMINFO|TERMINFO_DIRS|MAGIC)$|^(LD_|DYLD_|GIT_|XDG_|LESS|MALLOC_|PYTHON|PERL|RUBY|NODE_|NPM_|JAVA_|SSH_)|PAGER$|OPTIONS$|_OPTS?$/;

const SHELL_WRAPPERS = new Set(["bash", "sh", "zsh", "dash"]);

/** The script of `bash -c SCRIPT` / `bash -lc SCRIPT` (sh, zsh, dash), when that is all the command is. */
export function shellScript(words: readonly Word[]): string | null {
  const [shell, flags, script, ...extra] = words;
  if (!shell || !flags || !script || extra.length > 0 || shell.quoted || !SHELL_WRAPPERS.has(shell.text)) return null;
  if (!/^-[lex]*c[lex]*$/.test(flags.raw) || script.dynamic) return null;
  return script.text;
}

/** A redirection that writes nothing anyone reads: to /dev/null, or joining two descriptors. */
const harmless = (r: Redirect) =>
  (/^(>|>>|&>|&>>)$/.test(r.op) && r.target?.text === "/dev/null" && !r.target.quoted) ||
  (/^(>&|<&)$/.test(r.op) && /^(\d+|-)$/.test(r.target?.text ?? ""));

/** Why the words of one simple command are not a trusted program, or its verdict. */
function classifyWords(words: Word[], depth: number, moved: boolean): Classification {
  let i = 0;
  for (; i < words.length && isAssignment(words[i]!); i++) {
    const name = words[i]!.text.split("=")[0]!;
    if (RISKY_ENV.test(name))
      return {
        readOnly: false,
        reason: `setting \`${name}\` can change which program runs or what it loads`,
        part: words[i]!.raw,
      };
    if (words[i]!.expands) return { readOnly: false, reason: "an expanding assignment", part: words[i]!.raw };
  }
  if (i >= words.length) return { readOnly: false, reason: "no program to run" };
  const script = i === 0 ? shellScript(words) : null;
  if (script !== null) {
    if (depth >= 2) return { readOnly: false, reason: "a shell script nested too deep to check", part: words[0]!.text };
    const inner = classifyScript(script, depth + 1, moved);
    return inner.readOnly
      ? { readOnly: true, reason: `\`${words[0]!.text} -c\` runs a script that only reads` }
      : inner;
  }
  const programWord = words[i]!;
  if (programWord.expands || programWord.quoted)
    return {
      readOnly: false,
      reason: "the program name would be expanded or is spelled with quotes",
      part: programWord.raw,
    };
  const typed = programWord.text;
  if (typed.includes("/")) {
    const dir = typed.slice(0, typed.lastIndexOf("/"));
    if (!SYSTEM_BIN.has(dir))
      return { readOnly: false, reason: `\`${typed}\` is not a program from a system directory`, part: typed };
  }
  const program = baseName(typed);
  const args = words.slice(i + 1);
  if (program === "git") {
    const expanding = args.find((w) => w.expands);
    if (expanding)
      return {
        readOnly: false,
        reason: `git has options that write or run programs, and expanding \`${expanding.raw}\` could produce one`,
        part: expanding.raw,
      };
    const verdict = gitReadOnly(args.map((w) => w.text));
    return {
      readOnly: verdict.ok,
      reason: verdict.reason,
      ...(verdict.part !== undefined ? { part: verdict.part } : {}),
    };
  }
  const rule = PROGRAMS[program];
  if (!rule)
    return {
      readOnly: false,
      reason: NOT_READ_ONLY[program] ?? `\`${program}\` is not a recognised read-only program`,
      part: program,
    };
  const refused = argsReadOnly(program, rule, args);
  return refused ? { readOnly: false, ...refused } : { readOnly: true, reason: `\`${program}\` only reads` };
}

/** The simple commands of `command` once the whole passed the structural checks, or why it did not. */
function trustedParts(command: string): SimpleCommand[] | Classification {
  if (CONTROL.test(command)) return { readOnly: false, reason: "contains a control character" };
  const parsed = parseShell(command);
  if (!parsed.complete) return { readOnly: false, reason: "has an unterminated quote or substitution" };
  const op = parsed.operators.find((o) => !JOINERS.has(o));
  if (op !== undefined) return { readOnly: false, reason: `contains the shell operator \`${op}\``, part: op };
  if (parsed.reserved)
    return { readOnly: false, reason: "a compound command (if, while, until, braces) this check does not model" };
  const parts = parsed.pipelines.flatMap((p) => p.commands);
  if (parts.length === 0) return { readOnly: false, reason: "no program to run" };
  for (const cmd of parts) {
    const dynamic = cmd.words.find((w) => w.dynamic);
    if (dynamic)
      return { readOnly: false, reason: `\`${dynamic.raw}\` is substituted when it runs`, part: dynamic.raw };
    const redirect = cmd.redirects.find((r) => !harmless(r));
    if (redirect)
      return { readOnly: false, reason: `the redirection \`${redirect.op}\` reads or writes a file`, part: cmd.raw };
  }
  return parts;
}

/** Classifies a command line (a list or pipeline of simple commands). */
function classifyScript(command: string, depth: number, movedBefore = false): Classification {
  const parts = trustedParts(command);
  if (!Array.isArray(parts)) return parts;
  let last: Classification = { readOnly: false, reason: "no program to run" };
  let moved = movedBefore;
  for (const cmd of parts) {
    const program = baseName(cmd.words.find((w) => !isAssignment(w))?.text ?? "");
    // `cd DIR && git status` is `git -C DIR status`: a repository there may run its own programs.
    if (program === "git" && moved)
      return {
        readOnly: false,
        reason: "git after `cd` reads another repository's config, as `git -C` would",
        part: cmd.raw,
      };
    if (program === "cd") moved = true;
    last = classifyWords(cmd.words, depth, moved);
    if (!last.readOnly) return parts.length > 1 && last.part === undefined ? { ...last, part: cmd.raw } : last;
  }
  return parts.length > 1 ? { readOnly: true, reason: "every part only reads" } : last;
}

/** Classifies one command for the `on-request` policy. Pure; never throws. */
export function classifyCommand(command: string): Classification {
  return classifyScript(command, 0);
}

/** True when `command` only reads: safe to run without asking under the on-request policy. */
export function isReadOnlyCommand(command: string): boolean {
  return classifyCommand(command).readOnly;
}

/** One argument for bash, quoted only when it needs it. */
const quote = (arg: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`);

/** The argv for one trusted simple command (no redirections): git neutralised, assignments via env. */
function simpleArgv(cmd: SimpleCommand, depth: number): string[] {
  const words = cmd.words;
  const script = shellScript(words);
  if (script !== null) return trustedForm(script, depth + 1);
  let program = 0;
  while (program < words.length && isAssignment(words[program]!)) program++;
  if (words.some((w) => w.expands) || baseName(words[program]!.text) === "cd") return ["bash", "-c", cmd.raw];
  const assignments = words.slice(0, program).map((w) => w.text);
  let argv = words.slice(program).map((w) => w.text);
  if (baseName(argv[0]!) === "git") argv = neutraliseGit(argv);
  return assignments.length > 0 ? ["env", ...assignments, ...argv] : argv;
}

/** The argv that runs trusted `command`: one program, or bash with every git part rewritten. */
function trustedForm(command: string, depth: number): string[] {
  const parts = trustedParts(command);
  if (!Array.isArray(parts)) return ["bash", "-c", command];
  const only = parts.length === 1 ? parts[0]! : undefined;
  if (only && only.redirects.length === 0) return simpleArgv(only, depth);
  // A list or pipeline: each git or `bash -c` part becomes the text of its trusted argv, in place;
  // the other parts are harmless as typed.
  let text = command;
  for (const cmd of [...parts].sort((a, b) => b.start - a.start)) {
    const program = cmd.words.find((w) => !isAssignment(w));
    if (shellScript(cmd.words) === null && baseName(program?.text ?? "") !== "git") continue;
    const argv = simpleArgv({ ...cmd, redirects: [] }, depth);
    const redirects = cmd.redirects.map((r) => ` ${r.fd ?? ""}${r.op}${r.target?.text ?? ""}`).join("");
    text = `${text.slice(0, cmd.start)}${argv.map(quote).join(" ")}${redirects}${text.slice(cmd.end)}`;
  }
  return ["bash", "-c", text];
}

/**
 * The argv to run for a trusted command, without a shell of the user's choosing; null when the
 * command is not trusted. Contract: the caller spawns exactly this argv (no shell, same cwd and
 * environment); running the command as typed instead would skip the git neutralisation.
 * git is neutralised (see `neutraliseGit`); `KEY=VALUE` prefixes become `env KEY=VALUE`; a
 * command that needs the shell's glob, brace or tilde expansion (only harmless programs may use
 * it), `cd`, or a list or pipeline runs as `bash -c TEXT` with each git part rewritten in place;
 * `bash -c SCRIPT` runs as its script would. With no substitution present, expansion is all bash
 * will do to it.
 */
export function trustedCommandArgv(command: string): string[] | null {
  if (!classifyCommand(command).readOnly) return null;
  return trustedForm(command, 0);
}
