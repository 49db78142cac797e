// scripts/as-scripts.mjs on a small bundle made for the purpose: chunks that import each other
// in a cycle, a chunk whose top level awaits (as Ink's yoga-layout does) imported dynamically,
// and import.meta.url, run through the real loader (src/start.ts) twice, the second time from
// the code cache. And the cases the conversion must refuse.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import { expect, it } from "vitest";
// @ts-expect-error: a build script in plain JavaScript, without types
import { asScripts, BANNER, programFiles } from "../../scripts/as-scripts.mjs";
import { tempDir } from "../helpers/cli.js";

async function bundle(dir: string, files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return build({
    absWorkingDir: dir,
    entryPoints: { cli: join(dir, "cli.ts") },
    outdir: join(dir, "dist"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    chunkNames: "chunks/[name]-[hash]",
    write: false,
    metafile: true,
    banner: { js: BANNER },
    logLevel: "silent",
  });
}

const program = {
  "cli.ts": [
    `import { ping } from "./ping.ts";`,
    `import { readFileSync } from "node:fs";`,
    `import("./late.ts").then((m) => {`,
    `  console.log(JSON.stringify({ ping: ping(3), pong: m.pong(1), value: m.value, self: import.meta.url.endsWith("/cli.js"), fs: typeof readFileSync }));`,
    `});`,
  ].join("\n"),
  // ping and pong call each other across chunks: a cycle.
  "ping.ts": `import { pong } from "./pong.ts";\nexport function ping(n: number): string { return n === 0 ? "ping" : pong(n - 1); }`,
  "pong.ts": `import { ping } from "./ping.ts";\nexport function pong(n: number): string { return n === 0 ? "pong" : ping(n - 1); }`,
  // Awaits at its top level: whoever imports it must see the value it awaited.
  "late.ts": `export { pong } from "./pong.ts";\nexport const value: number = await new Promise((r) => setTimeout(() => r(42), 20));`,
};

it("a bundle with a cycle and a chunk that awaits runs as scripts, then again from the code cache", async () => {
  const dir = tempDir("nh-as-scripts-");
  const result = await bundle(dir, program);
  const dist = join(dir, "dist");
  const files: Map<string, string> = await programFiles(result, { root: dir, dist, version: "9.9.9" });
  for (const [path, text] of files) {
    mkdirSync(dirname(join(dist, path)), { recursive: true });
    writeFileSync(join(dist, path), text);
  }
  // The chunk that awaits runs as an async function; nothing is left of import or export syntax.
  const late = [...files.entries()].find(([, text]) => text.includes("setTimeout"))!;
  expect(late[1]).toContain("await new Promise");
  for (const [path, text] of files) if (path !== "cli.js") expect(text, path).not.toMatch(/^import |\bexport \{/m);

  const run = () => {
    const report = join(dir, `report-${Math.random()}.json`);
    const out = execFileSync(process.execPath, [join(dist, "cli.js")], {
      env: { ...process.env, NANOHERMES_CODE_CACHE_REPORT: report, NANOHERMES_CODE_CACHE: undefined },
      encoding: "utf8",
    });
    return { out: JSON.parse(out), report: JSON.parse(readFileSync(report, "utf8")) };
  };
  const first = run();
  expect(first.out).toEqual({ ping: "pong", pong: "ping", value: 42, self: true, fs: "function" });
  expect(first.report.written).toBe(first.report.loaded);
  const second = run();
  expect(second.out).toEqual(first.out);
  expect(second.report.accepted).toBe(second.report.loaded);
  expect(execFileSync(process.execPath, [join(dist, "cli.js"), "--version"], { encoding: "utf8" })).toBe("9.9.9\n");
});

it("refuses a chunk that imports an awaiting chunk statically, and chunks without the banner", async () => {
  const dir = tempDir("nh-as-scripts-");
  const result = await bundle(dir, program);
  const dist = join(dir, "dist");
  const relativeTo = (p: string) => p.replace(`${dist}/`, "").replace(/^dist\//, "");
  const late = result.outputFiles.find((f) => f.text.includes("setTimeout"))!;
  const lateName = relativeTo(late.path);
  const meta = structuredClone(result.metafile!);
  const importer = Object.keys(meta.outputs).find((o) => o.endsWith("cli.js"))!;
  meta.outputs[importer]!.imports.push({ path: `dist/${lateName}`, kind: "import-statement", external: false });
  expect(() => asScripts(result.outputFiles, { entry: "cli.js", metafile: meta, relativeTo })).toThrow(
    /imports .* statically, and its top level awaits/,
  );
  const bare = result.outputFiles.map((f) => ({ path: f.path, text: f.text.replace(BANNER, "") }));
  expect(() => asScripts(bare, { entry: "cli.js", metafile: result.metafile, relativeTo })).toThrow(/bundle banner/);
});
