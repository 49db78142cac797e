// Small text helpers the dialogs' rows share: ages ("5m ago"), paths cut from the front or shown
// under ~, search snippets with their matches marked, and the longest form of a hint that fits.
import { visibleWidth } from "../render/wrap.js";
import type { Palette } from "../theme/palette.js";

/** "now", "5m ago", "3h ago", "2d ago", then the date. */
export function formatAge(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return "";
  const s = Math.max(0, Math.floor((now - then) / 1000));
  if (s < 60) return "now";
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  if (s < 30 * 86_400) return `${Math.floor(s / 86_400)}d ago`;
  return iso.slice(0, 10);
}

/** `~/x` for paths under $HOME. */
export function shortPath(path: string): string {
  const home = process.env.HOME;
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

/** A search snippet with the matched words (in [ ]) painted as matches, brackets dropped. */
export function markSnippet(p: Palette, snippet: string): string {
  // Without colour (NO_COLOR) the brackets are the only mark: they stay.
  if (p.searchMatch("x") === "x") return snippet;
  return snippet.replace(/\[([^[\]\n]+)\]/g, (_m, word: string) => p.searchMatch(word));
}

/** Keeps the end of a path (its last folders tell workspaces apart): "…/nh-demo/other". */
export function truncatePath(path: string, width: number): string {
  if (visibleWidth(path) <= width) return path;
  const chars = [...path];
  let out = "";
  for (let i = chars.length - 1; i >= 0 && visibleWidth(chars[i] + out) <= width - 1; i--) out = chars[i] + out;
  return `…${out}`;
}

/** The longest of `forms` that fits `width` (the last one otherwise). */
export function fitting(forms: string[], width: number): string {
  return forms.find((f) => visibleWidth(f) <= width) ?? forms.at(-1) ?? "";
}
