// Code handed to an interpreter or a program-running option, judged by the commands it holds:
// `python -c`, `perl -e`, `ruby -e`, `node -e/-p`, `php -r`, `awk 'BEGIN{system(...)}'`,
// `gdb -ex '!cmd'`, `git rebase --exec`, `git bisect run`, `git submodule foreach`. A string
// literal that is itself a dangerous command is what the code will most likely run.
import { gitSubcommandIndex } from "./danger-git.js";
import type { Hit } from "./danger-rules.js";
import { parseOptions } from "./options.js";
import { INTERPRETERS, shellQuote } from "./unwrap.js";

/** Runs the whole rule set on nested command text. */
type Inspect = (command: string, depth: number) => Hit[];

const AWKS = new Set(["awk", "gawk", "mawk", "nawk", "busybox-awk"]);
/** Options that take inline code, per interpreter (long names without dashes). */
const CODE_OPTIONS: Record<string, { valued: string; long: string[]; code: string[] }> = {
  node: { valued: "epr", long: ["eval=", "print=", "require="], code: ["e", "p", "eval", "print"] },
  bun: { valued: "epr", long: ["eval=", "print="], code: ["e", "p", "eval", "print"] },
  php: { valued: "rBRFEcdz", long: [], code: ["r", "B", "R", "E"] },
};
const DEFAULT_CODE = { valued: "ceErm", long: [], code: ["c", "e", "E"] };

/** The inline code `program args` runs, stdin bodies aside. */
export function inlineCode(program: string, args: readonly string[]): string[] {
  if (AWKS.has(program)) {
    const o = parseOptions(args, { valued: "fvFe", long: ["source=", "file=", "assign=", "field-separator="] });
    const explicit = [...(o.values.get("e") ?? []), ...(o.values.get("source") ?? [])];
    const fromFile = o.values.has("f") || o.values.has("file");
    return [...explicit, ...(explicit.length === 0 && !fromFile && o.operands[0] ? [o.operands[0]] : [])];
  }
  if (program === "gdb" || program === "lldb") {
    // `-ex CMD`, `--eval-command=CMD`, lldb's `-o CMD`: `!cmd` and `shell cmd` run a shell command.
    const commands = args.flatMap((a, k) => {
      const glued = /^--?(?:eval-command|ex|one-line)=(.*)$/s.exec(a);
      if (glued) return [glued[1]!];
      return /^--?(ex|eval-command|one-line|o)$/.test(a) && args[k + 1] !== undefined ? [args[k + 1]!] : [];
    });
    return commands.map((c) => {
      const shell = /^\s*(?:!|shell\s|platform\s+shell\s)\s*(.*)$/s.exec(c);
      return shell ? `system(${JSON.stringify(shell[1])})` : c;
    });
  }
  if (program === "deno" && args[0] === "eval") return args.slice(1, 2);
  if (!INTERPRETERS.has(program)) return [];
  const spec = CODE_OPTIONS[program] ?? DEFAULT_CODE;
  const o = parseOptions(args, { valued: spec.valued, long: spec.long });
  return spec.code.flatMap((k) => o.values.get(k) ?? []);
}

/** Calls that delete a tree, as `rm -rf` would: shutil.rmtree('x'), fs.rmSync('x'), FileUtils.rm_rf('x'). */
const TREE_DELETE =
  /\b(?:rmtree|rm_rf|rm_r|remove_tree|rmSync|rmdirSync|removeSync|rimraf|removedirs|remove_dir_all|deleteRecursively)\s*\(\s*(['"`])([^'"`\n]+)\1/g;
/** `['rm', '-rf', '/']` or `('rm', ['-rf', '/'])`: an argument list spelled as literals. */
const ARG_LIST = /(?:(['"])([^'"\n]+)\1\s*,\s*)?\[\s*((?:(['"])[^'"\n]*\4\s*,\s*)*(['"])[^'"\n]*\5)\s*,?\s*\]/g;

/** The commands code most likely runs: its string literals, argument lists and tree deletes. */
export function likelyCommands(code: string): string[] {
  const out: string[] = [];
  // Quotes pair from the left, short literals too (`'os'`), so one cannot pair with the next.
  for (const m of code.matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`\n]*)`/g)) {
    const literal = (m[1] ?? m[2] ?? m[3])!;
    if (literal.length >= 3) out.push(literal);
  }
  for (const m of code.matchAll(ARG_LIST)) {
    const words = [...m[3]!.matchAll(/(['"])([^'"\n]*)\1/g)].map((w) => w[2]!);
    out.push([...(m[2] !== undefined ? [m[2]] : []), ...words].map(shellQuote).join(" "));
  }
  for (const m of code.matchAll(TREE_DELETE)) out.push(`rm -rf ${shellQuote(m[2]!)}`);
  return out;
}

/** Hits for the code `program` is given inline or on stdin. */
export function codeHits(
  program: string,
  args: readonly string[],
  stdin: readonly string[],
  part: string,
  depth: number,
  inspect: Inspect,
): Hit[] {
  const sources = [...inlineCode(program, args), ...(INTERPRETERS.has(program) || AWKS.has(program) ? stdin : [])];
  const hits: Hit[] = [];
  for (const literal of sources.flatMap(likelyCommands)) {
    // A literal that merely looks odd (`'$HOME'`) is data; only real rules on it count.
    const inner = inspect(literal, depth + 1).filter(
      (h) => h.rule !== "built-command" && h.rule !== "hidden-characters",
    );
    if (inner.length > 0)
      hits.push({
        rule: "shell-indirection",
        reason: `the ${program} code holds \`${literal.trim()}\` (${inner[0]!.reason}), which it would most likely run`,
        part,
      });
  }
  return hits;
}

/** The shell command git runs for `rebase --exec/-x`, `bisect run`, `submodule foreach`, or null. */
export function gitRuns(args: readonly string[]): string[] {
  const at = gitSubcommandIndex(args);
  const sub = args[at];
  const rest = args.slice(at + 1);
  if (sub === "rebase") {
    const o = parseOptions(rest, { valued: "xsXS", long: ["exec=", "onto=", "strategy=", "strategy-option="] });
    return [...(o.values.get("x") ?? []), ...(o.values.get("exec") ?? [])];
  }
  if (sub === "bisect" && rest[0] === "run") return rest.length > 1 ? [rest.slice(1).map(shellQuote).join(" ")] : [];
  if (sub === "submodule") {
    const f = rest.indexOf("foreach");
    const command = rest.slice(f + 1).filter((a) => !/^--(recursive|quiet)$/.test(a) && a !== "-q");
    return f >= 0 && command.length > 0 ? [command.join(" ")] : [];
  }
  return [];
}
