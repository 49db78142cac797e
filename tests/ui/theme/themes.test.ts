// Built-in themes are complete and valid; user themes extend them or are reported and skipped.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtinTheme, defaultThemeName, getTheme, listThemes, loadThemes } from "../../../src/ui/theme/load.js";
import { formatThemeProblem, parseThemeFile } from "../../../src/ui/theme/schema.js";
import { ansiColorNames, builtinThemeNames, tokenNames } from "../../../src/ui/theme/tokens.js";

const root = resolve(import.meta.dirname, "../../..");
const readJson = (name: string): unknown => JSON.parse(readFileSync(join(root, "themes", `${name}.json`), "utf8"));

describe("built-in themes", () => {
  it.each(builtinThemeNames)("%s validates and defines every token in its file", (name) => {
    const data = readJson(name) as { name: string; tokens: Record<string, unknown> };
    const parsed = parseThemeFile(data, `${name}.json`);
    expect("theme" in parsed ? [] : parsed.problems).toEqual([]);
    expect(data.name).toBe(name);
    expect(Object.keys(data.tokens).sort()).toEqual([...tokenNames].sort());
  });

  it("dark, the default, uses ANSI colour names only, so it follows the terminal's own scheme", () => {
    const data = readJson("dark") as { tokens: Record<string, { fg?: unknown; bg?: unknown }> };
    const colours = Object.values(data.tokens)
      .flatMap((s) => [s.fg, s.bg])
      .filter((c) => c !== undefined);
    expect(colours.length).toBeGreaterThan(10);
    for (const c of colours) expect(ansiColorNames).toContain(c);
  });

  it("leaves only plain-text tokens unstyled (text, assistant; border and idle status in high-contrast)", () => {
    for (const name of builtinThemeNames) {
      const plain = Object.entries(builtinTheme(name).tokens)
        .filter(([, s]) => Object.keys(s).length === 0)
        .map(([t]) => t);
      expect(plain.every((t) => ["text", "assistant", "border", "statusIdle"].includes(t))).toBe(true);
    }
  });

  it("lists the three built-ins when no home is given", () => {
    expect(listThemes().map((t) => t.name)).toEqual(["dark", "light", "high-contrast"]);
    expect(getTheme("light")?.tokens.diffAdd.fg).toBe("#116329");
    expect(getTheme("nope")).toBeUndefined();
  });

  it("picks light only for a reported light background", () => {
    expect(defaultThemeName(false)).toBe("light");
    expect(defaultThemeName(true)).toBe("dark");
    expect(defaultThemeName(undefined)).toBe("dark");
  });
});

describe("user themes", () => {
  let home: string;
  const write = (file: string, content: unknown) =>
    writeFileSync(join(home, "themes", file), typeof content === "string" ? content : JSON.stringify(content));

  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), "nh-themes-"));
    mkdirSync(join(home, "themes"));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it("merges a theme with extends onto the built-in, token by token", () => {
    write("solar.json", {
      name: "solar",
      extends: "light",
      tokens: { diffAdd: { fg: 34 }, accent: { fg: "#ff8800", bold: true } },
    });
    const catalog = loadThemes(home);
    expect(catalog.problems).toEqual([]);
    const solar = getTheme("solar", catalog);
    expect(solar?.source).toBe(join(home, "themes", "solar.json"));
    expect(solar?.tokens.diffAdd).toEqual({ fg: 34 });
    expect(solar?.tokens.accent).toEqual({ fg: "#ff8800", bold: true });
    expect(solar?.tokens.error).toEqual(builtinTheme("light").tokens.error);
    expect(listThemes(catalog).map((t) => t.name)).toEqual(["dark", "light", "high-contrast", "solar"]);
  });

  it("fills tokens a theme without extends leaves out from dark", () => {
    write("mini.json", { name: "mini", tokens: { text: { fg: "white" } } });
    const mini = getTheme("mini", loadThemes(home));
    expect(mini?.tokens.text).toEqual({ fg: "white" });
    expect(mini?.tokens.warning).toEqual(builtinTheme("dark").tokens.warning);
  });

  it("a token replaces the base token whole, so a base's bold can be dropped", () => {
    write("calm.json", { name: "calm", extends: "dark", tokens: { error: { fg: "red" } } });
    expect(builtinTheme("dark").tokens.error.bold).toBe(true);
    expect(getTheme("calm", loadThemes(home))?.tokens.error).toEqual({ fg: "red" });
  });

  it("reports a bad colour with its file and key and skips the theme", () => {
    write("bad.json", { name: "bad", tokens: { diffAdd: { fg: "greenish" } } });
    write("good.json", { name: "good", tokens: {} });
    const catalog = loadThemes(home);
    expect(catalog.themes.has("bad")).toBe(false);
    expect(catalog.themes.has("good")).toBe(true);
    expect(catalog.problems).toHaveLength(1);
    const p = catalog.problems[0];
    expect(p?.file).toBe(join(home, "themes", "bad.json"));
    expect(p?.key).toBe("tokens.diffAdd.fg");
    expect(p?.problem).toMatch(/ANSI colour name/);
    expect(formatThemeProblem(p!)).toContain('"tokens.diffAdd.fg"');
  });

  it.each([
    ["unknown token", { name: "x", tokens: { diffAdded: {} } }, "tokens.diffAdded", /unknown token/],
    ["unknown style key", { name: "x", tokens: { link: { colour: "red" } } }, "tokens.link.colour", /unknown key/],
    ["index out of range", { name: "x", tokens: { code: { bg: 256 } } }, "tokens.code.bg", /0-255/],
    ["short hex", { name: "x", tokens: { code: { fg: "#fff" } } }, "tokens.code.fg", /#rrggbb/],
    ["non-boolean flag", { name: "x", tokens: { code: { bold: "yes" } } }, "tokens.code.bold", /boolean/],
    ["unknown base", { name: "x", extends: "solarized", tokens: {} }, "extends", /dark|light/],
    ["missing name", { tokens: {} }, "name", /.+/],
    ["unknown top-level key", { name: "x", tokens: {}, colors: {} }, "colors", /unknown key/],
  ])("reports %s by key", (_label, content, key, problem) => {
    write("t.json", content);
    const { problems, themes } = loadThemes(home);
    expect(themes.size).toBe(3);
    expect(problems.map((p) => p.key)).toContain(key);
    expect(problems.find((p) => p.key === key)?.problem).toMatch(problem);
  });

  it("reports a file that is not JSON and carries on", () => {
    write("broken.json", "{ name: ");
    write("ok.json", { name: "ok", tokens: {} });
    const { problems, themes } = loadThemes(home);
    expect(problems).toEqual([
      { file: join(home, "themes", "broken.json"), key: "(file)", problem: expect.stringMatching(/not valid JSON/) },
    ]);
    expect(themes.has("ok")).toBe(true);
  });

  it("refuses a user theme that takes a built-in's name or a name already used", () => {
    write("a.json", { name: "dark", tokens: {} });
    write("b.json", { name: "mine", tokens: {} });
    write("c.json", { name: "mine", tokens: {} });
    const { problems, themes } = loadThemes(home);
    expect(themes.get("dark")?.source).toBe("builtin");
    expect(themes.get("mine")?.source).toBe(join(home, "themes", "b.json"));
    expect(problems.map((p) => [p.file.slice(-6), p.key])).toEqual([
      ["a.json", "name"],
      ["c.json", "name"],
    ]);
    expect(problems[0]?.problem).toMatch(/"extends": "dark"/);
  });

  it("ignores other files and treats a missing themes folder as none", () => {
    write("notes.txt", "not a theme");
    expect(loadThemes(home).problems).toEqual([]);
    const empty = mkdtempSync(join(tmpdir(), "nh-nothemes-"));
    try {
      const catalog = loadThemes(empty);
      expect(catalog.problems).toEqual([]);
      expect([...catalog.themes.keys()]).toEqual(["dark", "light", "high-contrast"]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
