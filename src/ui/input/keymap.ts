// Key bindings as data: parsing and formatting binding specs ("ctrl+t", "alt+enter", "?"),
// matching them against parsed keys, and merging the user's overrides into the app's defaults.
import * as z from "../../protocol/zod.js";
import { namedKeys, type Key } from "./keys.js";

/** A parsed binding. `name` uses the parser's key names ("t", "enter", "pageup", "?"). */
export interface KeySpec {
  name: string;
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}

/** Action name -> binding specs, as the app's defaults and the config file write them. */
export type Keymap<A extends string = string> = Record<A, string[]>;
/** Action name -> parsed bindings; an empty list leaves the action unbound. */
export type ResolvedKeymap<A extends string = string> = Record<A, KeySpec[]>;

/** The `keys` section of config.json: action -> one spec or a list (replaces the default list). */
export const KeymapOverridesSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
export type KeymapOverrides = Readonly<Record<string, string | readonly string[]>>;

const ALIASES: Record<string, string> = {
  return: "enter",
  esc: "escape",
  del: "delete",
  ins: "insert",
  pgup: "pageup",
  pgdn: "pagedown",
  pgdown: "pagedown",
  bs: "backspace",
};
const MODIFIERS: Record<string, "ctrl" | "alt" | "shift"> = {
  ctrl: "ctrl",
  control: "ctrl",
  alt: "alt",
  meta: "alt",
  option: "alt",
  shift: "shift",
};
const NAMED = new Set(namedKeys);
// Chords a legacy terminal sends as another key's byte, so a binding on them could never fire
// (or would fire on the other key): ctrl+i is Tab, ctrl+m is Enter, ctrl+[ is Escape, ctrl+h is ^H.
const INDISTINGUISHABLE: Record<string, string> = { i: "tab", m: "enter", "[": "escape", h: "backspace" };

let segmenter: Intl.Segmenter | undefined;
function isOneGrapheme(s: string): boolean {
  // Key names are nearly always one UTF-16 unit, and the first segmenter costs ~20 ms (ICU's
  // break rules load): the keymap resolves before the first frame.
  if (s.length === 1) return true;
  // One astral code point (a surrogate pair) is one grapheme too.
  if (s.length === 2 && s.codePointAt(0)! > 0xffff) return true;
  return segmentCount(s) === 1;
}
function segmentCount(s: string): number {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  let n = 0;
  for (const _ of segmenter.segment(s)) if (++n > 1) return n;
  return n;
}
/** A character whose case carries shift: a letter with distinct upper and lower forms. */
const hasCase = (s: string) => s.toLowerCase() !== s.toUpperCase();

/**
 * Parses "ctrl+t", "alt+enter", "shift+tab", "pageup", "?", "ctrl+shift+o", "ctrl++".
 * Modifiers and named keys are case-insensitive; a lone upper-case letter means shift ("T" is
 * shift+t), and with other modifiers shift must be written out ("ctrl+shift+t", not "ctrl+T").
 */
export function parseKeySpec(spec: string): KeySpec | Error {
  const bad = (why: string) => new Error(`bad key binding "${spec}": ${why}`);
  if (spec.length === 0) return bad("empty");
  // The key itself may be "+": "+" alone, or "...++" after modifiers.
  let keyPart: string;
  let modParts: string[];
  if (spec === "+") {
    keyPart = "+";
    modParts = [];
  } else if (spec.endsWith("++")) {
    keyPart = "+";
    modParts = spec.slice(0, -2).split("+");
  } else {
    const parts = spec.split("+");
    keyPart = parts.pop() ?? "";
    modParts = parts;
  }
  const out: KeySpec = { name: "", ctrl: false, alt: false, shift: false };
  for (const m of modParts) {
    const field = MODIFIERS[m.toLowerCase()];
    if (field === undefined) return bad(m === "" ? "empty modifier" : `unknown modifier "${m}" (use ctrl, alt, shift)`);
    if (out[field]) return bad(`"${m}" given twice`);
    out[field] = true;
  }
  if (keyPart === "") return bad("no key after the modifiers");
  const lower = keyPart.toLowerCase();
  const named = ALIASES[lower] ?? lower;
  if (keyPart.length > 1 && NAMED.has(named)) {
    out.name = named;
  } else if (keyPart === " ") {
    out.name = "space";
  } else if (isOneGrapheme(keyPart)) {
    if (hasCase(keyPart) && keyPart !== lower) {
      if (out.ctrl || out.alt || out.shift) return bad(`write shift+${lower} for an upper-case letter with modifiers`);
      out.shift = true;
    } else if (out.shift && !hasCase(keyPart)) {
      return bad(`shift+${keyPart}: bind the shifted character itself (e.g. "?" rather than "shift+/")`);
    }
    out.name = lower;
    if (out.ctrl && out.name === "@") out.name = "space"; // ctrl+@ and ctrl+space are both NUL
  } else {
    return bad(`unknown key "${keyPart}" (named keys: ${namedKeys.join(", ")})`);
  }
  const other = out.ctrl && !out.alt && !out.shift ? INDISTINGUISHABLE[out.name] : undefined;
  if (other !== undefined) return bad(`terminals send ctrl+${out.name} as ${other}; bind "${other}" instead`);
  return out;
}

/**
 * Does `key` trigger `spec`? ctrl and alt must agree exactly. Shift must agree for letters and
 * named keys, but not for other characters: "?" is already the shifted "/" on the keyboard the
 * user has, so "?" matches whatever shift says.
 */
export function matches(key: Key, spec: KeySpec): boolean {
  if (key.name !== spec.name || key.ctrl !== spec.ctrl || key.alt !== spec.alt) return false;
  const isChar = !NAMED.has(spec.name);
  if (isChar && !hasCase(spec.name)) return true;
  return key.shift === spec.shift;
}

export const matchesAny = (key: Key, specs: readonly KeySpec[]): boolean => specs.some((s) => matches(key, s));

/** The first action (in `among` order, or the keymap's) that `key` triggers. */
export function findAction<A extends string>(keymap: ResolvedKeymap<A>, key: Key, among?: readonly A[]): A | undefined {
  const actions = among ?? (Object.keys(keymap) as A[]);
  return actions.find((a) => matchesAny(key, keymap[a]));
}

const DISPLAY: Record<string, string> = {
  enter: "Enter",
  tab: "Tab",
  backspace: "Backspace",
  escape: "Esc",
  space: "Space",
  up: "Up",
  down: "Down",
  left: "Left",
  right: "Right",
  home: "Home",
  end: "End",
  pageup: "PgUp",
  pagedown: "PgDn",
  insert: "Ins",
  delete: "Del",
  clear: "Clear",
};

/** For the shortcut sheet: "Ctrl-T", "Alt-Enter", "Shift-Tab", "PgUp", "?", "Ctrl-Shift-O". */
export function formatKeySpec(spec: KeySpec): string {
  const parts: string[] = [];
  const n = spec.name;
  // A bare letter shows as typed: y is y and Shift-a is A (on the approval card y/Y and a/A are
  // different answers); with Ctrl or Alt the letter is a capital, as usual (Ctrl-T).
  const bare = !spec.ctrl && !spec.alt && hasCase(n) && [...n].length === 1;
  if (spec.ctrl) parts.push("Ctrl");
  if (spec.alt) parts.push("Alt");
  if (spec.shift && !bare) parts.push("Shift");
  const letter = bare ? (spec.shift ? n.toUpperCase() : n) : hasCase(n) ? n.toUpperCase() : n;
  parts.push(DISPLAY[n] ?? (/^f\d+$/.test(n) ? n.toUpperCase() : letter));
  return parts.join("-");
}

/**
 * The app's defaults with the user's overrides applied; an override replaces the action's whole
 * list ([] unbinds it). Never throws: each unknown action or bad spec becomes one error naming
 * it, and that action keeps its default, so a typo in the config costs one binding, not the UI.
 * A bad default is a bug in the app; it is reported the same way and left unbound.
 */
export function resolveKeymap<A extends string>(
  defaults: Keymap<A>,
  overrides: KeymapOverrides = {},
): { keymap: ResolvedKeymap<A>; errors: string[] } {
  const errors: string[] = [];
  const parseList = (where: string, specs: readonly string[]): KeySpec[] | null => {
    const out: KeySpec[] = [];
    let ok = true;
    for (const s of specs) {
      const r = parseKeySpec(s);
      if (r instanceof Error) {
        errors.push(`${where}: ${r.message}`);
        ok = false;
      } else out.push(r);
    }
    return ok ? out : null;
  };
  const keymap = {} as ResolvedKeymap<A>;
  for (const action of Object.keys(defaults) as A[]) {
    keymap[action] = parseList(`default for ${action}`, defaults[action]) ?? [];
  }
  for (const [action, value] of Object.entries(overrides)) {
    if (!Object.hasOwn(defaults, action)) {
      errors.push(`keys.${action}: unknown action (known: ${Object.keys(defaults).join(", ")})`);
      continue;
    }
    const list = typeof value === "string" ? [value] : value;
    const parsed = parseList(`keys.${action}`, list);
    if (parsed) keymap[action as A] = parsed;
  }
  return { keymap, errors };
}
