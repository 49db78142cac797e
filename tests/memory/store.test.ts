// The memory store on real temp files: saving with de-duplication, update and remove, search
// with kind labels, the read cache, and a corrupt or partly unreadable file.
import { promises as fsp, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_MEMORY_TEXT, MemoryStore, kindLabels, memoryKinds, sameMemoryKey } from "../../src/memory/store.js";
import { tempDir } from "../helpers/cli.js";

/** A clock that moves one second per reading. */
function clock() {
  let t = Date.parse("2025-01-01T00:00:00Z");
  return () => new Date((t += 1000));
}

function setup() {
  const dir = tempDir();
  const file = join(dir, "home", "memory.json");
  return { dir, file, store: new MemoryStore(file, { now: clock() }) };
}

afterEach(() => vi.restoreAllMocks());

describe("MemoryStore", () => {
  it("reads a missing file as empty without creating it", async () => {
    const { file, store } = setup();
    expect(await store.list()).toEqual([]);
    expect(await store.search("anything")).toEqual([]);
    expect(() => statSync(file)).toThrow();
    expect(store.lastWarning).toBeUndefined();
  });

  it("saves entries to a private, versioned file, creating the directory", async () => {
    const { file, store } = setup();
    const { entry, duplicate } = await store.save("preference", "  Use pnpm, not npm.  ", "/work/app");
    expect(duplicate).toBe(false);
    expect(entry).toMatchObject({
      kind: "preference",
      text: "Use pnpm, not npm.",
      workspace: "/work/app",
      createdAt: "2025-01-01T00:00:01.000Z",
      updatedAt: "2025-01-01T00:00:01.000Z",
    });
    expect(entry.id).toMatch(/^[0-9a-z]{8}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ version: 1, entries: [entry] });
    expect(await new MemoryStore(file).list()).toEqual([entry]);
    expect(readdirSync(join(file, "..")).sort()).toEqual(["memory.json"]);
  });

  it("de-duplicates texts that differ in case, whitespace and punctuation", async () => {
    const { store } = setup();
    const first = (await store.save("preference", "Use pnpm, not npm.")).entry;
    for (const variant of ["use PNPM not npm", "  Use   pnpm,\n not npm!! ", "USE pnpm; NOT npm…"]) {
      const again = await store.save("preference", variant);
      expect(again.duplicate, variant).toBe(true);
      expect(again.entry.id).toBe(first.id);
      expect(again.entry.text).toBe("Use pnpm, not npm.");
      expect(again.entry.updatedAt > first.updatedAt).toBe(true);
      expect(again.entry.createdAt).toBe(first.createdAt);
    }
    // Full-width punctuation and a missing full stop in Chinese; another kind is still the same note.
    const zh = (await store.save("preference", "用中文回答。")).entry;
    expect(await store.save("lesson", "用中文回答")).toMatchObject({
      duplicate: true,
      entry: { id: zh.id, kind: "preference" },
    });
    expect((await store.save("preference", "Use pnpm, not yarn.")).duplicate).toBe(false);
    expect((await store.list()).map((e) => e.text)).toEqual([
      "Use pnpm, not npm.",
      "用中文回答。",
      "Use pnpm, not yarn.",
    ]);
    expect(sameMemoryKey("Don't  PANIC!")).toBe(sameMemoryKey("don t panic"));
  });

  it("refuses an empty or over-long text", async () => {
    const { store } = setup();
    await expect(store.save("fact", "   ")).rejects.toThrow(/needs some text/);
    await expect(store.save("fact", "x".repeat(MAX_MEMORY_TEXT + 1))).rejects.toThrow(/at most 1000/);
    expect((await store.save("fact", "x".repeat(MAX_MEMORY_TEXT))).entry.text).toHaveLength(MAX_MEMORY_TEXT);
  });

  it("updates and removes by id", async () => {
    const { file, store } = setup();
    const a = (await store.save("lesson", "Run the tests before committing")).entry;
    const b = (await store.save("fact", "The CI runs on Node 20")).entry;
    const changed = await store.update(a.id, {
      kind: "correction",
      text: "Run the whole test suite before committing",
    });
    expect(changed).toMatchObject({
      id: a.id,
      kind: "correction",
      text: "Run the whole test suite before committing",
      createdAt: a.createdAt,
    });
    expect(changed!.updatedAt > a.updatedAt).toBe(true);
    expect(await store.update(a.id, { kind: "lesson" })).toMatchObject({
      kind: "lesson",
      text: "Run the whole test suite before committing",
    });
    expect(await store.update("nope", { text: "x" })).toBeNull();
    await expect(store.update(a.id, { text: " " })).rejects.toThrow();
    expect(await store.remove(b.id)).toBe(true);
    expect(await store.remove(b.id)).toBe(false);
    expect((await new MemoryStore(file).list()).map((e) => e.id)).toEqual([a.id]);
  });

  it("searches with BM25 across English and Chinese, best first", async () => {
    const { store } = setup();
    await store.save("fact", "The project uses vitest for unit tests");
    await store.save("lesson", "上下文压缩之前先保存会话");
    await store.save("preference", "Commit messages in the imperative mood");
    const zh = await store.search("上下文压缩怎么做");
    expect(zh.map((r) => r.entry.text)).toEqual(["上下文压缩之前先保存会话"]);
    const en = await store.search("which TESTS framework? vitest");
    expect(en[0]!.entry.text).toBe("The project uses vitest for unit tests");
    expect(en.every((r) => r.score > 0)).toBe(true);
    expect(await store.search("kubernetes helm")).toEqual([]);
    expect(await store.search("!!")).toEqual([]);
  });

  it("finds entries by their kind's label in Chinese or English", async () => {
    const { store } = setup();
    const correction = (await store.save("correction", "Do not reformat files you did not change")).entry;
    const preference = (await store.save("preference", "Prefer tabs over spaces")).entry;
    await store.save("fact", "The database is Postgres 16");
    await store.save("lesson", "npm ci needs a lockfile");
    for (const query of ["纠正", "我之前纠正过什么", "correction", "any corrections?"]) {
      expect(
        (await store.search(query)).map((r) => r.entry.id),
        query,
      ).toEqual([correction.id]);
    }
    expect((await store.search("我的偏好")).map((r) => r.entry.id)).toEqual([preference.id]);
    expect(Object.keys(kindLabels)).toEqual([...memoryKinds]);
    expect(kindLabels).toEqual({
      lesson: { zh: "教训", en: "lesson" },
      preference: { zh: "偏好", en: "preference" },
      correction: { zh: "纠正", en: "correction" },
      fact: { zh: "事实", en: "fact" },
    });
  });

  it("caches the parsed file and index until the file changes", async () => {
    const { file, store } = setup();
    await store.save("fact", "The staging server is called atlas");
    const open = vi.spyOn(fsp, "open");
    const opensOfFile = () => open.mock.calls.filter(([path]) => path === file).length;
    const reader = new MemoryStore(file);
    await reader.search("atlas");
    await reader.search("staging");
    await reader.list();
    expect(opensOfFile()).toBe(1);
    // Another writer (here another instance) replaces the file: the reader sees it at once.
    await store.save("fact", "The production server is called zeus");
    expect((await reader.search("zeus")).map((r) => r.entry.text)).toEqual(["The production server is called zeus"]);
    expect(opensOfFile()).toBe(2);
    // The writer's own cache is refreshed by its write, not by a re-read.
    await store.search("zeus");
    expect(opensOfFile()).toBe(2);
  });

  it("sets a corrupt file aside and starts empty, with a warning", async () => {
    const { file, store } = setup();
    await store.save("fact", "kept");
    writeFileSync(file, '{"version":1,"entries":[{"id":');
    expect(await store.list()).toEqual([]);
    expect(store.lastWarning).toMatch(/not valid JSON/);
    const aside = readdirSync(join(file, "..")).filter((f) => f.startsWith("memory.json.corrupt-"));
    expect(aside).toHaveLength(1);
    expect(store.lastWarning).toContain(aside[0]);
    expect(readFileSync(join(file, "..", aside[0]!), "utf8")).toBe('{"version":1,"entries":[{"id":');
    expect((await store.save("fact", "fresh")).duplicate).toBe(false);
    expect((await store.list()).map((e) => e.text)).toEqual(["fresh"]);
  });

  it("sets aside a file of the wrong shape found by a save, without losing it", async () => {
    const { file } = setup();
    await fsp.mkdir(join(file, ".."), { recursive: true });
    writeFileSync(file, '{"notes": ["x"]}');
    const store = new MemoryStore(file);
    await store.save("fact", "after");
    expect(store.lastWarning).toMatch(/no "entries" list/);
    expect(readdirSync(join(file, "..")).filter((f) => f.includes(".corrupt-"))).toHaveLength(1);
    expect((await store.list()).map((e) => e.text)).toEqual(["after"]);
  });

  it("reads the seed's bare array, and keeps what it cannot read (entries, fields) through later writes", async () => {
    const { file } = setup();
    await fsp.mkdir(join(file, ".."), { recursive: true });
    const good = { id: "g1", kind: "fact", text: "good one", createdAt: "t", updatedAt: "t", pinned: true };
    const future = { id: "f1", kind: "habit", text: "from a newer version", createdAt: "t", updatedAt: "t" };
    writeFileSync(file, JSON.stringify([good, future]));
    const store = new MemoryStore(file);
    expect(await store.list()).toEqual([good]);
    expect(store.lastWarning).toMatch(/1 entries could not be read/);
    await store.save("fact", "new one");
    const written = JSON.parse(readFileSync(file, "utf8")) as { entries: unknown[] };
    expect(written.entries).toContainEqual(future);
    expect(written.entries).toContainEqual(good);
    expect(written.entries).toHaveLength(3);
  });

  it("reads an empty file as empty", async () => {
    const { file } = setup();
    await fsp.mkdir(join(file, ".."), { recursive: true });
    writeFileSync(file, "\n");
    const store = new MemoryStore(file);
    expect(await store.list()).toEqual([]);
    expect(store.lastWarning).toBeUndefined();
  });
});
