// Runs the hand-written public-suite lists (tests/sandbox/suites/*.txt: codex's command-safety
// cases, Hermes Agent's dangerous and hardline cases) through `policyCheck` and counts verdicts.
// Usage: node scripts/eval-classifier.mjs [--list] [SRC_ROOT] — `--list` prints every off-target
// command; SRC_ROOT measures another tree (e.g. an older commit unpacked with `git archive`).
import { build } from "esbuild";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "nh-eval-"));
const out = join(dir, "policy-check.mjs");
const src = resolve(process.argv.slice(2).find((a) => !a.startsWith("--")) ?? join(root, "src"));
await build({
  entryPoints: [join(src, "sandbox/policy-check.ts")],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: out,
  logLevel: "error",
  nodePaths: [join(root, "node_modules")],
});
const { policyCheck } = await import(pathToFileURL(out).href);
rmSync(dir, { recursive: true, force: true });

/** One command per line; `#` starts a comment line; a line starting with `"` is a JSON string. */
export function readSuite(file) {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("#"))
    .map((l) => (/^".*"$/.test(l) ? JSON.parse(l) : l));
}

const suites = [
  { file: "codex-unsafe.txt", goal: "not trusted", ok: (d) => d !== "trusted" },
  { file: "codex-safe.txt", goal: "trusted (informative)", ok: (d) => d === "trusted" },
  { file: "hermes-dangerous.txt", goal: "dangerous or blocked", ok: (d) => d === "dangerous" || d === "blocked" },
  { file: "hermes-hardline.txt", goal: "blocked", ok: (d) => d === "blocked" },
];
const list = process.argv.includes("--list");
for (const s of suites) {
  const commands = readSuite(join(root, "tests/sandbox/suites", s.file));
  const counts = { trusted: 0, ask: 0, dangerous: 0, blocked: 0 };
  const off = [];
  for (const c of commands) {
    const v = policyCheck(c, "on-request");
    counts[v.decision]++;
    if (!s.ok(v.decision)) off.push(`${v.decision.padEnd(9)} ${JSON.stringify(c)}`);
  }
  console.log(
    `${s.file}: ${commands.length} commands, goal ${s.goal}: ${commands.length - off.length} on target; ${Object.entries(
      counts,
    )
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
  );
  if (list) for (const line of off) console.log(`  ${line}`);
}
