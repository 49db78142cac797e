// The stdin parser: turns the raw terminal byte stream (keys, escape sequences, bracketed paste,
// terminal query replies) into InputEvents. Pure and synchronous; the app owns stdin and the clock.
import {
  ESC,
  PASTE_END,
  MAX_CSI,
  MAX_STRING,
  NOT_KEYS,
  NONE,
  PASTE_START,
  key,
  one,
  unknown,
  reply,
  decodeMods,
  charKey,
  controlKey,
  altify,
  TILDE,
  CSI_LETTER,
  SS3,
  SS3_CTRL,
  KEYPAD,
  codePointKey,
  graphemes,
  type Out,
  type Step,
} from "./key-decode.js";

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
