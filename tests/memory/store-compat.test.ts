// Forward compatibility of the memory file: its top-level fields and version survive this
// version's rewrites, and a file from a newer version is read but never overwritten.
import { promises as fsp, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../src/memory/store.js";
import { tempDir } from "../helpers/cli.js";

async function fileWith(body: unknown): Promise<string> {
  const file = join(tempDir(), "home", "memory.json");
  await fsp.mkdir(join(file, ".."), { recursive: true });
  writeFileSync(file, JSON.stringify(body));
  return file;
}

const entry = { id: "g1", kind: "fact", text: "the build uses esbuild", createdAt: "t", updatedAt: "t" };

describe("memory file forward compatibility", () => {
  it("keeps top-level fields it does not know, and its version, through a save, an update and a remove", async () => {
    const file = await fileWith({ version: 1, owner: "team", settings: { decay: 0.5 }, entries: [entry] });
    const store = new MemoryStore(file);
    const { entry: saved } = await store.save("lesson", "run the linter before pushing");
    await store.update(saved.id, { text: "run the linter before every push" });
    await store.remove("g1");
    const written = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    expect(written).toMatchObject({ version: 1, owner: "team", settings: { decay: 0.5 } });
    expect((written.entries as { text: string }[]).map((e) => e.text)).toEqual(["run the linter before every push"]);
    expect(Object.keys(written)).toEqual(["version", "owner", "settings", "entries"]);
  });

  it("reads a newer version's file, refuses to change it with a message, and leaves its bytes alone", async () => {
    const body = {
      version: 2,
      index: { kind: "hnsw" },
      entries: [entry, { id: "n1", kind: "fact", text: "new", createdAt: "t", updatedAt: "t", embedding: [0.1] }],
    };
    const file = await fileWith(body);
    const before = readFileSync(file, "utf8");
    const store = new MemoryStore(file);
    expect((await store.list()).map((e) => e.id)).toEqual(["g1", "n1"]);
    expect((await store.search("esbuild")).map((h) => h.entry.id)).toEqual(["g1"]);
    expect(store.lastWarning).toMatch(/written by a newer NanoHermes \(version 2\); it is read but not changed/);
    await expect(store.save("fact", "something new")).rejects.toThrow(/newer NanoHermes \(version 2\)/);
    await expect(store.remove("g1")).rejects.toThrow(/newer NanoHermes/);
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("a file with nothing beside its entries is written as before", async () => {
    const file = await fileWith({ version: 1, entries: [entry] });
    await new MemoryStore(file).save("fact", "another");
    expect(readFileSync(file, "utf8").startsWith('{"version":1,"entries":[\n')).toBe(true);
  });
});
