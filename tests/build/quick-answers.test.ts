// Issue 35: a lone --version or --help is answered by dist/cli.js before any script of the bundle
// loads (the version built in, the help from dist/help.txt), and says exactly what the program
// says; without help.txt the bundle answers. dist/cli.js is CommonJS (dist/package.json), so Node
// starts it without its ES module loader.
import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { tempDir, testEnv } from "../helpers/cli.js";

const root = resolve(import.meta.dirname, "../..");
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;

/** Runs the program at `dist` with `args`; its output and the scripts the loader ran. */
function run(dist: string, args: string[]): { out: string; scripts: string[] } {
  const report = join(tempDir(), "report.json");
  const out = execFileSync(process.execPath, [join(dist, "cli.js"), ...args], {
    encoding: "utf8",
    env: testEnv({ NANOHERMES_CODE_CACHE_REPORT: report }) as NodeJS.ProcessEnv,
  });
  return { out, scripts: (JSON.parse(readFileSync(report, "utf8")) as { scripts: string[] }).scripts };
}

it("answers --version, -v, --help and -h without loading the bundle, as the bundle would", () => {
  const dist = join(root, "dist");
  for (const flag of ["--version", "-v"]) expect(run(dist, [flag])).toEqual({ out: `${version}\n`, scripts: [] });
  const help = run(dist, ["--help"]);
  expect(help.scripts).toEqual([]);
  expect(help.out.startsWith(`nanohermes ${version}: a coding agent`)).toBe(true);
  expect(run(dist, ["-h"])).toEqual(help);
  // With another flag beside it the bundle parses the arguments and prints the same text.
  const parsed = run(dist, ["--help", "--verbose"]);
  expect(parsed.scripts).toContain("main.js");
  expect(parsed.out).toBe(help.out);
});

it("without dist/help.txt, the bundle answers --help", () => {
  const dist = join(tempDir("nh-quick-"), "dist");
  cpSync(join(root, "dist"), dist, { recursive: true, filter: (src) => !src.includes(".code-cache") });
  const before = run(dist, ["--help"]);
  rmSync(join(dist, "help.txt"));
  const after = run(dist, ["--help"]);
  expect(after.scripts).toContain("main.js");
  expect(after.out).toBe(before.out);
});

it("dist/cli.js is CommonJS: dist/package.json says so and the file has no module syntax", () => {
  expect(JSON.parse(readFileSync(join(root, "dist/package.json"), "utf8"))).toEqual({ type: "commonjs" });
  const cli = readFileSync(join(root, "dist/cli.js"), "utf8");
  expect(cli).not.toMatch(/^import |\bimport\.meta\b|\bexport \{/m);
  expect(cli).toContain("require(");
});
