// Bundles bench/run.ts (TypeScript) and runs it: `npm run bench`.
import { buildSync } from "esbuild";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(import.meta.dirname, "..");
const out = resolve(root, "bench/.dist/run.mjs");
buildSync({
  entryPoints: [resolve(root, "bench/run.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  outfile: out,
  packages: "external",
  logLevel: "warning",
});
await import(pathToFileURL(out).href);
