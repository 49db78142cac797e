// Read-only command recognition (the seed's rule): any shell metacharacter makes a command
// untrusted; otherwise skip KEY=VALUE prefixes and path prefixes and check a whitelist of purely
// read-only programs, with git allowed only for read-only subcommands.

const METACHARS = /[|&;<>`$()\n\r]/;

const READ_ONLY_PROGRAMS = new Set([
  "ls", "cat", "head", "tail", "wc", "stat", "file", "pwd", "echo", "printf", "tree", "du", "df",
  "grep", "egrep", "fgrep", "rg", "jq", "which", "whoami", "id", "uname", "date", "env", "basename",
  "dirname", "realpath", "readlink", "diff", "cmp", "md5sum", "sha1sum", "sha256sum", "nl", "cut",
  "column", "true", "false", "hostname", "uptime", "less", "more",
]);

const GIT_READ_ONLY = new Set(["status", "log", "diff", "show", "blame", "branch", "tag", "rev-parse", "ls-files", "describe", "shortlog", "reflog", "remote", "config"]);
const GIT_VALUE_OPTIONS = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace"]);

/** Splits a command into words (quotes respected, no expansion). Null when it cannot be split. */
export function splitWords(command: string): string[] | null {
  const words: string[] = [];
  let current = "";
  let quote: '"' | "'" | null = null;
  let inWord = false;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"' && i + 1 < command.length) current += command[++i];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === "\\" && i + 1 < command.length) {
      current += command[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (quote) return null;
  if (inWord) words.push(current);
  return words;
}

function gitIsReadOnly(args: string[]): boolean {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) {
    const opt = args[i]!;
    // `-c key=value` can set core.pager or an alias to run a program: never read-only.
    if (opt === "-c" || opt.startsWith("-c") || opt.startsWith("--config")) return false;
    i += GIT_VALUE_OPTIONS.has(opt) ? 2 : 1;
  }
  const sub = args[i];
  if (!sub || !GIT_READ_ONLY.has(sub)) return false;
  const rest = args.slice(i + 1);
  if (sub === "branch" || sub === "tag" || sub === "remote" || sub === "config") {
    // Only the listing forms: any argument could create, delete or rename.
    return rest.every((a) => ["-a", "-r", "-l", "--list", "-v", "-vv", "--all", "--show-current", "--get", "--list"].includes(a)) && (sub !== "config" || rest.includes("--get") || rest.includes("--list") || rest.includes("-l"));
  }
  return !rest.some((a) => a.startsWith("--output") || a === "--ext-diff" || a.startsWith("--exec"));
}

/** True when `command` only reads: safe to run without asking under the on-request policy. */
export function isReadOnlyCommand(command: string): boolean {
  if (METACHARS.test(command)) return false;
  const words = splitWords(command.trim());
  if (!words || words.length === 0) return false;
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  const program = words[i]?.split("/").pop();
  if (!program) return false;
  const args = words.slice(i + 1);
  if (program === "git") return gitIsReadOnly(args);
  if (!READ_ONLY_PROGRAMS.has(program)) return false;
  if (program === "env" && args.some((a) => !a.startsWith("-") && !a.includes("="))) return false; // env CMD runs CMD
  if ((program === "rg" || program === "grep") && args.some((a) => a.startsWith("--pre"))) return false;
  return true;
}
