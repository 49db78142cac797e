// Start-up weight of dist/ (issue 29): the ACP SDK is loaded by `nanohermes acp` only, and the MCP
// server front end by `nanohermes mcp-server` only. They sit in chunks that cli.js, the one-shot
// front end and the UI never reach by static imports, so `--version`, the UI's first frame and a
// one-shot turn do not pay for them.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { type BuildMeta, staticallyLoaded } from "../helpers/build-meta.js";

const dist = resolve(import.meta.dirname, "../../dist");
const meta = () => JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as BuildMeta;

/** The output files holding an input whose path ends with (or contains) `input`. */
const holding = (m: BuildMeta, input: string) =>
  Object.entries(m.outputs)
    .filter(([path, o]) => path.endsWith(".js") && Object.keys(o.inputs).some((i) => i.includes(input)))
    .map(([path]) => path);

it("keeps the ACP SDK out of what cli.js, the one-shot front end and the UI load statically", () => {
  const m = meta();
  const sdk = holding(m, "node_modules/@agentclientprotocol/sdk/");
  expect(sdk.length).toBeGreaterThan(0);
  const entries = ["dist/cli.js", ...holding(m, "src/oneshot/run.ts"), ...holding(m, "src/ui/run.ts")];
  expect(entries.length).toBe(3);
  for (const entry of entries) {
    const seen = staticallyLoaded(m, entry);
    expect(
      sdk.filter((chunk) => seen.has(chunk)),
      entry,
    ).toEqual([]);
  }
  // It is there for the subcommand that needs it.
  const acpRun = holding(m, "src/acp/run.ts");
  expect(acpRun).toHaveLength(1);
  const seen = staticallyLoaded(m, acpRun[0]!);
  expect(sdk.some((chunk) => seen.has(chunk))).toBe(true);
});

it("keeps the MCP server front end out of what cli.js, the one-shot front end and the UI load statically", () => {
  const m = meta();
  const front = holding(m, "src/mcp-server/");
  expect(front.length).toBeGreaterThan(0);
  for (const entry of ["dist/cli.js", ...holding(m, "src/oneshot/run.ts"), ...holding(m, "src/ui/run.ts")]) {
    const seen = staticallyLoaded(m, entry);
    expect(
      front.filter((chunk) => seen.has(chunk)),
      entry,
    ).toEqual([]);
  }
});
