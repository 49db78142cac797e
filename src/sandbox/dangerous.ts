// Dangerous and unrecoverable commands (Hermes' DANGEROUS_PATTERNS and UNRECOVERABLE_BLOCKLIST,
// as named rules over parsed commands rather than regexes over text, so quoting cannot hide them).
// "dangerous" asks even under the `never` policy unless --yolo; "blocked" is refused in every mode.
// Every simple command of a compound one is checked, and so is every command nested in $(...),
// backticks, <(...), `sh -c`, `eval`, `su -c`, `env -S`, heredocs fed to a shell and `find -exec`;
// a command built by expansion is checked again in its likely expanded form.
import { commandHits, downloadThenRun, type Inspect } from "./danger-command.js";
import { movesTo, relocate, runsIn } from "./danger-cwd.js";
import { DANGER_RULES, type DangerLevel, type Hit } from "./danger-rules.js";
import { likelyExpansion } from "./expand.js";
import { allCommands, MAX_NESTING, parseShell } from "./shell-parse.js";

export { DANGER_RULES, type DangerLevel, type DangerRule } from "./danger-rules.js";

export interface DangerVerdict {
  level: DangerLevel | null;
  rule: string | null;
  reason: string;
  /** The simple command (or pipeline) that matched, as typed. */
  part: string | null;
}

const LEVEL = new Map(DANGER_RULES.map((r) => [r.name, r.level]));

/** Function bodies that call themselves at least twice with `&` or `|`: `:(){ :|:& };:` and kin. */
function forkBomb(command: string): boolean {
  const text = command.replace(/\s+/g, " ");
  if (
    /\bfork\s*(\(\s*\))?\s*while\s*fork\b|\bwhile\s*\(?\s*(1|true|True)\s*\)?\s*:?\s*(os\.)?fork\s*\(\s*\)/.test(text)
  )
    return true;
  const defs = text.matchAll(/(?:function\s+)?([^\s(){};|&]+)\s*(?:\(\s*\))?\s*\{(.*?)\}/g);
  for (const [, name, body] of defs) {
    const escaped = name!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const calls = body!.match(new RegExp(`(^|[\\s|&;{])${escaped}(?=$|[\\s|&;}])`, "g")) ?? [];
    if (calls.length >= 2 && /[&|]/.test(body!)) return true;
  }
  return false;
}

/** Control characters (other than tab and newline) or letters that Unicode folds to ASCII (`ｒｍ`). */
function hiddenCharacters(command: string): string | null {
  if (/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(command))
    return "the command holds control characters, so it does not read as it runs";
  const lookAlike = [...command].some((c) => c.charCodeAt(0) > 0x7f && /^[\x21-\x7e]+$/.test(c.normalize("NFKC")));
  return lookAlike ? "the command uses look-alike letters (full-width or compatibility forms)" : null;
}

/**
 * Every rule hit in `command`, nested commands included. `cwd` is where it runs, as written
 * (`""` for the workspace); each part after a `cd` is judged again from its new directory.
 */
function inspect(command: string, depth: number, cwd = ""): Hit[] {
  const tooDeep: Hit = {
    rule: "shell-indirection",
    reason: `commands nested more than ${MAX_NESTING} levels deep are not checked, so they are not trusted`,
    part: command.trim(),
  };
  if (depth > MAX_NESTING) return [tooDeep];
  const hits: Hit[] = [];
  if (forkBomb(command))
    hits.push({ rule: "fork-bomb", reason: "a function that forks itself without end", part: command.trim() });
  const parsed = parseShell(command);
  let dir = cwd;
  for (const pipeline of parsed.pipelines) {
    pipeline.commands.forEach((cmd, k) => {
      const here = runsIn(cmd, dir);
      const inner: Inspect = (text, d) => inspect(text, d, here);
      const before = pipeline.commands.slice(0, k);
      const own = commandHits(cmd, before, depth, pipeline.raw, inner);
      hits.push(...own);
      const moved = relocate(cmd, here);
      if (moved)
        for (const h of commandHits(moved, before, depth, pipeline.raw, inner))
          if (!own.some((o) => o.rule === h.rule)) hits.push({ ...h, reason: `${h.reason} (run in \`${here}\`)` });
    });
    dir = pipeline.commands.reduce((d, cmd) => movesTo(cmd, d), dir);
  }
  for (const text of parsed.nested) hits.push(...inspect(text, depth + 1, dir));
  const all = allCommands(command, depth);
  if (all.truncated) hits.push(tooDeep);
  hits.push(...downloadThenRun(all.commands));
  if (!parsed.complete) hits.push(...worstReading(command, depth));
  return hits;
}

/**
 * A command the parser cannot fully read (a quote or substitution left open, bash would read it
 * some other way) is judged on its worst reading too: with every quote dropped, each stretch
 * between control characters as a command of its own, so text a stray quote swallowed is seen.
 */
function worstReading(command: string, depth: number): Hit[] {
  const fragments = command
    .replace(/['"]/g, "")
    .replace(/\$\{/g, "$")
    .split(/\$\(|[`;&|()\n{}]/)
    .filter((f) => f.trim() !== "");
  return fragments.flatMap((f) =>
    inspect(f, depth + 1).map((h) => ({
      ...h,
      reason: `${h.reason} (read from a command the parser could not fully read)`,
    })),
  );
}

/**
 * Classifies `command` against the dangerous rules and the unrecoverable blocklist. Contract:
 * pure, never throws; a blocked part wins over an earlier dangerous one; `part` is the simple
 * command or pipeline as typed (for nested commands, the nested text).
 */
export function classifyDanger(command: string): DangerVerdict {
  // Hidden characters are named first: they explain every other oddity of such a command.
  const hidden = hiddenCharacters(command);
  const hits = [
    ...(hidden ? [{ rule: "hidden-characters", reason: hidden, part: command.trim() }] : []),
    ...inspect(command, 0),
  ];
  // What the command most likely runs once $IFS and `$(echo ...)` are expanded; cleaned of
  // control characters and folded to ASCII, as a terminal would show it.
  const variants = new Set([
    likelyExpansion(command),
    command
      .normalize("NFKC")
      .replace(
        /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x9b[0-9;?]*[A-Za-z]|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g,
        "",
      ),
  ]);
  variants.delete(command);
  for (const v of variants) {
    for (const h of inspect(likelyExpansion(v), 0)) {
      if (LEVEL.get(h.rule) === "blocked") hits.push({ ...h, reason: `${h.reason} (once expanded: \`${v.trim()}\`)` });
      else if (hits.length === 0) hits.push({ ...h, reason: `${h.reason} (once expanded)` });
    }
  }
  const chosen = hits.find((h) => LEVEL.get(h.rule) === "blocked") ?? hits[0];
  if (!chosen) return { level: null, rule: null, reason: "no dangerous pattern", part: null };
  return { level: LEVEL.get(chosen.rule) ?? "dangerous", rule: chosen.rule, reason: chosen.reason, part: chosen.part };
}
