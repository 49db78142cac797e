import { describe, expect, it } from "vitest";
import { KeyParser, type InputEvent } from "../../../src/ui/input/keys.js";

/** "ctrl+alt+shift+name" for keys, `paste:"text"` for pastes: short enough for tables. */
function show(e: InputEvent): string {
  if (e.kind === "paste") return `paste:${JSON.stringify(e.text)}${e.truncated ? "(truncated)" : ""}`;
  const k = e.key;
  return `${k.ctrl ? "ctrl+" : ""}${k.alt ? "alt+" : ""}${k.shift ? "shift+" : ""}${k.name}`;
}

/** Feeds each chunk in turn, then flushes when asked (the app's ESC timeout firing). */
function parse(chunks: string | Array<string | Uint8Array>, flush = false): string[] {
  const p = new KeyParser();
  const out = (typeof chunks === "string" ? [chunks] : chunks).flatMap((c) => p.feed(c));
  if (flush) out.push(...p.flush());
  return out.map(show);
}

describe("KeyParser: characters", () => {
  it.each([
    ["a", ["a"]],
    ["A", ["shift+a"]],
    ["?", ["?"]],
    ["1", ["1"]],
    [" ", ["space"]],
    ["é", ["é"]],
    ["É", ["shift+é"]],
    ["日本", ["日", "本"]],
    ["👍", ["👍"]],
    ["👨‍👩‍👧", ["👨‍👩‍👧"]],
    ["e\u0301", ["e\u0301"]],
    ["abc\r", ["a", "b", "c", "enter"]],
    ["hi\x1b[Aok", ["h", "i", "up", "o", "k"]],
  ])("%j -> %j", (input, expected) => {
    expect(parse(input)).toEqual(expected);
  });

  it("gives character keys their printable text, upper case included", () => {
    const [a, b] = new KeyParser().feed("aB");
    expect(a).toEqual({
      kind: "key",
      key: { name: "a", ctrl: false, alt: false, shift: false, sequence: "a", text: "a" },
    });
    expect(b?.kind === "key" && b.key.text).toBe("B");
  });

  it("gives named keys and alt chords no text, so the composer never inserts them", () => {
    const events = new KeyParser().feed("\r\x1ba\x1b[A");
    expect(events.map((e) => (e.kind === "key" ? e.key.text : "paste"))).toEqual([undefined, undefined, undefined]);
  });
});

describe("KeyParser: control bytes", () => {
  it.each([
    ["\r", "enter"],
    ["\n", "ctrl+j"],
    ["\t", "tab"],
    ["\x7f", "backspace"],
    ["\x08", "backspace"],
    ["\x03", "ctrl+c"],
    ["\x01", "ctrl+a"],
    ["\x17", "ctrl+w"],
    ["\x1a", "ctrl+z"],
    ["\x00", "ctrl+space"],
    ["\x1c", "ctrl+\\"],
    ["\x1d", "ctrl+]"],
    ["\x1e", "ctrl+^"],
    ["\x1f", "ctrl+_"],
    ["\x85", "unknown"],
  ])("%j -> %s", (input, expected) => {
    expect(parse(input)).toEqual([expected]);
  });
});

describe("KeyParser: CSI and SS3 keys", () => {
  it.each([
    ["\x1b[A", "up"],
    ["\x1b[B", "down"],
    ["\x1b[C", "right"],
    ["\x1b[D", "left"],
    ["\x1b[H", "home"],
    ["\x1b[F", "end"],
    ["\x1b[1;5A", "ctrl+up"],
    ["\x1b[1;3B", "alt+down"],
    ["\x1b[1;2C", "shift+right"],
    ["\x1b[1;4D", "alt+shift+left"],
    ["\x1b[1;6A", "ctrl+shift+up"],
    ["\x1b[1;7H", "ctrl+alt+home"],
    ["\x1b[1;8F", "ctrl+alt+shift+end"],
    ["\x1b[1;9A", "alt+up"],
    ["\x1bOA", "up"],
    ["\x1bOD", "left"],
    ["\x1bOH", "home"],
    ["\x1bOF", "end"],
    ["\x1bOP", "f1"],
    ["\x1bOQ", "f2"],
    ["\x1bOR", "f3"],
    ["\x1bOS", "f4"],
    ["\x1bO2P", "shift+f1"],
    ["\x1bOM", "enter"],
    ["\x1bOa", "ctrl+up"],
    ["\x1bOd", "ctrl+left"],
    ["\x1bOp", "0"],
    ["\x1bOk", "+"],
    ["\x1b[1~", "home"],
    ["\x1b[7~", "home"],
    ["\x1b[4~", "end"],
    ["\x1b[8~", "end"],
    ["\x1b[2~", "insert"],
    ["\x1b[3~", "delete"],
    ["\x1b[5~", "pageup"],
    ["\x1b[6~", "pagedown"],
    ["\x1b[3;5~", "ctrl+delete"],
    ["\x1b[5;2~", "shift+pageup"],
    ["\x1b[6;3~", "alt+pagedown"],
    ["\x1b[11~", "f1"],
    ["\x1b[12~", "f2"],
    ["\x1b[15~", "f5"],
    ["\x1b[17~", "f6"],
    ["\x1b[21~", "f10"],
    ["\x1b[23~", "f11"],
    ["\x1b[24~", "f12"],
    ["\x1b[24;5~", "ctrl+f12"],
    ["\x1b[1;2P", "shift+f1"],
    ["\x1b[1;5R", "ctrl+f3"],
    ["\x1b[[A", "f1"],
    ["\x1b[[B", "f2"],
    ["\x1b[[E", "f5"],
    ["\x1b[Z", "shift+tab"],
    ["\x1b[2$", "shift+insert"],
    ["\x1b[3^", "ctrl+delete"],
    ["\x1b[5@", "ctrl+shift+pageup"],
    ["\x1b[a", "shift+up"],
    ["\x1b[d", "shift+left"],
    ["\x1b[13;2u", "shift+enter"],
    ["\x1b[97;5u", "ctrl+a"],
    ["\x1b[127;3u", "alt+backspace"],
    ["\x1b[27;5;13~", "ctrl+enter"],
    ["\x1b[27;2;9~", "shift+tab"],
    ["\x1b[I", "focusin"],
    ["\x1b[O", "focusout"],
  ])("%j -> %s", (input, expected) => {
    expect(parse(input)).toEqual([expected]);
  });

  it("ignores kitty key-release events", () => {
    expect(parse("\x1b[97;1:3u")).toEqual([]);
  });

  it("keeps the raw sequence on the key", () => {
    const [e] = new KeyParser().feed("\x1b[1;5A");
    expect(e?.kind === "key" && e.key.sequence).toBe("\x1b[1;5A");
  });
});

describe("KeyParser: alt chords", () => {
  it.each([
    ["\x1ba", ["alt+a"]],
    ["\x1bA", ["alt+shift+a"]],
    ["\x1b\r", ["alt+enter"]],
    ["\x1b\x7f", ["alt+backspace"]],
    ["\x1b\x01", ["ctrl+alt+a"]],
    ["\x1b.", ["alt+."]],
    ["\x1bé", ["alt+é"]],
    ["\x1b👍", ["alt+👍"]],
    ["\x1b\x1b[A", ["alt+up"]],
    ["\x1b\x1bOB", ["alt+down"]],
    ["\x1b\x1bx", ["escape", "alt+x"]],
    // Alt+] / Alt+P / Alt+_ / Alt+O start no reply and must not swallow the keys after them.
    ["\x1b]x", ["alt+]", "x"]],
    ["\x1bPq", ["alt+shift+p", "q"]],
    ["\x1b_a", ["alt+_", "a"]],
    ["\x1bOz", ["alt+shift+o", "z"]],
  ])("%j -> %j", (input, expected) => {
    expect(parse(input)).toEqual(expected);
  });
});

describe("KeyParser: terminal replies and unknown sequences", () => {
  it.each([
    ["\x1b[?62;22c", "DA1"],
    ["\x1b[>1;10;0c", "DA2"],
    ["\x1b[?2026;2$y", "DECRPM (private)"],
    ["\x1b[12;1$y", "DECRPM (ANSI)"],
    ["\x1bP>|xterm(390)\x1b\\", "XTVERSION"],
    ["\x1b]11;rgb:0000/0000/0000\x1b\\", "OSC 11 with ST"],
    ["\x1b]11;rgb:ffff/ffff/ffff\x07", "OSC 11 with BEL"],
    ["\x1b_Gi=1;OK\x1b\\", "kitty graphics APC"],
    ["\x1b[0n", "DSR"],
    ["\x1b[12;40R", "cursor position report"],
    ["\x1b[?1u", "kitty flags"],
  ])("%j (%s) is one reply with its raw sequence", (input) => {
    const events = new KeyParser().feed(input);
    expect(events).toEqual([
      { kind: "key", key: { name: "reply", ctrl: false, alt: false, shift: false, sequence: input } },
    ]);
  });

  it.each([
    ["\x1b[99~", ["unknown"]],
    ["\x1b[1;5X", ["unknown"]],
    ["\x1b[<0;10;5M", ["unknown"]],
    ["\x1b[[Z", ["unknown"]],
    ["\x1b[12\x01", ["unknown", "ctrl+a"]],
    ["\x1b]11;rgb\x1b[A", ["unknown", "up"]],
  ])("%j -> %j, never stray characters", (input, expected) => {
    expect(parse(input)).toEqual(expected);
  });

  it("replies arrive between keys without disturbing them", () => {
    expect(parse("a\x1b[?62c\x1b]11;rgb:1/2/3\x07b")).toEqual(["a", "reply", "reply", "b"]);
  });
});

describe("KeyParser: bracketed paste", () => {
  const START = "\x1b[200~";
  const END = "\x1b[201~";

  it.each([
    [`${START}hello${END}`, ['paste:"hello"']],
    [`${START}a\r\nb\rc\nd${END}`, ['paste:"a\\nb\\nc\\nd"']],
    [`${START}${END}`, ['paste:""']],
    [`x${START}line\r${END}\r`, ["x", 'paste:"line\\n"', "enter"]],
    [`${START}\x1b[A\x03${END}`, ['paste:"\\u001b[A\\u0003"']],
    [`${START}日本👍${END}`, ['paste:"日本👍"']],
    [`${END}a`, ["a"]],
  ])("%j -> %j", (input, expected) => {
    expect(parse(input)).toEqual(expected);
  });

  it("makes one paste however the input is cut into two and three chunks", () => {
    const input = `${START}one\r\ntwo${END}z`;
    for (let i = 1; i < input.length; i++) {
      for (let j = i; j < input.length; j++) {
        const got = parse([input.slice(0, i), input.slice(i, j), input.slice(j)]);
        expect(got, `cut at ${i}, ${j}`).toEqual(['paste:"one\\ntwo"', "z"]);
      }
    }
  });

  it("makes one paste from a byte-by-byte feed", () => {
    const input = `${START}x\ry${END}`;
    expect(parse(input.split(""))).toEqual(['paste:"x\\ny"']);
  });

  it("caps a runaway paste and drops the rest up to the end marker", () => {
    const p = new KeyParser({ pasteCap: 5 });
    const events = [...p.feed(`${START}abc`), ...p.feed("defgh"), ...p.feed(`ij${END}k`)];
    expect(events.map(show)).toEqual(['paste:"abcde"(truncated)', "k"]);
  });

  it("does not end a paste on flush, and stays pending until the end marker", () => {
    const p = new KeyParser();
    expect(p.feed(`${START}abc`)).toEqual([]);
    expect(p.flush()).toEqual([]);
    expect(p.pending).toBe(true);
    expect(p.feed(`\x1b[201`)).toEqual([]);
    expect(p.feed(`~`).map(show)).toEqual(['paste:"abc"']);
    expect(p.pending).toBe(false);
  });
});

describe("KeyParser: ESC timing and chunk boundaries", () => {
  it("holds a lone ESC until flush, which makes it Escape", () => {
    const p = new KeyParser();
    expect(p.feed("\x1b")).toEqual([]);
    expect(p.pending).toBe(true);
    expect(p.flush().map(show)).toEqual(["escape"]);
    expect(p.pending).toBe(false);
    expect(p.flush()).toEqual([]);
  });

  it("reads ESC then [A in the next chunk as Up, not Escape + [ + A", () => {
    expect(parse(["\x1b", "[A"])).toEqual(["up"]);
    expect(parse(["\x1b[", "A"])).toEqual(["up"]);
    expect(parse(["\x1b[1;", "5A"])).toEqual(["ctrl+up"]);
  });

  it.each([
    [["\x1b"], ["escape"]],
    [["\x1b\x1b"], ["escape", "escape"]],
    [["\x1b["], ["alt+["]],
    [["\x1bO"], ["alt+shift+o"]],
    [["\x1bP"], ["alt+shift+p"]],
    [["\x1b[1;"], ["unknown"]],
    [["\x1b]11;rgb:0"], ["unknown"]],
    [["a\x1b"], ["a", "escape"]],
  ])("flush settles %j as %j", (chunks, expected) => {
    expect(parse(chunks, true)).toEqual(expected);
  });

  it("after a flush, the rest of a late sequence is plain keys", () => {
    const p = new KeyParser();
    p.feed("\x1b");
    const events = [...p.flush(), ...p.feed("[A")];
    expect(events.map(show)).toEqual(["escape", "[", "shift+a"]);
  });

  const samples = [
    "\x1b[1;5A",
    "\x1b[24;5~",
    "\x1b\x1b[A",
    "\x1bOP",
    "\x1b[27;5;13~",
    "\x1bP>|xterm(390)\x1b\\",
    "\x1b]11;rgb:1/2/3\x07",
    "a👍b",
    "日本\r",
    "\x1b👍",
    "x\x1b[3~y",
  ];
  it.each(samples)("cutting %j at every position gives the same events as one chunk", (input) => {
    const whole = parse(input);
    for (let i = 1; i < input.length; i++) {
      expect(parse([input.slice(0, i), input.slice(i)]), `cut at ${i}`).toEqual(whole);
    }
  });

  it("keeps the text of an emoji sequence cut anywhere, and waits at a joiner", () => {
    const input = "👨‍👩‍👧x";
    const text = (events: InputEvent[]) => events.map((e) => (e.kind === "key" ? e.key.text : "")).join("");
    for (let i = 1; i < input.length; i++) {
      const p = new KeyParser();
      expect(text([...p.feed(input.slice(0, i)), ...p.feed(input.slice(i))]), `cut at ${i}`).toBe(input);
    }
    const joinerCut = input.indexOf("\u200d") + 1;
    expect(parse([input.slice(0, joinerCut), input.slice(joinerCut)])).toEqual(["👨‍👩‍👧", "x"]);
    const p = new KeyParser();
    expect(p.feed("👨\u200d")).toEqual([]);
    expect(p.flush().map(show)).toEqual(["👨\u200d"]);
  });

  it("keeps a UTF-8 sequence cut across byte chunks pending", () => {
    const bytes = new TextEncoder().encode("é日👍\r\x1b[A");
    const whole = parse([bytes]);
    expect(whole).toEqual(["é", "日", "👍", "enter", "up"]);
    for (let i = 1; i < bytes.length; i++) {
      expect(parse([bytes.slice(0, i), bytes.slice(i)]), `cut at byte ${i}`).toEqual(whole);
    }
  });

  it("is pending while a surrogate pair is half there", () => {
    const p = new KeyParser();
    expect(p.feed("\ud83d")).toEqual([]);
    expect(p.pending).toBe(true);
    expect(p.feed("\udc4d").map(show)).toEqual(["👍"]);
  });
});

describe("KeyParser: random input", () => {
  // Fragments that make and break sequences; no combining marks, so any cut keeps graphemes whole.
  const alphabet = [
    "\x1b",
    "[",
    "O",
    "P",
    "]",
    "_",
    "1",
    "2",
    "5",
    ";",
    "~",
    "$",
    "?",
    "A",
    "a",
    "u",
    "c",
    "y",
    "\r",
    "\n",
    "\x07",
    "\\",
    "é",
    "👍",
    "日",
    "200~",
    "201~",
    " ",
    "\x7f",
  ];
  function* rng(seed: number): Generator<number> {
    let x = seed;
    for (;;) {
      x = (x * 1103515245 + 12345) % 2147483648;
      yield x / 2147483648;
    }
  }

  it("gives the same events however the input is cut, and flush always settles it", () => {
    const r = rng(42);
    const next = () => r.next().value as number;
    for (let round = 0; round < 300; round++) {
      const input = Array.from(
        { length: 4 + Math.floor(next() * 30) },
        () => alphabet[Math.floor(next() * alphabet.length)],
      ).join("");
      const whole = new KeyParser();
      const expected = [...whole.feed(input), ...whole.flush()];
      const cut = new KeyParser();
      const got: InputEvent[] = [];
      for (let i = 0; i < input.length; ) {
        const n = 1 + Math.floor(next() * 6);
        got.push(...cut.feed(input.slice(i, i + n)));
        i += n;
      }
      got.push(...cut.flush());
      expect(got, JSON.stringify(input)).toEqual(expected);
      for (const e of got) {
        if (e.kind === "key") expect(e.key.sequence.length, JSON.stringify(input)).toBeGreaterThan(0);
        if (e.kind === "key" && e.key.text !== undefined) expect(e.key.text).not.toMatch(/[\x00-\x1f\x7f]/);
      }
      // Only an open paste may still be pending after a flush: the end marker closes it.
      if (cut.pending)
        expect(
          cut.feed("\x1b[201~").map((e) => e.kind),
          JSON.stringify(input),
        ).toEqual(["paste"]);
      expect(cut.pending).toBe(false);
    }
  });
});
