// The import boundaries (.dependency-cruiser.cjs) checked over src/. dependency-cruiser 17 reads
// TypeScript only through the typescript package's JavaScript API, which TypeScript 7 no longer
// has: `npx depcruise src` on this project cruises 0 modules and says "no violations". So this
// script first turns each .ts/.tsx file into a JavaScript twin with esbuild (type-only imports
// kept as plain imports, so a type import across a boundary still counts), cruises the twins,
// and reports violations by the real file names. It fails when it saw too few modules, so it can
// never pass by not looking.
//
// usage: node scripts/check-boundaries.mjs [--json] [--min-modules N] [ROOT]
//   ROOT defaults to the repository; its src/ is checked with ROOT/.dependency-cruiser.cjs if
//   there is one, else with this repository's.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";
import { cruise } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const json = args.includes("--json");
const minAt = args.indexOf("--min-modules");
const minModules = minAt >= 0 ? Number(args[minAt + 1]) : 100;
const root = resolve(args.filter((a, i) => !a.startsWith("--") && i !== minAt + 1)[0] ?? repo);
const configFile = existsSync(join(root, ".dependency-cruiser.cjs"))
  ? join(root, ".dependency-cruiser.cjs")
  : join(repo, ".dependency-cruiser.cjs");

/** esbuild drops type-only imports; written as value imports they survive (verbatimModuleSyntax keeps unused ones). */
function keepTypeImports(source) {
  return source
    .replace(/^(\s*)import\s+type\s+(?=[\w{*])/gm, "$1import ")
    .replace(/^(\s*)export\s+type\s+(?=\{[^}]*\}\s*from\b|\*\s+(?:as\s+\w+\s+)?from\b)/gm, "$1export ");
}

function sources(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, out);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const twinDir = mkdtempSync(join(tmpdir(), "nh-boundaries-"));
/** twin path (relative, as dependency-cruiser names it) -> the real file, relative to ROOT */
const realName = new Map();
try {
  for (const file of sources(join(root, "src"))) {
    const rel = relative(root, file);
    const twin = rel.replace(/\.tsx?$/, ".js");
    const { code } = transformSync(keepTypeImports(readFileSync(file, "utf8")), {
      loader: file.endsWith("x") ? "tsx" : "ts",
      format: "esm",
      jsx: "automatic",
      sourcefile: rel,
      tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
    });
    mkdirSync(dirname(join(twinDir, twin)), { recursive: true });
    writeFileSync(join(twinDir, twin), code);
    realName.set(twin, rel);
  }
  // Packages resolve as they would from the real tree (so they count as npm, not as unresolved).
  if (existsSync(join(root, "node_modules"))) symlinkSync(join(root, "node_modules"), join(twinDir, "node_modules"));
  else symlinkSync(join(repo, "node_modules"), join(twinDir, "node_modules"));

  const options = await extractDepcruiseOptions(configFile);
  const result = await cruise(["src"], { ...options, baseDir: twinDir, outputType: "json" });
  const cruised = JSON.parse(result.output);
  const name = (twin) => realName.get(twin) ?? twin;
  const violations = cruised.summary.violations.map((v) => ({
    rule: v.rule.name,
    severity: v.rule.severity,
    from: name(v.from),
    to: name(v.to),
    ...(v.cycle ? { cycle: v.cycle.map((c) => name(c.name ?? c)) } : {}),
  }));
  // Our own modules only: packages in the graph must not make an empty cruise look full.
  const modules = cruised.modules.filter((m) => m.source.startsWith("src/")).length;
  const errors = violations.filter((v) => v.severity === "error");
  if (json) {
    process.stdout.write(`${JSON.stringify({ modules, violations }, null, 2)}\n`);
  } else {
    // One wrong import closes many folder cycles at once: the direct breaks first, then a few cycles.
    const cycles = violations.filter((v) => v.cycle);
    for (const v of violations.filter((v) => !v.cycle))
      process.stdout.write(`${v.severity} ${v.rule}: ${v.from} -> ${v.to}\n`);
    for (const v of cycles.slice(0, 3))
      process.stdout.write(`${v.severity} ${v.rule}: ${v.from} -> ${v.to}\n    cycle: ${v.cycle.join(" -> ")}\n`);
    if (cycles.length > 3)
      process.stdout.write(`... and ${cycles.length - 3} more folder cycles (--json lists them)\n`);
    process.stdout.write(
      `import boundaries: ${modules} modules, ${errors.length} errors, ${violations.length - errors.length} warnings\n`,
    );
  }
  if (modules < minModules) {
    process.stderr.write(
      `import boundaries: only ${modules} modules cruised (expected at least ${minModules}); the check did not look\n`,
    );
    process.exitCode = 2;
  } else if (errors.length > 0) {
    process.exitCode = 1;
  }
} finally {
  rmSync(twinDir, { recursive: true, force: true });
}
