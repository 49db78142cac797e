// Start-up weight of dist/: zod must arrive as zod/mini with only its English locale. Classic zod,
// or `import { z }` of the re-exported namespace, would bundle ~450 KB and every locale again.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { staticallyLoaded } from "../helpers/build-meta.js";

const dist = resolve(import.meta.dirname, "../../dist");

type Meta = { outputs: Record<string, { inputs: Record<string, unknown>; imports: { path: string; kind: string }[] }> };
const readMeta = () => JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as Meta;
/** The MCP SDK brings classic zod; its chunk loads only when MCP servers are configured. */
const isMcpChunk = (inputs: Record<string, unknown>) =>
  Object.keys(inputs).some((i) => i.includes("node_modules/@modelcontextprotocol/sdk/"));
/** So does the ACP SDK, loaded by `nanohermes acp` only. */
const isSdkChunk = (inputs: Record<string, unknown>) =>
  isMcpChunk(inputs) || Object.keys(inputs).some((i) => i.includes("node_modules/@agentclientprotocol/sdk/"));

/**
 * Chunks loaded only for an SDK: an SDK's own, and what only such chunks import (the classic zod
 * the MCP and ACP SDKs share is split into a chunk of its own).
 */
function sdkOnlyChunks(meta: Meta): Set<string> {
  const importers = new Map<string, string[]>();
  for (const [path, o] of Object.entries(meta.outputs))
    for (const imp of o.imports) importers.set(imp.path, [...(importers.get(imp.path) ?? []), path]);
  const only = new Set(
    Object.entries(meta.outputs)
      .filter(([, o]) => isSdkChunk(o.inputs))
      .map(([path]) => path),
  );
  for (let grew = true; grew; ) {
    grew = false;
    for (const [path, by] of importers)
      if (!only.has(path) && by.length > 0 && by.every((p) => only.has(p))) {
        only.add(path);
        grew = true;
      }
  }
  return only;
}

/** The zod files in the bundle outside the SDKs' chunks, from the metafile the build writes beside it. */
function bundledZodFiles(): string[] {
  const meta = readMeta();
  const sdkOnly = sdkOnlyChunks(meta);
  const found = new Set<string>();
  for (const [path, output] of Object.entries(meta.outputs)) {
    if (sdkOnly.has(path)) continue;
    for (const input of Object.keys(output.inputs)) {
      const m = /^node_modules\/zod\/(\S+)$/.exec(input);
      if (m) found.add(m[1]!);
    }
  }
  return [...found].sort();
}

it("bundles zod/mini with the English locale only, and no classic zod", () => {
  const zod = bundledZodFiles();
  expect(zod.some((f) => f.startsWith("v4/mini/"))).toBe(true);
  expect(zod.filter((f) => f.startsWith("v4/classic/"))).toEqual([]);
  expect(zod.filter((f) => f.startsWith("v4/locales/"))).toEqual(["v4/locales/en.js"]);
});

it("loads the MCP SDK (and its classic zod) only on demand, never from the entry's static imports", () => {
  const meta = readMeta();
  const mcp = Object.entries(meta.outputs)
    .filter(([, o]) => isMcpChunk(o.inputs))
    .map(([path]) => path);
  expect(mcp.length).toBeGreaterThan(0);
  // Everything cli.js loads before main() runs: its static imports, transitively.
  const seen = staticallyLoaded(meta, "dist/cli.js");
  for (const chunk of mcp) expect(seen.has(chunk)).toBe(false);
});
