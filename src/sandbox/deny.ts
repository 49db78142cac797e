// User deny rules: globs from config (`*` any run of characters, `?` one character), matched
// case-insensitively against normalised command text (quotes and backslash escapes removed,
// whitespace collapsed), so `git pu""sh --force` and `g\it push  --force` match `git push --force*`.
// Each part of a compound command is tried as well as the whole, and so are the commands nested
// in substitutions and in `sh -c`/`eval` strings, with wrappers such as sudo or env stripped.
import { allCommands, isAssignment, MAX_NESTING, parseShell, type SimpleCommand } from "./shell-parse.js";
import { shellPayload, unwrap } from "./unwrap.js";

/** The rule that matched and the part of the command it matched, as typed. */
export interface DenyMatch {
  rule: string;
  part: string;
}

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

const compiled = new Map<string, RegExp>();

/** The glob as an anchored, case-insensitive expression; every other character is literal. */
export function denyPattern(rule: string): RegExp {
  const glob = collapse(rule);
  let re = compiled.get(glob);
  if (!re) {
    const body = [...glob]
      .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")))
      .join("");
    re = new RegExp(`^${body}$`, "is");
    compiled.set(glob, re);
  }
  return re;
}

/** One simple command as normalised text, redirections included. */
function partText(cmd: SimpleCommand): string {
  return collapse(
    [...cmd.words.map((w) => w.text), ...cmd.redirects.map((r) => `${r.op} ${r.target?.text ?? ""}`)].join(" "),
  );
}

/**
 * Every normalised form a rule is tried against: the whole command, each simple command (also
 * with assignments, wrappers and the program's directory removed), and, recursively, the
 * commands that `sh -c`, `eval`, `su -c` or `env -S` will run.
 */
export function denyCandidates(command: string, depth = 0): { text: string; part: string }[] {
  const out = [{ text: parseShell(command).normalised, part: command.trim() }];
  for (const cmd of allCommands(command).commands) {
    out.push({ text: partText(cmd), part: cmd.raw });
    const words = cmd.words.map((w) => w.text);
    const u = unwrap(
      words,
      cmd.words.map((w) => (isAssignment(w) ? w.raw : w.text)),
    );
    if (u.program) out.push({ text: collapse([u.program, ...u.args].join(" ")), part: cmd.raw });
    const payload = shellPayload(u);
    if (payload && depth < MAX_NESTING) out.push(...denyCandidates(payload, depth + 1));
  }
  return out;
}

/** The first rule (in config order) that matches the command or one of its parts; null if none. */
export function matchDeny(command: string, rules: readonly string[]): DenyMatch | null {
  const active = rules.filter((r) => collapse(r) !== "");
  if (active.length === 0) return null;
  const candidates = denyCandidates(command);
  for (const rule of active) {
    const re = denyPattern(rule);
    const hit = candidates.find((c) => re.test(c.text));
    if (hit) return { rule, part: hit.part };
  }
  return null;
}
