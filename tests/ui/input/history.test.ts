import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEditor, editorText } from "../../../src/ui/input/editor.js";
import {
  appendHistory,
  downOrHistory,
  History,
  historyPath,
  loadHistory,
  saveHistory,
  upOrHistory,
} from "../../../src/ui/input/history.js";
import { tempDir as makeTempDir } from "../../helpers/cli.js";

const tempDir = async () => makeTempDir("nh-history-");

describe("History", () => {
  it("walks back from the draft and forward to it again", () => {
    const h = new History(["one", "two", "three"]);
    expect(h.prev("my draft")).toBe("three");
    expect(h.prev("ignored")).toBe("two");
    expect(h.prev("")).toBe("one");
    expect(h.prev("")).toBeUndefined();
    expect(h.walking).toBe(true);
    expect(h.next()).toBe("two");
    expect(h.next()).toBe("three");
    expect(h.next()).toBe("my draft");
    expect(h.walking).toBe(false);
    expect(h.next()).toBeUndefined();
  });

  it("has nowhere to go when empty", () => {
    const h = new History();
    expect(h.prev("draft")).toBeUndefined();
    expect(h.walking).toBe(false);
  });

  it.each([
    [
      ["a", "a", "b", "a"],
      ["a", "b", "a"],
    ],
    [
      ["a", " ", "", "b", "b"],
      ["a", "b"],
    ],
    [
      ["x", "y", "x", "y"],
      ["x", "y", "x", "y"],
    ],
  ])("adding %j keeps %j (consecutive duplicates and blanks skipped)", (adds, kept) => {
    const h = new History();
    for (const a of adds) h.add(a);
    expect(h.entries).toEqual(kept);
  });

  it("caps the entries, dropping the oldest", () => {
    const h = new History([], 3);
    for (const a of ["1", "2", "3", "4", "5"]) h.add(a);
    expect(h.entries).toEqual(["3", "4", "5"]);
    expect(new History(Array.from({ length: 1500 }, (_, i) => `e${i}`)).entries).toHaveLength(1000);
  });

  it("ends a walk when an entry is added", () => {
    const h = new History(["a", "b"]);
    h.prev("draft");
    expect(h.add("c")).toBe(true);
    expect(h.walking).toBe(false);
    expect(h.prev("")).toBe("c");
  });

  it.each([
    ["git", ["git push", "git status"]],
    ["GIT", ["git push", "git status"]],
    ["", ["git push", "make", "git status"]],
    ["zzz", []],
  ])("search %j -> %j (newest first, each once)", (query, expected) => {
    const h = new History(["git status", "make", "git push", "make", "git push"]);
    expect(h.search(query)).toEqual(expected);
  });
});

describe("up and down in the composer", () => {
  it("moves within the text first, then walks history, keeping the draft", () => {
    const h = new History(["old one", "old two"]);
    let s = createEditor("draft line 1\ndraft line 2");
    s = upOrHistory(s, h);
    expect(s.line).toBe(0);
    expect(h.walking).toBe(false);
    s = upOrHistory(s, h);
    expect(editorText(s)).toBe("old two");
    s = upOrHistory(s, h);
    expect(editorText(s)).toBe("old one");
    s = downOrHistory(s, h);
    expect(editorText(s)).toBe("old two");
    s = downOrHistory(s, h);
    expect(editorText(s)).toBe("draft line 1\ndraft line 2");
    const same = downOrHistory(s, h);
    expect(same).toBe(s);
  });

  it("moves down within a recalled multi-line entry before walking on", () => {
    const h = new History(["a\nb"]);
    let s = upOrHistory(createEditor(""), h);
    expect(editorText(s)).toBe("a\nb");
    s = upOrHistory(s, h);
    expect(s.line).toBe(0);
    s = downOrHistory(s, h);
    expect(s.line).toBe(1);
    expect(editorText(downOrHistory(s, h))).toBe("");
  });
});

describe("the history file", () => {
  it("round-trips entries, multi-line ones included", async () => {
    const path = historyPath(await tempDir());
    expect(await appendHistory(path, "first")).toBeNull();
    expect(await appendHistory(path, "two\nlines")).toBeNull();
    expect(await loadHistory(path)).toEqual(["first", "two\nlines"]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("skips bad lines and keeps the rest", async () => {
    const path = join(await tempDir(), "history.jsonl");
    await writeFile(path, ['"good"', "{not json", "42", '{"a":1}', "", '"also good"', '"trunc'].join("\n"));
    expect(await loadHistory(path)).toEqual(["good", "also good"]);
  });

  it("reads a missing file as an empty history", async () => {
    expect(await loadHistory(join(await tempDir(), "nope", "history.jsonl"))).toEqual([]);
  });

  it("rewrites a file grown past twice the cap with the newest entries", async () => {
    const path = join(await tempDir(), "history.jsonl");
    await writeFile(path, Array.from({ length: 9 }, (_, i) => JSON.stringify(`e${i}`) + "\n").join(""));
    expect(await loadHistory(path, 4)).toEqual(["e5", "e6", "e7", "e8"]);
    expect((await readFile(path, "utf8")).trim().split("\n")).toHaveLength(4);
  });

  it("reports a write failure as a value", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "file"), "");
    expect(await appendHistory(join(dir, "file", "history.jsonl"), "x")).toBeInstanceOf(Error);
    expect(await saveHistory(join(dir, "file", "history.jsonl"), ["x"])).toBeInstanceOf(Error);
  });
});
