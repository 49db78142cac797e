// Forward compatibility of session files: unknown fields survive a rewrite; a file this version
// cannot represent whole (a newer version, an unknown role or content part) is read as far as it
// can be and reported `frozen`, never set aside or overwritten.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSession, saveSession } from "../../src/session/store.js";
import { tempDir } from "../helpers/cli.js";

const base = {
  version: 1,
  id: "s1",
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  workspace: "/w",
  model: "m",
};

function write(body: unknown): string {
  const file = join(tempDir(), "s1.json");
  writeFileSync(file, JSON.stringify(body));
  return file;
}

describe("session files from other versions", () => {
  it("keeps unknown top-level and message fields through load and save", async () => {
    const file = write({
      ...base,
      labels: ["infra"],
      cost: { usd: 0.12 },
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "hi", sentAt: "2026-01-01T00:00:01Z" },
        { role: "assistant", content: "hello", tokens: 3 },
      ],
      archive: [{ role: "user", content: "older", sentAt: "2025-12-31T00:00:00Z" }],
    });
    const loaded = await loadSession(file, "/w", "m");
    expect(loaded.frozen).toBeUndefined();
    expect(loaded.warning).toBeUndefined();
    loaded.data.messages.push({ role: "user", content: "new turn" });
    await saveSession(file, loaded.data);
    const written = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown> & {
      messages: Record<string, unknown>[];
      archive: Record<string, unknown>[];
    };
    expect(written.labels).toEqual(["infra"]);
    expect(written.cost).toEqual({ usd: 0.12 });
    expect(written.messages[1]).toEqual({ role: "user", content: "hi", sentAt: "2026-01-01T00:00:01Z" });
    expect(written.messages[2]).toEqual({ role: "assistant", content: "hello", tokens: 3 });
    expect(written.messages[3]).toEqual({ role: "user", content: "new turn" });
    expect(written.archive[0]).toEqual({ role: "user", content: "older", sentAt: "2025-12-31T00:00:00Z" });
  });

  it("reads a version 2 file (known fields only) and marks it frozen instead of setting it aside", async () => {
    const file = write({
      ...base,
      version: 2,
      branches: [{ at: 3 }],
      messages: [
        { role: "user", content: "from v2" },
        { role: "assistant", content: "ok" },
      ],
    });
    const before = readFileSync(file, "utf8");
    const loaded = await loadSession(file, "/w", "m");
    expect(loaded.frozen).toBe("it was written by a newer NanoHermes (session file version 2)");
    expect(loaded.resumed).toBe(true);
    expect(loaded.data.version).toBe(1);
    expect(loaded.data.messages).toEqual([
      { role: "user", content: "from v2" },
      { role: "assistant", content: "ok" },
    ]);
    expect(loaded.data).not.toHaveProperty("branches");
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(readdirSync(join(file, "..")).filter((n) => n.includes(".corrupt-"))).toEqual([]);
  });

  it("reads around a developer message and an unknown content part, keeping the history consistent", async () => {
    const file = write({
      ...base,
      messages: [
        { role: "developer", content: "be terse" },
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "input_audio", input_audio: { data: "…" } },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "c1", content: "file text" },
        { role: "assistant", content: null, tool_calls: [{ id: "c2", type: "custom", custom: { name: "x" } }] },
        { role: "tool", tool_call_id: "c2", content: "orphan once c2 is dropped" },
        { role: "assistant", content: "done" },
      ],
    });
    const loaded = await loadSession(file, "/w", "m");
    expect(loaded.frozen).toBe('it holds a message with role "developer" and 2 more thing(s) this version cannot read');
    expect(loaded.data.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "look" }] },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c1", content: "file text" },
      { role: "assistant", content: "done" },
    ]);
  });

  it("still sets aside a file that is not a session at all", async () => {
    const file = write({ version: 1, messages: "nope" });
    const loaded = await loadSession(file, "/w", "m");
    expect(loaded.frozen).toBeUndefined();
    expect(loaded.warning).toMatch(/is unreadable .* it was kept as .*\.corrupt-/);
  });
});
