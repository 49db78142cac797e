// The stdin parser: turns the raw terminal byte stream (keys, escape sequences, bracketed paste,
// terminal query replies) into InputEvents. Pure and synchronous; the app owns stdin and the clock.

/** One decoded key press. */
export interface Key {
  /** "a", "?", "é", "space", "enter", "up", "f5", "wheelup"/"wheeldown" (the mouse wheel), "focusin", "reply" (a terminal reply), "unknown". */
  name: string;
  ctrl: boolean;
  /** Alt, Option or Meta: terminals send all three as ESC + the key. */
  alt: boolean;
  shift: boolean;
  /** The raw input that produced this key. */
  sequence: string;
  /** Printable text of a character key typed without ctrl or alt ("A" for shift+a). */
  text?: string;
}

export type InputEvent =
  /** A key press, a focus change, or a terminal reply (name "reply") for the app to route. */
  | { kind: "key"; key: Key }
  /** A bracketed paste, CR and CRLF turned into \n; `truncated` when it ran past the cap. */
  | { kind: "paste"; text: string; truncated?: true };

export interface KeyParserOptions {
  /** Longest paste kept, in UTF-16 code units; the rest is dropped up to the end marker. Default 10 MB. */
  pasteCap?: number;
}

/** The names of the non-character keys the parser emits (f13-f20 come from rxvt's shifted F-keys). */
export const namedKeys: readonly string[] = [
  "enter",
  "tab",
  "backspace",
  "escape",
  "space",
  "up",
  "down",
  "left",
  "right",
  "home",
  "end",
  "pageup",
  "pagedown",
  "insert",
  "delete",
  "clear",
  ...Array.from({ length: 20 }, (_, i) => `f${i + 1}`),
];

const ESC = "\x1b";
const PASTE_END = "\x1b[201~";
/** A CSI or string sequence longer than this is not a real one: give up waiting for its end. */
const MAX_CSI = 256;
const MAX_STRING = 64 * 1024;

interface Mods {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
}
/** Events that come as keys but are not key presses, so ESC before them cannot mean Alt. */
const NOT_KEYS = new Set(["reply", "unknown", "focusin", "focusout"]);
const NONE: Mods = { ctrl: false, alt: false, shift: false };
/** Internal marker: the step opened a bracketed paste. */
const PASTE_START = { kind: "paste-start" } as const;
type Out = InputEvent | typeof PASTE_START;
/** What one parsing step consumed and produced; null = the input so far is an unfinished sequence. */
type Step = { events: Out[]; next: number } | null;

const key = (name: string, sequence: string, mods: Mods = NONE, text?: string): InputEvent => {
  const k: Key = { name, ctrl: mods.ctrl, alt: mods.alt, shift: mods.shift, sequence };
  if (text !== undefined && !mods.ctrl && !mods.alt) k.text = text;
  return { kind: "key", key: k };
};
const one = (event: Out, next: number): Step => ({ events: [event], next });
const unknown = (sequence: string): InputEvent => key("unknown", sequence);
const reply = (sequence: string): InputEvent => key("reply", sequence);

/** xterm's modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4 | meta 8); meta counts as alt. */
function decodeMods(param: string | undefined): Mods {
  const m = Number((param ?? "1").split(":")[0] || "1") - 1;
  if (!Number.isInteger(m) || m < 0) return NONE;
  return { shift: (m & 1) !== 0, alt: (m & 10) !== 0, ctrl: (m & 4) !== 0 };
}

/** A printable grapheme: upper-case letters become their lower-case name with shift. */
function charKey(g: string, mods: Mods = NONE): InputEvent {
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
function controlKey(c: number): InputEvent {
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
function altify(event: InputEvent, prefix: string): InputEvent {
  if (event.kind !== "key") return event;
  const { text: _text, ...k } = event.key;
  return { kind: "key", key: { ...k, alt: true, sequence: prefix + k.sequence } };
}

// CSI `~` numbers, xterm and rxvt/linux console (1/7 home, 4/8 end), rxvt's shifted F-keys as f13+.
const TILDE: Record<string, string> = {
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
const CSI_LETTER: Record<string, string> = {
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
const SS3: Record<string, string> = { ...CSI_LETTER, M: "enter" };
const SS3_CTRL: Record<string, string> = { a: "up", b: "down", c: "right", d: "left" };
const KEYPAD: Record<string, string> = {
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
function codePointKey(code: number, mods: Mods, seq: string): InputEvent {
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
function graphemes(s: string): string[] {
  if (/^[\x20-\x7e]*$/.test(s)) return s.split("");
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(segmenter.segment(s), (x) => x.segment);
}

/**
 * Contract: `feed` returns every event the input so far completes, in order, and keeps an
 * unfinished escape sequence, UTF-8 sequence, surrogate pair or paste for the next chunk.
 * A lone ESC is ambiguous (Escape, or the start of a sequence still in flight): when `pending`
 * stays true for ~25 ms with no more input, call `flush` to settle it. `flush` never ends a paste.
 */
export class KeyParser {
  private buf = "";
  private paste: { parts: string[]; size: number; truncated: boolean } | null = null;
  private readonly decoder = new TextDecoder("utf-8");
  private readonly pasteCap: number;

  constructor(options: KeyParserOptions = {}) {
    this.pasteCap = options.pasteCap ?? 10 * 1024 * 1024;
  }

  /** Feed a chunk: strings (stdin with setEncoding("utf8")) or raw bytes, one kind throughout. */
  feed(chunk: string | Uint8Array): InputEvent[] {
    this.buf += typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.drain(false);
  }

  /** Settle a pending ESC prefix: a lone ESC is the Escape key, a cut-off sequence is "unknown". */
  flush(): InputEvent[] {
    return this.paste ? [] : this.drain(true);
  }

  /** True while input is buffered that a later chunk may complete (including an open paste). */
  get pending(): boolean {
    return this.buf.length > 0 || this.paste !== null;
  }

  private drain(final: boolean): InputEvent[] {
    const out: InputEvent[] = [];
    const buf = this.buf;
    let i = 0;
    while (i < buf.length) {
      if (this.paste) {
        const end = buf.indexOf(PASTE_END, i);
        if (end < 0) {
          // Hold back a tail that may be the start of the end marker split across chunks.
          const rest = buf.slice(i);
          let keep = Math.min(PASTE_END.length - 1, rest.length);
          while (keep > 0 && !PASTE_END.startsWith(rest.slice(rest.length - keep))) keep--;
          this.appendPaste(rest.slice(0, rest.length - keep));
          i = buf.length - keep;
          break;
        }
        this.appendPaste(buf.slice(i, end));
        const { parts, truncated } = this.paste;
        const text = parts.join("").replace(/\r\n?/g, "\n");
        out.push(truncated ? { kind: "paste", text, truncated } : { kind: "paste", text });
        this.paste = null;
        i = end + PASTE_END.length;
        continue;
      }
      const step = this.step(buf, i, final);
      if (step === null) break;
      for (const e of step.events) {
        if (e.kind === "paste-start") this.paste = { parts: [], size: 0, truncated: false };
        else out.push(e);
      }
      i = step.next;
    }
    this.buf = buf.slice(i);
    return out;
  }

  private appendPaste(s: string): void {
    const p = this.paste;
    if (!p || p.truncated || s.length === 0) return;
    let room = this.pasteCap - p.size;
    if (s.length > room) {
      const c = s.charCodeAt(room - 1);
      if (room > 0 && c >= 0xd800 && c <= 0xdbff) room--; // do not cut a surrogate pair in half
      s = s.slice(0, room);
      p.truncated = true;
    }
    p.parts.push(s);
    p.size += s.length;
  }

  private step(buf: string, i: number, final: boolean): Step {
    const c = buf.charCodeAt(i);
    if (c === 0x1b) return this.escape(buf, i, final);
    if (c < 0x20 || c === 0x7f) return one(controlKey(c), i + 1);
    if (c >= 0x80 && c <= 0x9f) return one(unknown(buf[i] ?? ""), i + 1); // C1 controls: never text
    // A run of printable text: one key per grapheme, so "abc\r" is a, b, c and then Enter.
    let j = i;
    while (j < buf.length) {
      const d = buf.charCodeAt(j);
      if (d < 0x20 || d === 0x7f || (d >= 0x80 && d <= 0x9f)) break;
      j++;
    }
    const last = buf.charCodeAt(j - 1);
    if (!final && j === buf.length && last >= 0xd800 && last <= 0xdbff) j--; // the pair's low half is still in flight
    if (j === i) return null;
    const gs = graphemes(buf.slice(i, j));
    // A run ending in a zero-width joiner is an emoji sequence still arriving: wait for the rest.
    // (A cut just before the joiner cannot be seen; the text is right, in two keys.)
    if (!final && j === buf.length && gs.at(-1)?.endsWith("\u200d")) {
      const held = gs.pop() ?? "";
      if (gs.length === 0) return null;
      j -= held.length;
    }
    return { events: gs.map((g) => charKey(g)), next: j };
  }

  private escape(buf: string, i: number, final: boolean): Step {
    const c1 = buf[i + 1];
    if (c1 === undefined) return final ? one(key("escape", ESC), i + 1) : null;
    switch (c1) {
      case "[":
        return this.csi(buf, i, final);
      case "O":
        return this.ss3(buf, i, final);
      case "]":
      case "P":
      case "_":
        return this.stringSequence(buf, i, c1, final);
      case ESC:
        return this.escEsc(buf, i, final);
    }
    // Alt+key: ESC, then the key's own byte(s).
    const c = buf.charCodeAt(i + 1);
    if (c < 0x20 || c === 0x7f) return one(altify(controlKey(c), ESC), i + 2);
    if (c >= 0x80 && c <= 0x9f) return one(unknown(buf.slice(i, i + 2)), i + 2);
    if (c >= 0xd800 && c <= 0xdbff) {
      if (i + 2 >= buf.length) return final ? one(unknown(buf.slice(i)), buf.length) : null;
      return one(altify(charKey(buf.slice(i + 1, i + 3)), ESC), i + 3);
    }
    return one(altify(charKey(c1), ESC), i + 2);
  }

  /** ESC ESC: rxvt sends Alt+<special key> as ESC + the key's own sequence (ESC ESC [ A). */
  private escEsc(buf: string, i: number, final: boolean): Step {
    const c2 = buf[i + 2];
    if (c2 === undefined) return final ? one(key("escape", ESC), i + 1) : null;
    if (c2 === "[" || c2 === "O") {
      const inner = this.escape(buf, i + 1, final);
      if (inner === null) return null;
      const e = inner.events[0];
      if (inner.events.length === 1 && e?.kind === "key" && !NOT_KEYS.has(e.key.name)) {
        return one(altify(e, ESC), inner.next);
      }
    }
    return one(key("escape", ESC), i + 1); // the first ESC was a plain Escape; parse the rest anew
  }

  private csi(buf: string, i: number, final: boolean): Step {
    const n = buf.length;
    let j = i + 2;
    if (j >= n) return final ? one(altify(charKey("["), ESC), j) : null;
    if (buf[j] === "[") {
      // Linux console F1-F5: ESC [ [ A .. ESC [ [ E.
      const f = buf[j + 1];
      if (f === undefined) return final ? one(unknown(buf.slice(i)), n) : null;
      const k = "ABCDE".indexOf(f);
      const seq = buf.slice(i, j + 2);
      return one(k >= 0 ? key(`f${k + 1}`, seq) : unknown(seq), j + 2);
    }
    const p0 = j;
    while (j < n && buf.charCodeAt(j) >= 0x30 && buf.charCodeAt(j) <= 0x3f) j++;
    const params = buf.slice(p0, j);
    // rxvt ends modified keys with $ (shift), ^ (ctrl) or @ (ctrl+shift): ESC [ 2 $ is shift+insert.
    // `$` is an intermediate byte in ECMA-48, but replies that use it (DECRPM) always carry a `;`.
    if (buf[j] === "$" && /^\d+$/.test(params)) {
      return { events: this.decodeCsi(params, "", "$", buf.slice(i, j + 1)), next: j + 1 };
    }
    const i0 = j;
    while (j < n && buf.charCodeAt(j) >= 0x20 && buf.charCodeAt(j) <= 0x2f) j++;
    if (j >= n) {
      if (j - i > MAX_CSI || final) return one(unknown(buf.slice(i)), n);
      return null;
    }
    const f = buf.charCodeAt(j);
    if (f < 0x40 || f > 0x7e) return one(unknown(buf.slice(i, j)), j); // malformed: drop what we read
    return { events: this.decodeCsi(params, buf.slice(i0, j), buf[j] ?? "", buf.slice(i, j + 1)), next: j + 1 };
  }

  private decodeCsi(params: string, inter: string, final: string, seq: string): Out[] {
    if (final === "~" && params === "200") return [PASTE_START];
    if (final === "~" && params === "201") return []; // a stray end marker
    const parts = params.split(";");
    const first = parts[0] ?? "";
    const lead = params[0];
    // Replies to the app's queries: private-mode (DA1 ESC[?..c, DA2 ESC[>..c, DECRPM ESC[?..$y),
    // ANSI-mode DECRPM (ESC[..$y), status (ESC[0n), window reports (ESC[..t), and a cursor position
    // report unless it reads as xterm's modified F3 (ESC[1;5R is ctrl+F3 and also row 1 col 5).
    if (lead === "?" || lead === ">" || lead === "=") return [reply(seq)];
    if ((inter === "$" && final === "y") || final === "n" || final === "t") return [reply(seq)];
    if (final === "R" && parts.length === 2 && first !== "1") return [reply(seq)];
    // SGR mouse reports (screen.ts turns them on for the wheel): ESC [ < button ; x ; y M|m. Wheel
    // up is button 64, down 65 (plus 4/8/16 for modifiers); clicks and drags are not keys.
    if (lead === "<" && inter === "" && (final === "M" || final === "m")) {
      const button = Number(params.slice(1).split(";")[0]);
      if (final === "M" && (button & 64) !== 0 && (button & 3) < 2)
        return [key((button & 1) === 0 ? "wheelup" : "wheeldown", seq)];
      return [unknown(seq)];
    }
    if (inter !== "" || lead === "<") return [unknown(seq)];
    const mods = decodeMods(parts[1]);
    const letter = CSI_LETTER[final];
    if (letter !== undefined) return [key(letter, seq, mods)];
    switch (final) {
      case "Z":
        return [key("tab", seq, { ...mods, shift: true })];
      case "I":
      case "O":
        return [params === "" ? key(final === "I" ? "focusin" : "focusout", seq) : unknown(seq)];
      case "a":
      case "b":
      case "c":
      case "d": // rxvt shift+arrows
        return [params === "" ? key(SS3_CTRL[final] ?? "unknown", seq, { ...NONE, shift: true }) : unknown(seq)];
      case "u": {
        // kitty keyboard protocol: ESC [ code ; mods(:event) u. Event 3 is a key release.
        if ((parts[1] ?? "").split(":")[1] === "3") return [];
        return [codePointKey(Number(first.split(":")[0]), mods, seq)];
      }
      case "~":
      case "$":
      case "^":
      case "@": {
        // xterm modifyOtherKeys: ESC [ 27 ; mods ; code ~.
        if (first === "27" && final === "~") return [codePointKey(Number(parts[2]), mods, seq)];
        const name = TILDE[first];
        if (name === undefined) return [unknown(seq)];
        const rxvt = { ...NONE, shift: final === "$" || final === "@", ctrl: final === "^" || final === "@" };
        return [key(name, seq, final === "~" ? mods : rxvt)];
      }
    }
    return [unknown(seq)];
  }

  private ss3(buf: string, i: number, final: boolean): Step {
    const n = buf.length;
    let j = i + 2;
    // Some terminals put a modifier digit in SS3 (ESC O 5 A).
    while (j < n && j - i < 5 && buf.charCodeAt(j) >= 0x30 && buf.charCodeAt(j) <= 0x39) j++;
    const f = buf[j];
    if (f === undefined) {
      if (!final) return null;
      // After the timeout an unfinished ESC O is Alt+O; digits that follow are plain keys.
      return one(altify(charKey("O"), ESC), i + 2);
    }
    const seq = buf.slice(i, j + 1);
    const mods = j > i + 2 ? decodeMods(buf.slice(i + 2, j)) : NONE;
    const named = SS3[f];
    if (named !== undefined) return one(key(named, seq, mods), j + 1);
    const ctrlArrow = SS3_CTRL[f];
    if (ctrlArrow !== undefined) return one(key(ctrlArrow, seq, { ...mods, ctrl: true }), j + 1);
    const pad = KEYPAD[f];
    if (pad !== undefined) return one(charKey(pad, mods), j + 1);
    // Not an SS3 key: it was Alt+O followed by ordinary input.
    return one(altify(charKey("O"), ESC), i + 2);
  }

  /** OSC (ESC ] 11;rgb:.. BEL|ST), DCS (ESC P >|xterm(..) ST) and APC (ESC _ G.. ST) replies. */
  private stringSequence(buf: string, i: number, c1: string, final: boolean): Step {
    const n = buf.length;
    const c2 = buf[i + 2];
    if (c2 === undefined) return final ? one(altify(charKey(c1), ESC), i + 2) : null;
    // Replies start with a digit (OSC), a DCS parameter, or G (kitty graphics); anything else was
    // the user pressing Alt+] / Alt+P / Alt+_, which must not swallow the keys that follow.
    const opens = c1 === "]" ? /[0-9]/ : c1 === "P" ? /[0-9>!|=$+]/ : /G/;
    if (!opens.test(c2)) return one(altify(charKey(c1), ESC), i + 2);
    for (let k = i + 2; k < n; k++) {
      const c = buf[k];
      if (c === "\x07") return one(reply(buf.slice(i, k + 1)), k + 1);
      if (c !== ESC) continue;
      const d = buf[k + 1];
      if (d === undefined) break;
      if (d === "\\") return one(reply(buf.slice(i, k + 2)), k + 2);
      return one(unknown(buf.slice(i, k)), k); // cut short by another sequence
    }
    if (final || n - i > MAX_STRING) return one(unknown(buf.slice(i)), n);
    return null;
  }
}
