// Start-up weight of scheduling: croner and the cron ledger load with the daemon and `nanohermes
// cron` only; cli.js and the one-shot path never load them statically.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { staticallyLoaded, type BuildMeta } from "../helpers/build-meta.js";

const dist = resolve(import.meta.dirname, "../../dist");

it("cli.js and the one-shot path load no cron code; the daemon does", () => {
  const meta = JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as BuildMeta;
  const chunkOf = (source: string) =>
    Object.entries(meta.outputs).find(([, o]) => Object.keys(o.inputs).some((i) => i.endsWith(source)))![0];
  const inputsOf = (from: string) =>
    new Set([...staticallyLoaded(meta, from)].flatMap((path) => Object.keys(meta.outputs[path]?.inputs ?? {})));
  const isCron = (input: string) => input.includes("node_modules/croner/") || input.startsWith("src/cron/");
  for (const entry of ["src/cli.ts", "src/oneshot/run.ts"]) {
    const loaded = [...inputsOf(chunkOf(entry))];
    expect(loaded.filter(isCron), entry).toEqual([]);
  }
  // ...and they are in the bundle, loaded with the daemon.
  expect([...inputsOf(chunkOf("src/daemon/run.ts"))].some((i) => i.includes("node_modules/croner/"))).toBe(true);
});
