import { describe, expect, it } from "vitest";
import { applyCompletion, complete, rank, type CompletionSources } from "../../../src/ui/input/complete.js";
import type { EditorState } from "../../../src/ui/input/editor.js";

function st(marked: string): EditorState {
  const lines = marked.split("\n");
  const line = lines.findIndex((l) => l.includes("|"));
  const col = Array.from(lines[line] ?? "").indexOf("|");
  return { lines: lines.map((l) => l.replace("|", "")), line, col, goal: null };
}
function mark(s: EditorState): string {
  return s.lines.map((l, i) => (i === s.line ? Array.from(l).toSpliced(s.col, 0, "|").join("") : l)).join("\n");
}

const sources: CompletionSources = {
  commands: [
    { name: "/model", description: "Switch the model" },
    { name: "mode", description: "Switch the mode" },
    { name: "/help", description: "Show help" },
    { name: "/clear", description: "Clear the transcript" },
  ],
  paths: [
    "src/cli.ts",
    "src/agent/agent.ts",
    "src/agent/engine.ts",
    "src/ui/input/keys.ts",
    "src/",
    "README.md",
    "tests/agent/agent.test.ts",
    "日本/文書.md",
  ],
};
const values = (marked: string) => complete(st(marked), sources)?.items.map((i) => i.value) ?? null;

describe("complete: slash commands", () => {
  it.each([
    ["/mo|", ["/model", "/mode"]],
    ["/|", ["/model", "/mode", "/help", "/clear"]],
    ["/model|", ["/model"]],
    ["/MO|", ["/model", "/mode"]],
    ["/mdl|", ["/model"]],
    ["/zz|", null],
    ["x /mo|", null],
    ["\n/mo|", null],
    ["/mo |", null],
    ["|/mo", null],
  ])("%j -> %j", (marked, expected) => {
    expect(values(marked)).toEqual(expected);
  });

  it("carries descriptions and the token's range (the whole token, not just up to the cursor)", () => {
    const c = complete(st("/mo|del rest"), sources);
    expect(c).toMatchObject({ kind: "command", query: "mo", line: 0, from: 0, to: 6 });
    expect(c?.items[0]).toEqual({ value: "/model", description: "Switch the model" });
  });
});

describe("complete: @paths", () => {
  it.each([
    ["@src/a|", ["@src/agent/agent.ts", "@src/agent/engine.ts"]],
    ["look at @READ|", ["@README.md"]],
    ["@engine|", ["@src/agent/engine.ts"]],
    ["line one\nsee @src/cl|", ["@src/cli.ts"]],
    ["@日本|", ["@日本/文書.md"]],
    ["mail me@src|", null],
    ["@nothing-like-this|", null],
  ])("%j -> %j", (marked, expected) => {
    expect(values(marked)).toEqual(expected);
  });

  it("ranks prefix matches first, then file-name matches, then fuzzy ones", () => {
    const got = values("@agent|");
    expect(got?.slice(0, 2)).toEqual(["@src/agent/agent.ts", "@tests/agent/agent.test.ts"]);
    expect(values("@sat|")?.toSorted()).toEqual([
      "@src/agent/agent.ts",
      "@src/agent/engine.ts",
      "@tests/agent/agent.test.ts",
    ]);
  });

  it("offers at most 50", () => {
    const many = Array.from({ length: 120 }, (_, i) => `file${i}.ts`);
    expect(complete(st("@file|"), { paths: many })?.items).toHaveLength(50);
    expect(rank("f", many, 7)).toHaveLength(7);
  });

  it("ranks fuzzy matches at word starts above scattered ones", () => {
    const order = rank("ut", ["lib/aux/thing.ts", "src/ui/theme.ts", "mutable.ts"]).map(
      (i) => ["lib/aux/thing.ts", "src/ui/theme.ts", "mutable.ts"][i],
    );
    expect(order[0]).toBe("src/ui/theme.ts");
  });
});

describe("applyCompletion", () => {
  it.each([
    ["/mo|", "/model", "/model |"],
    ["/mo|del", "/mode", "/mode |"],
    ["see @sr| now", "@src/cli.ts", "see @src/cli.ts |now"],
    ["see @sr|", "@src/", "see @src/|"],
    ["a\nb @ag|", "@src/agent/agent.ts", "a\nb @src/agent/agent.ts |"],
    ["日本 @日|", "@日本/文書.md", "日本 @日本/文書.md |"],
  ])("%j with %j -> %j", (marked, value, expected) => {
    const s = st(marked);
    const c = complete(s, { ...sources, paths: [...(sources.paths ?? []), "src/"] });
    expect(c).not.toBeNull();
    if (!c) return;
    expect(mark(applyCompletion(s, c, { value }))).toBe(expected);
  });
});
