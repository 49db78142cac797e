// grep and glob on a generated tree of 50,000 files: the ripgrep engine and the built-in one,
// measured in the same run (the built-in path should stay within 3x of ripgrep).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { globTool } from "../src/tools/glob.js";
import { grepTool } from "../src/tools/grep.js";
import { findRg } from "../src/tools/ripgrep.js";
import { ToolRegistry } from "../src/tools/registry.js";
import { Gate } from "../src/agent/gate.js";
import { newRemembered } from "../src/sandbox/policy.js";

/** grep and glob are read tools: the gate lets them through, as in a turn. */
const gate = new Gate({
  settings: { yolo: false, deny: [], allow: [], workspace: "/", home: "/nonexistent" },
  state: { approval: "never", mode: "default", remembered: newRemembered() },
  taskId: "bench",
  emit: () => {},
});

const FILES = 50_000;

function makeTree(): string {
  const root = join(tmpdir(), `nh-bench-tree-${FILES}`);
  if (existsSync(join(root, ".done"))) return root;
  const words = ["alpha", "beta", "gamma", "delta", "const", "function", "return", "import", "export", "value"];
  for (let i = 0; i < FILES; i++) {
    const dir = join(root, `pkg${i % 50}`, `mod${Math.floor(i / 50) % 20}`);
    mkdirSync(dir, { recursive: true });
    const lines: string[] = [];
    for (let l = 0; l < 40; l++)
      lines.push(`${words[(i + l) % 10]} ${words[(i * 7 + l) % 10]} = ${i * 40 + l}; // line ${l}`);
    if (i % 5000 === 0) lines.push("the RARE_NEEDLE_TOKEN lives here");
    writeFileSync(join(dir, `file${i}.${i % 3 === 0 ? "ts" : i % 3 === 1 ? "js" : "md"}`), `${lines.join("\n")}\n`);
  }
  writeFileSync(join(root, ".gitignore"), "node_modules/\n");
  writeFileSync(join(root, ".done"), "");
  return root;
}

async function time(
  root: string,
  engine: "ripgrep" | "built-in",
  name: "grep" | "glob",
  args: Record<string, unknown>,
): Promise<number> {
  if (engine === "built-in") process.env.NANOHERMES_NO_RG = "1";
  else delete process.env.NANOHERMES_NO_RG;
  const registry = new ToolRegistry([grepTool, globTool]);
  const times: number[] = [];
  for (let i = 0; i < 4; i++) {
    const t = performance.now();
    const r = await registry.execute(
      { id: "b", name, arguments: JSON.stringify(args) },
      { workspace: root, taskId: "bench", signal: new AbortController().signal, emit: () => {}, gate },
    );
    if (r.status !== "ok") throw new Error(`${name} failed: ${r.forModel}`);
    if (i > 0) times.push(performance.now() - t);
  }
  delete process.env.NANOHERMES_NO_RG;
  return times.sort((a, b) => a - b)[1]!;
}

export interface SearchFigures {
  files: number;
  rgAvailable: boolean;
  grep: { ripgrepMs: number; builtinMs: number; ratio: number };
  glob: { ripgrepMs: number; builtinMs: number; ratio: number };
}

export async function benchSearch(): Promise<SearchFigures> {
  const root = makeTree();
  const rgAvailable = findRg() !== null;
  const grepArgs = { pattern: "RARE_NEEDLE_TOKEN" };
  const globArgs = { pattern: "**/file1*.ts" };
  const grepRg = rgAvailable ? await time(root, "ripgrep", "grep", grepArgs) : NaN;
  const grepBuiltin = await time(root, "built-in", "grep", grepArgs);
  const globRg = rgAvailable ? await time(root, "ripgrep", "glob", globArgs) : NaN;
  const globBuiltin = await time(root, "built-in", "glob", globArgs);
  const r = (x: number) => +x.toFixed(1);
  return {
    files: FILES,
    rgAvailable,
    grep: { ripgrepMs: r(grepRg), builtinMs: r(grepBuiltin), ratio: +(grepBuiltin / grepRg).toFixed(2) },
    glob: { ripgrepMs: r(globRg), builtinMs: r(globBuiltin), ratio: +(globBuiltin / globRg).toFixed(2) },
  };
}
