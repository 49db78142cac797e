// Composer completion: slash commands at the start of the input and @file paths anywhere,
// ranked prefix-first then fuzzy, and applying the chosen item to the text and cursor.
import type { EditorState } from "./editor.js";

export interface CommandCandidate {
  /** "model" or "/model". */
  name: string;
  description: string;
}

export interface CompletionSources {
  /** Slash commands in the order the app wants them offered. */
  commands?: readonly CommandCandidate[];
  /** Workspace-relative file paths ("src/cli.ts"); a directory may end in "/". */
  paths?: readonly string[];
  /** Names offered for the argument of `/model` (the provider's models, once listed). */
  models?: readonly string[];
}

export interface CompletionItem {
  /** The text that replaces the token, sigil included: "/model", "@src/cli.ts". */
  value: string;
  description?: string;
}

export interface Completions {
  kind: "command" | "path" | "model";
  /** What the user typed after the sigil, up to the cursor. */
  query: string;
  /** The token the item replaces: code points [from, to) of `line`. */
  line: number;
  from: number;
  to: number;
  items: CompletionItem[];
}

export const MAX_COMPLETIONS = 50;

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

/**
 * The completions for the token at the cursor, or null when there is nothing to offer: "/x" as
 * the input's first token, or "@x" as any token (an "@" inside a word, as in an e-mail address,
 * does not count). Only the text before the cursor is matched; the whole token is replaced.
 */
export function complete(s: EditorState, sources: CompletionSources, limit = MAX_COMPLETIONS): Completions | null {
  const cps = Array.from(s.lines[s.line] ?? "");
  let start = s.col;
  while (start > 0 && !isSpace(cps[start - 1])) start--;
  let end = s.col;
  while (end < cps.length && !isSpace(cps[end])) end++;
  const sigil = cps[start];
  // `/model NAME`: the provider's model names.
  const before = cps.slice(0, start).join("");
  if (s.line === 0 && before === "/model " && sources.models?.length) {
    const query = cps.slice(start, s.col).join("");
    const ranked = rank(query, sources.models, limit, false);
    if (ranked.length === 0) return null;
    return {
      kind: "model",
      query,
      line: s.line,
      from: start,
      to: end,
      items: ranked.map((i) => ({ value: sources.models?.[i] ?? "" })),
    };
  }
  if (start >= s.col || (sigil !== "/" && sigil !== "@")) return null;
  const query = cps.slice(start + 1, s.col).join("");
  const at = { line: s.line, from: start, to: end, query };

  if (sigil === "/" && s.line === 0 && start === 0) {
    const commands = sources.commands ?? [];
    const names = commands.map((c) => c.name.replace(/^\//, ""));
    const ranked = rank(query, names, limit, false);
    if (ranked.length === 0) return null;
    return {
      kind: "command",
      ...at,
      items: ranked.map((i) => ({ value: `/${names[i] ?? ""}`, description: commands[i]?.description ?? "" })),
    };
  }
  if (sigil === "@") {
    const paths = sources.paths ?? [];
    const ranked = rank(query, paths, limit, true);
    if (ranked.length === 0) return null;
    return { kind: "path", ...at, items: ranked.map((i) => ({ value: `@${paths[i] ?? ""}` })) };
  }
  return null;
}

/**
 * Replaces the token with the item and puts the cursor after it, adding a space unless the item
 * is a directory (so the user can keep typing the path) or a space already follows.
 */
export function applyCompletion(s: EditorState, c: Completions, item: CompletionItem): EditorState {
  const cps = Array.from(s.lines[c.line] ?? "");
  const after = cps.slice(c.to);
  const isDir = item.value.endsWith("/");
  const text = cps.slice(0, c.from).join("") + item.value + (isDir || isSpace(after[0]) ? "" : " ") + after.join("");
  const lines = s.lines.map((l, i) => (i === c.line ? text : l));
  // After a file or command the cursor goes past the space (ours or one already there).
  const col = c.from + Array.from(item.value).length + (isDir ? 0 : 1);
  return { lines, line: c.line, col, goal: null };
}

/**
 * Indexes of `candidates` matching `query` (case-insensitive), best first, at most `limit`:
 * whole-string prefix matches, then matches on the last path segment, then fuzzy subsequence
 * matches by score. Prefix tiers keep the given order, or go shortest first with `shortestFirst`.
 */
export function rank(
  query: string,
  candidates: readonly string[],
  limit = MAX_COMPLETIONS,
  shortestFirst = true,
): number[] {
  const q = query.toLowerCase();
  const prefix: number[] = [];
  const base: number[] = [];
  const fuzzy: Array<{ i: number; score: number }> = [];
  candidates.forEach((cand, i) => {
    const c = cand.toLowerCase();
    if (c.startsWith(q)) return prefix.push(i);
    const trimmed = c.endsWith("/") ? c.slice(0, -1) : c;
    if (trimmed.slice(trimmed.lastIndexOf("/") + 1).startsWith(q)) return base.push(i);
    const score = fuzzyScore(q, cand);
    if (score !== null) fuzzy.push({ i, score });
  });
  const byLength = (a: number, b: number) =>
    (candidates[a]?.length ?? 0) - (candidates[b]?.length ?? 0) ||
    (candidates[a] ?? "").localeCompare(candidates[b] ?? "");
  if (shortestFirst) {
    prefix.sort(byLength);
    base.sort(byLength);
  }
  fuzzy.sort((a, b) => b.score - a.score || byLength(a.i, b.i));
  // What was typed in full leads: "/mode" offers /mode before /model.
  const exact = prefix.findIndex((i) => candidates[i]?.toLowerCase() === q);
  if (exact > 0) prefix.unshift(...prefix.splice(exact, 1));
  return [...prefix, ...base, ...fuzzy.map((f) => f.i)].slice(0, limit);
}

/**
 * Greedy subsequence match of lower-case `q` in `cand`: null when some character is missing;
 * otherwise higher for runs of consecutive matches and for matches at word starts
 * (after / . _ - or a space, or a camelCase hump), lower for each skipped character.
 */
function fuzzyScore(q: string, cand: string): number | null {
  const lower = cand.toLowerCase();
  let score = 0;
  let j = 0;
  let prev = -2;
  for (const ch of q) {
    const k = lower.indexOf(ch, j);
    if (k < 0) return null;
    const before = cand[k - 1];
    const hump = cand[k] !== lower[k] && before !== undefined && before === lower[k - 1];
    const boundary = before === undefined || /[/._\- ]/.test(before) || hump;
    score += 1 + (k === prev + 1 ? 3 : 0) + (boundary ? 2 : 0) - Math.min(k - j, 5) * 0.1;
    prev = k;
    j = k + ch.length;
  }
  return score;
}
