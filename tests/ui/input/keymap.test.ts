import { describe, expect, it } from "vitest";
import {
  applyEditorAction,
  createEditor,
  editorActions,
  editorKeyDefaults,
  editorText,
} from "../../../src/ui/input/editor.js";
import {
  findAction,
  formatKeySpec,
  KeymapOverridesSchema,
  matches,
  parseKeySpec,
  resolveKeymap,
  type KeySpec,
} from "../../../src/ui/input/keymap.js";
import { KeyParser, type Key } from "../../../src/ui/input/keys.js";

const spec = (name: string, mods: Partial<KeySpec> = {}): KeySpec => ({
  name,
  ctrl: false,
  alt: false,
  shift: false,
  ...mods,
});
function parsed(s: string): KeySpec {
  const r = parseKeySpec(s);
  if (r instanceof Error) throw r;
  return r;
}
/** The single key the parser makes of `input`. */
function keyOf(input: string): Key {
  const [e, ...rest] = new KeyParser().feed(input);
  if (e?.kind !== "key" || rest.length > 0) throw new Error(`not one key: ${JSON.stringify(input)}`);
  return e.key;
}

describe("parseKeySpec", () => {
  it.each([
    ["ctrl+t", spec("t", { ctrl: true })],
    ["alt+enter", spec("enter", { alt: true })],
    ["shift+tab", spec("tab", { shift: true })],
    ["pageup", spec("pageup")],
    ["PgUp", spec("pageup")],
    ["pgdn", spec("pagedown")],
    ["?", spec("?")],
    ["ctrl+shift+o", spec("o", { ctrl: true, shift: true })],
    ["Ctrl+Alt+Delete", spec("delete", { ctrl: true, alt: true })],
    ["T", spec("t", { shift: true })],
    ["shift+t", spec("t", { shift: true })],
    ["+", spec("+")],
    ["ctrl++", spec("+", { ctrl: true })],
    ["esc", spec("escape")],
    ["return", spec("enter")],
    ["F5", spec("f5")],
    ["ctrl+@", spec("space", { ctrl: true })],
    ["ctrl+space", spec("space", { ctrl: true })],
    ["meta+x", spec("x", { alt: true })],
    ["é", spec("é")],
    ["alt+/", spec("/", { alt: true })],
  ])("%j", (input, expected) => {
    expect(parseKeySpec(input)).toEqual(expected);
  });

  it.each([
    ["", /empty/],
    ["ctrl+", /no key/],
    ["hyper+x", /unknown modifier "hyper"/],
    ["ctrl+ctrl+x", /given twice/],
    ["ctrl++x", /empty modifier/],
    ["ctrl+T", /shift\+t/],
    ["shift+?", /shifted character/],
    ["ctrl+i", /bind "tab"/],
    ["ctrl+m", /bind "enter"/],
    ["ctrl+[", /bind "escape"/],
    ["ctrl+h", /bind "backspace"/],
    ["pgupp", /unknown key "pgupp"/],
  ])("rejects %j, naming it", (input, why) => {
    const r = parseKeySpec(input);
    expect(r).toBeInstanceOf(Error);
    expect((r as Error).message).toContain(`"${input}"`);
    expect((r as Error).message).toMatch(why);
  });
});

describe("matches", () => {
  it.each([
    ["?", "?", true],
    ["\x14", "ctrl+t", true],
    ["\x14", "t", false],
    ["t", "ctrl+t", false],
    ["A", "a", false],
    ["a", "shift+a", false],
    ["A", "shift+a", true],
    ["A", "A", true],
    ["\x1b\r", "alt+enter", true],
    ["\r", "alt+enter", false],
    ["\x1b\r", "enter", false],
    ["\x1b[Z", "shift+tab", true],
    ["\t", "shift+tab", false],
    ["\x1b[5~", "pageup", true],
    ["\x1b[5;2~", "pageup", false],
    ["\x00", "ctrl+@", true],
    ["\x00", "ctrl+space", true],
    [" ", "space", true],
    ["\x1b[1;6A", "ctrl+shift+up", true],
    ["\x1b[1;5A", "ctrl+shift+up", false],
    ["\x1bOP", "f1", true],
    ["\x1b[[A", "f1", true],
    ["\x1b[13;2u", "shift+enter", true],
    ["\x03", "ctrl+c", true],
  ])("key %j vs %j -> %s", (input, s, expected) => {
    expect(matches(keyOf(input), parsed(s))).toBe(expected);
  });

  it("matches a symbol whatever shift says (keyboards differ in which symbols need shift)", () => {
    const shifted: Key = { name: "?", ctrl: false, alt: false, shift: true, sequence: "?" };
    expect(matches(shifted, parsed("?"))).toBe(true);
    expect(matches({ ...shifted, ctrl: true }, parsed("?"))).toBe(false);
  });
});

describe("formatKeySpec", () => {
  it.each([
    ["ctrl+t", "Ctrl-T"],
    ["alt+enter", "Alt-Enter"],
    ["pageup", "PgUp"],
    ["pagedown", "PgDn"],
    ["shift+tab", "Shift-Tab"],
    // Bare letters keep their case (issue 28): y is not Y, a is not A.
    ["y", "y"],
    ["A", "A"],
    ["?", "?"],
    ["ctrl+shift+o", "Ctrl-Shift-O"],
    ["f5", "F5"],
    ["escape", "Esc"],
    ["T", "T"],
    ["ctrl+space", "Ctrl-Space"],
    ["alt+delete", "Alt-Del"],
  ])("%j -> %j", (input, expected) => {
    expect(formatKeySpec(parsed(input))).toBe(expected);
  });
});

describe("resolveKeymap", () => {
  const defaults = { submit: ["enter"], help: ["?", "f1"], quit: ["ctrl+q"] };

  it("parses the defaults when there are no overrides", () => {
    const { keymap, errors } = resolveKeymap(defaults);
    expect(errors).toEqual([]);
    expect(keymap.help).toEqual([spec("?"), spec("f1")]);
  });

  it("replaces an action's list; a single string is a list of one; [] unbinds", () => {
    const { keymap, errors } = resolveKeymap(defaults, { help: "f2", submit: ["ctrl+s", "alt+enter"], quit: [] });
    expect(errors).toEqual([]);
    expect(keymap.help).toEqual([spec("f2")]);
    expect(keymap.submit).toEqual([spec("s", { ctrl: true }), spec("enter", { alt: true })]);
    expect(keymap.quit).toEqual([]);
  });

  it("reports an unknown action by name and ignores it", () => {
    const { keymap, errors } = resolveKeymap(defaults, { sumbit: "ctrl+s" });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/keys\.sumbit: unknown action/);
    expect(keymap.submit).toEqual([spec("enter")]);
  });

  it("reports a bad spec naming the action and the spec, and keeps that action's default", () => {
    const { keymap, errors } = resolveKeymap(defaults, { help: ["f3", "ctrl+hyper+x"], quit: "ctrl+w" });
    expect(errors).toEqual([expect.stringMatching(/keys\.help: bad key binding "ctrl\+hyper\+x"/)]);
    expect(keymap.help).toEqual([spec("?"), spec("f1")]);
    expect(keymap.quit).toEqual([spec("w", { ctrl: true })]);
  });

  it("reports a bad default and leaves that action unbound", () => {
    const { keymap, errors } = resolveKeymap({ a: ["ctrl+i"], b: ["x"] });
    expect(errors[0]).toMatch(/default for a/);
    expect(keymap.a).toEqual([]);
    expect(keymap.b).toEqual([spec("x")]);
  });

  it("finds the action a key triggers, in the order asked", () => {
    const { keymap } = resolveKeymap({ close: ["escape"], interrupt: ["escape", "ctrl+c"] });
    expect(findAction(keymap, keyOf("\x03"))).toBe("interrupt");
    expect(findAction(keymap, keyOf("\x1b[A"))).toBeUndefined();
    expect(
      findAction(keymap, { name: "escape", ctrl: false, alt: false, shift: false, sequence: "\x1b" }, [
        "interrupt",
        "close",
      ]),
    ).toBe("interrupt");
  });

  it("validates a config section with the exported schema", () => {
    expect(KeymapOverridesSchema.safeParse({ help: "f2", submit: ["enter"] }).success).toBe(true);
    expect(KeymapOverridesSchema.safeParse({ help: 5 }).success).toBe(false);
  });
});

describe("the editor's default keys", () => {
  it("all parse, and cover every editor action", () => {
    const { keymap, errors } = resolveKeymap(editorKeyDefaults);
    expect(errors).toEqual([]);
    for (const a of editorActions) expect(keymap[a].length, a).toBeGreaterThan(0);
  });

  it.each([
    ["\x17", "foo bar|", "foo |"],
    ["\x1b\x7f", "foo bar|", "foo |"],
    ["\x15", "foo bar|", "|"],
    ["\x0b", "foo| bar", "foo|"],
    ["\x01", "foo bar|", "|foo bar"],
    ["\x05", "|foo bar", "foo bar|"],
    ["\x1bb", "foo bar|", "foo |bar"],
    ["\x1b[1;5D", "foo bar|", "foo |bar"],
    ["\n", "foo|", "foo\n|"],
  ])("key %j turns %j into %j", (input, before, after) => {
    const { keymap } = resolveKeymap(editorKeyDefaults);
    const action = findAction(keymap, keyOf(input));
    expect(action).toBeDefined();
    const at = before.indexOf("|");
    let s = createEditor(before.slice(0, at));
    s = { ...s, lines: [before.replace("|", "")], col: at };
    const next = applyEditorAction(s, action ?? "left");
    const text = editorText(next);
    const lines = text.split("\n");
    lines[next.line] = Array.from(lines[next.line] ?? "")
      .toSpliced(next.col, 0, "|")
      .join("");
    expect(lines.join("\n")).toBe(after);
  });
});
