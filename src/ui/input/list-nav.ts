// Moving a selection through a list: which step a key is (↑↓, PgUp PgDn, Home End) and the index
// it leads to. Pure; every list-like dialog (dialogs/) moves its selection with it.
import type { Key } from "./keys.js";

export type ListStep = "up" | "down" | "pageUp" | "pageDown" | "home" | "end";

/** Rows a page key moves: about what a dialog's list shows. */
export const LIST_PAGE = 8;

const stepOfName: Record<string, ListStep> = {
  up: "up",
  down: "down",
  pageup: "pageUp",
  pagedown: "pageDown",
  home: "home",
  end: "end",
};

/**
 * The step `key` is, or null. `field`: a text field beside the list has the keys: Home and End
 * move its cursor, so only ↑↓ and the page keys move the list.
 */
export function listStep(key: Key, opts: { field?: boolean } = {}): ListStep | null {
  if (key.ctrl || key.alt || key.shift) return null;
  const step = stepOfName[key.name] ?? null;
  if (opts.field && (step === "home" || step === "end")) return null;
  return step;
}

/**
 * The index after `step` in a list of `count` items, kept inside it. `wrap`: ↑ on the first goes
 * to the last and ↓ on the last to the first (page keys and Home/End still stop at the ends).
 */
export function moveIndex(
  index: number,
  count: number,
  step: ListStep,
  opts: { wrap?: boolean; page?: number } = {},
): number {
  if (count <= 0) return 0;
  const at = Math.max(0, Math.min(count - 1, index));
  const page = opts.page ?? LIST_PAGE;
  switch (step) {
    case "up":
      return opts.wrap ? (at + count - 1) % count : Math.max(0, at - 1);
    case "down":
      return opts.wrap ? (at + 1) % count : Math.min(count - 1, at + 1);
    case "pageUp":
      return Math.max(0, at - page);
    case "pageDown":
      return Math.min(count - 1, at + page);
    case "home":
      return 0;
    case "end":
      return count - 1;
    default:
      step satisfies never;
      return at;
  }
}
