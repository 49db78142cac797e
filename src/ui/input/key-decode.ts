// The single keys of the stdin parser (keys.ts): the tables of escape sequences (CSI, SS3, the
// keypad, kitty's code points), modifier decoding, control characters and printable graphemes,
// each turned into an InputEvent. Pure; the parser decides where a sequence starts and ends.
import type { InputEvent, Key } from "./keys.js";

export const ESC = "\x1b";
export const PASTE_END = "\x1b[201~";
/** A CSI or string sequence longer than this is not a real one: give up waiting for its end. */
export const MAX_CSI = 256;
export const MAX_STRING = 64 * 1024;

export interface Mods {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}
/** Events that come as keys but are not key presses, so ESC before them cannot mean Alt. */
export const NOT_KEYS = new Set(["reply", "unknown", "focusin", "focusout"]);
export const NONE: Mods = { ctrl: false, alt: false, shift: false };
/** Internal marker: the step opened a bracketed paste. */
export const PASTE_START = { kind: "paste-start" } as const;
export type Out = InputEvent | typeof PASTE_START;
/** What one parsing step consumed and produced; null = the input so far is an unfinished sequence. */
export type Step = { events: Out[]; next: number } | null;

export const key = (name: string, sequence: string, mods: Mods = NONE, text?: string): InputEvent => {
  const k: Key = { name, ctrl: mods.ctrl, alt: mods.alt, shift: mods.shift, sequence };
  if (text !== undefined && !mods.ctrl && !mods.alt) k.text = text;
  return { kind: "key", key: k };
};
export const one = (event: Out, next: number): Step => ({ events: [event], next });
export const unknown = (sequence: string): InputEvent => key("unknown", sequence);
export const reply = (sequence: string): InputEvent => key("reply", sequence);

/** xterm's modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4 | meta 8); meta counts as alt. */
export function decodeMods(param: string | undefined): Mods {
  const m = Number((param ?? "1").split(":")[0] || "1") - 1;
  if (!Number.isInteger(m) || m < 0) return NONE;
  return { shift: (m & 1) !== 0, alt: (m & 10) !== 0, ctrl: (m & 4) !== 0 };
}

/** A printable grapheme: upper-case letters become their lower-case name with shift. */
export function charKey(g: string, mods: Mods = NONE): InputEvent {
  if (g === " ") return key("space", g, mods, " ");
  if (isLoneSurrogate(g)) return unknown(g);
  const lower = g.toLowerCase();
  const upper = lower !== g && g.toUpperCase() === g;
  return key(upper ? lower : g, g, { ...mods, shift: mods.shift || upper }, g);
}

function isLoneSurrogate(s: string): boolean {
  const c = s.charCodeAt(s.length - 1);
  return s.length === 1 && c >= 0xd800 && c <= 0xdfff;
}

/** C0 controls and DEL. Tab, Enter and Backspace keep their names; the rest are ctrl+key. */
export function controlKey(c: number): InputEvent {
  const seq = String.fromCharCode(c);
  const ctrl = { ...NONE, ctrl: true };
  switch (c) {
    case 0x00:
      return key("space", seq, ctrl); // ctrl+space and ctrl+@ both send NUL
    case 0x08:
    case 0x7f:
      return key("backspace", seq); // ^H: Backspace on some terminals (and ctrl+backspace on others)
    case 0x09:
      return key("tab", seq);
    case 0x0d:
      return key("enter", seq);
    case 0x0a:
      return key("j", seq, ctrl); // ctrl+j, a distinct key from Enter in raw mode
  }
  if (c <= 0x1a) return key(String.fromCharCode(c + 0x60), seq, ctrl);
  if (c >= 0x1c && c <= 0x1f) return key("\\]^_"[c - 0x1c] ?? "unknown", seq, ctrl);
  return unknown(seq);
}

/** The key an ESC prefix turns into Alt+key: same key, alt set, no text to insert. */
export function altify(event: InputEvent, prefix: string): InputEvent {
  if (event.kind !== "key") return event;
  const { text: _text, ...k } = event.key;
  return { kind: "key", key: { ...k, alt: true, sequence: prefix + k.sequence } };
}

// CSI `~` numbers, xterm and rxvt/linux console (1/7 home, 4/8 end), rxvt's shifted F-keys as f13+.
export const TILDE: Record<string, string> = {
  "1": "home",
  "2": "insert",
  "3": "delete",
  "4": "end",
  "5": "pageup",
  "6": "pagedown",
  "7": "home",
  "8": "end",
  "11": "f1",
  "12": "f2",
  "13": "f3",
  "14": "f4",
  "15": "f5",
  "17": "f6",
  "18": "f7",
  "19": "f8",
  "20": "f9",
  "21": "f10",
  "23": "f11",
  "24": "f12",
  "25": "f13",
  "26": "f14",
  "28": "f15",
  "29": "f16",
  "31": "f17",
  "32": "f18",
  "33": "f19",
  "34": "f20",
};
export const CSI_LETTER: Record<string, string> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  E: "clear",
  P: "f1",
  Q: "f2",
  R: "f3",
  S: "f4",
};
// SS3 (ESC O x): application cursor keys, F1-F4, rxvt ctrl+arrows (lower case), keypad in
// application mode (ESC O p = keypad 0 ...).
export const SS3: Record<string, string> = { ...CSI_LETTER, M: "enter" };
export const SS3_CTRL: Record<string, string> = { a: "up", b: "down", c: "right", d: "left" };
export const KEYPAD: Record<string, string> = {
  j: "*",
  k: "+",
  l: ",",
  m: "-",
  n: ".",
  o: "/",
  X: "=",
  p: "0",
  q: "1",
  r: "2",
  s: "3",
  t: "4",
  u: "5",
  v: "6",
  w: "7",
  x: "8",
  y: "9",
};

const CODE_POINT_NAMES: Record<number, string> = {
  8: "backspace",
  9: "tab",
  13: "enter",
  27: "escape",
  32: "space",
  127: "backspace",
};
/** A key given by code point (kitty's CSI u and xterm's modifyOtherKeys), with modifiers. */
export function codePointKey(code: number, mods: Mods, seq: string): InputEvent {
  const name = CODE_POINT_NAMES[code];
  if (name !== undefined) return key(name, seq, mods, code === 32 ? " " : undefined);
  // Outside Unicode, a control, or kitty's private-use functional keys: nothing we can name.
  if (!Number.isInteger(code) || code < 32 || code > 0x10ffff || (code >= 0xe000 && code <= 0xf8ff))
    return unknown(seq);
  const ch = String.fromCodePoint(code);
  const base = charKey(ch, mods);
  if (base.kind !== "key") return base;
  return key(base.key.name, seq, base.key, base.key.shift ? ch.toUpperCase() : ch);
}

let segmenter: Intl.Segmenter | undefined;
/** Graphemes of a printable run; plain ASCII skips the (slower) segmenter. */
export function graphemes(s: string): string[] {
  if (/^[\x20-\x7e]*$/.test(s)) return s.split("");
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(segmenter.segment(s), (x) => x.segment);
}
