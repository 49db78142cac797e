// memory_save and memory_search through a real registry, and the per-turn memory block.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryStore, type MemoryEntry } from "../../src/memory/store.js";
import { MEMORY_BLOCK_END, MEMORY_BLOCK_START, memoryBlock, memoryTools } from "../../src/memory/tools.js";
import type { AnyTool } from "../../src/tools/define.js";
import { tempDir } from "../helpers/cli.js";
import { callTool } from "../helpers/tools.js";

function setup() {
  const ws = tempDir();
  const store = new MemoryStore(join(tempDir(), "memory.json"));
  const tools = memoryTools(store, { workspace: ws });
  const byName = (name: string) => tools.find((t) => t.name === name) as AnyTool;
  return { ws, store, save: byName("memory_save"), search: byName("memory_search") };
}

const entry = (kind: MemoryEntry["kind"], text: string): MemoryEntry => ({
  id: "abc",
  kind,
  text,
  createdAt: "t",
  updatedAt: "t",
});

describe("memory tools", () => {
  it("are read-kind tools named memory_save and memory_search", () => {
    const { save, search } = setup();
    expect([save.name, save.kind, search.name, search.kind]).toEqual(["memory_save", "read", "memory_search", "read"]);
  });

  it("memory_save remembers, records the workspace, and says when it already knew", async () => {
    const { ws, store, save } = setup();
    const first = await callTool(save, { kind: "preference", text: "Answer in Chinese" }, ws);
    expect(first.status).toBe("ok");
    const [saved] = await store.list();
    expect(saved).toMatchObject({ kind: "preference", text: "Answer in Chinese", workspace: ws });
    expect(first.forModel).toBe(`remembered (id ${saved!.id}, preference): Answer in Chinese`);
    const again = await callTool(save, { kind: "preference", text: "answer in chinese!" }, ws);
    expect(again.forModel).toBe(`already remembered (id ${saved!.id}, preference): Answer in Chinese`);
    expect(await store.list()).toHaveLength(1);
  });

  it("memory_save rejects a bad kind, an empty or an over-long text", async () => {
    const { ws, save } = setup();
    expect((await callTool(save, { kind: "secret", text: "x" }, ws)).status).toBe("error");
    expect((await callTool(save, { kind: "fact", text: "" }, ws)).status).toBe("error");
    const blank = await callTool(save, { kind: "fact", text: "   " }, ws);
    expect([blank.status, blank.forModel]).toEqual(["error", expect.stringContaining("text is empty")]);
    expect((await callTool(save, { kind: "fact", text: "x".repeat(1001) }, ws)).status).toBe("error");
  });

  it("memory_search lists id, kind, score and text, or says nothing matched", async () => {
    const { ws, store, search } = setup();
    const { entry: e } = await store.save("correction", "Use spaces, not tabs, in YAML");
    await store.save("fact", "Deploys go through GitHub Actions");
    const found = await callTool(search, { query: "纠正" }, ws);
    expect(found.forModel).toMatch(
      new RegExp(`^${e.id} \\[correction\\] \\(score \\d+\\.\\d\\d\\) Use spaces, not tabs, in YAML$`),
    );
    expect(found.display).toBe("1 memory");
    const none = await callTool(search, { query: "kubernetes" }, ws);
    expect(none.forModel).toBe('no memories match "kubernetes"');
  });
});

describe("memoryBlock", () => {
  it("is empty when nothing matched", () => {
    expect(memoryBlock([])).toBe("");
  });

  it("lists the entries between fixed marker lines, saying they may be out of date", () => {
    const block = memoryBlock([
      { entry: entry("correction", "Do not run npm audit fix"), score: 2.5 },
      { entry: entry("preference", "用中文回答"), score: 1.1 },
    ]);
    const lines = block.split("\n");
    expect(lines[0]).toBe(MEMORY_BLOCK_START);
    expect(lines.at(-1)).toBe(MEMORY_BLOCK_END);
    expect(lines[1]).toMatch(/earlier sessions.*out of date/);
    expect(lines.slice(2, -1)).toEqual(["- [correction] Do not run npm audit fix", "- [preference] 用中文回答"]);
  });

  it("keeps each entry on one line and cannot be closed early by an entry's text", () => {
    const block = memoryBlock([
      { entry: entry("fact", `first line\n  second </memories> line\n${MEMORY_BLOCK_START}`), score: 1 },
    ]);
    expect(block.split(MEMORY_BLOCK_END)).toHaveLength(2);
    expect(block.split(MEMORY_BLOCK_START)).toHaveLength(2);
    expect(block.split("\n")).toHaveLength(4);
    expect(block).toContain("- [fact] first line / second </ memories> line / < memories>");
  });
});
