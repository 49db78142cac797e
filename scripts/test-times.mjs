// Time per test folder, for the README's testing section.
//   node scripts/test-times.mjs report.json [...]        summarise vitest JSON reports
//   node scripts/test-times.mjs --run tests/agent [...]  run each folder alone (one after the other,
//                                                        so a shared machine is not swamped), then summarise
// Prints a Markdown table: folder, files, tests, failed, seconds. "wall" is one run's start to its
// last file's end (build and imports included) and only shown with --run; "in tests" sums the
// files' own run times (what vitest reports per file: no imports), which overlap across workers.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const args = process.argv.slice(2);
if (args.length === 0 || args.includes("--help")) {
  console.log("usage: node scripts/test-times.mjs report.json [...] | --run FOLDER [...] [-- vitest args]");
  process.exit(args.length === 0 ? 2 : 0);
}

/** Folder a test file counts under: tests/ui/components/x.test.tsx -> tests/ui; pty suites apart. */
function folderOf(file) {
  const rel = relative(process.cwd(), file).split("\\").join("/");
  const parts = rel.split("/");
  if (parts[0] !== "tests" || parts.length < 3) return parts.length < 3 ? parts.slice(0, -1).join("/") || "." : rel;
  if (parts[1] === "e2e" && parts[2].startsWith("tui")) return "tests/e2e (tui-*)";
  return `tests/${parts[1]}`;
}

/** Rows keyed by folder from one report; wallMs set when the caller ran the report's folder alone. */
function summarise(report, rows, wallMs) {
  for (const file of report.testResults) {
    const folder = folderOf(file.name);
    const row = rows.get(folder) ?? { files: 0, tests: 0, failed: 0, inTestsMs: 0, wallMs: 0 };
    row.files += 1;
    row.tests += file.assertionResults.length;
    const failedTests = file.assertionResults.filter((a) => a.status === "failed").length;
    row.failed += failedTests > 0 ? failedTests : file.status === "failed" ? 1 : 0;
    row.inTestsMs += Math.max(0, (file.endTime ?? file.startTime) - file.startTime);
    rows.set(folder, row);
  }
  if (wallMs !== undefined) {
    const folders = new Set(report.testResults.map((f) => folderOf(f.name)));
    for (const folder of folders) {
      const row = rows.get(folder);
      if (row) row.wallMs += wallMs / folders.size;
    }
  }
}

function readReport(path) {
  if (!existsSync(path)) throw new Error(`${path}: no such report (vitest writes it with --reporter=json)`);
  const report = JSON.parse(readFileSync(path, "utf8"));
  if (!Array.isArray(report.testResults)) throw new Error(`${path}: not a vitest JSON report (no testResults)`);
  return report;
}

const rows = new Map();
const run = args[0] === "--run";
try {
  if (run) {
    const dash = args.indexOf("--");
    const folders = args.slice(1, dash === -1 ? undefined : dash);
    const extra = dash === -1 ? [] : args.slice(dash + 1);
    const dir = mkdtempSync(join(tmpdir(), "test-times-"));
    for (const [i, folder] of folders.entries()) {
      const out = join(dir, `${i}.json`);
      const started = Date.now();
      const res = spawnSync(
        "npx",
        ["vitest", "run", folder, "--reporter=dot", "--reporter=json", `--outputFile.json=${out}`, ...extra],
        { stdio: ["ignore", "ignore", "inherit"] },
      );
      const wallMs = Date.now() - started;
      if (!existsSync(out)) {
        console.error(`${folder}: vitest wrote no report (exit ${res.status})`);
        continue;
      }
      summarise(readReport(out), rows, wallMs);
      console.error(`${folder}: ${(wallMs / 1000).toFixed(0)} s`);
    }
  } else {
    for (const path of args) summarise(readReport(path), rows);
  }
} catch (err) {
  console.error(String(err instanceof Error ? err.message : err));
  process.exit(1);
}

const sec = (ms) => (ms / 1000).toFixed(0);
const total = { files: 0, tests: 0, failed: 0, inTestsMs: 0, wallMs: 0 };
console.log(
  run
    ? "| folder | files | tests | failed | wall s | in tests s |"
    : "| folder | files | tests | failed | in tests s |",
);
console.log(run ? "|---|---:|---:|---:|---:|---:|" : "|---|---:|---:|---:|---:|");
for (const [folder, r] of [...rows].sort((a, b) => a[0].localeCompare(b[0]))) {
  for (const k of Object.keys(total)) total[k] += r[k];
  const cells = [folder, r.files, r.tests, r.failed, ...(run ? [sec(r.wallMs)] : []), sec(r.inTestsMs)];
  console.log(`| ${cells.join(" | ")} |`);
}
const cells = [
  "total",
  total.files,
  total.tests,
  total.failed,
  ...(run ? [sec(total.wallMs)] : []),
  sec(total.inTestsMs),
];
console.log(`| ${cells.join(" | ")} |`);
