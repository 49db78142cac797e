// What the built program ran: its loader (src/start.ts) lists the scripts it ran in the report
// NANOHERMES_CODE_CACHE_REPORT names, written as the program exits; dist/meta.json says which
// sources were bundled into each. (Node's own module hooks no longer see the bundle's chunks:
// they run as scripts through node:vm.)
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BuildMeta } from "./build-meta.js";
import { tempDir } from "./cli.js";

const root = resolve(import.meta.dirname, "../..");

/** A report file for one run, and the environment entry that asks for it. */
export function loadReport(): { file: string; env: { NANOHERMES_CODE_CACHE_REPORT: string } } {
  const file = join(tempDir(), "loaded.json");
  return { file, env: { NANOHERMES_CODE_CACHE_REPORT: file } };
}

/** The sources in the scripts of a finished run, with their bytes in the bundle. */
export function loadedSources(report: string): { sources: string[]; bytes: number } {
  const meta = JSON.parse(readFileSync(join(root, "dist/meta.json"), "utf8")) as BuildMeta & {
    outputs: Record<string, { inputs: Record<string, { bytesInOutput?: number }> }>;
  };
  const { scripts } = JSON.parse(readFileSync(report, "utf8")) as { scripts: string[] };
  const sources = new Set<string>();
  let bytes = 0;
  for (const script of scripts) {
    // The entry chunk, dist/cli.js in the metafile, runs as dist/main.js.
    const output = meta.outputs[`dist/${script === "main.js" ? "cli.js" : script}`];
    if (!output) throw new Error(`${script} is not in dist/meta.json`);
    for (const [input, info] of Object.entries(output.inputs)) {
      sources.add(input);
      bytes += info.bytesInOutput ?? 0;
    }
  }
  return { sources: [...sources].sort(), bytes };
}
