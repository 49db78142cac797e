// The import boundaries (.dependency-cruiser.cjs, run by scripts/check-boundaries.mjs) hold for
// src/, and the check really looks: a tree with forbidden imports fails it by the named rules,
// type-only imports included, and a check that saw almost nothing fails instead of passing.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const script = join(root, "scripts/check-boundaries.mjs");

interface Report {
  modules: number;
  violations: { rule: string; severity: string; from: string; to: string }[];
}

function check(...args: string[]): { status: number | null; report: Report | null; stderr: string } {
  const run = spawnSync(process.execPath, [script, "--json", ...args], { encoding: "utf8", timeout: 120_000 });
  let report: Report | null = null;
  try {
    report = JSON.parse(run.stdout) as Report;
  } catch {
    // no report: the status and stderr say why
  }
  return { status: run.status, report, stderr: run.stderr };
}

const trees: string[] = [];
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "nh-house-rules-"));
  trees.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}
afterAll(() => {
  for (const dir of trees) rmSync(dir, { recursive: true, force: true });
});

it("src/ keeps its import boundaries, with no exceptions", () => {
  const { status, report, stderr } = check();
  expect(status, stderr).toBe(0);
  expect(report!.modules).toBeGreaterThan(200);
  expect(report!.violations.filter((v) => v.severity === "error")).toEqual([]);
  expect(report!.violations).toEqual([]);
});

it("rejects forbidden imports by the rule they break, type-only imports too", () => {
  const dir = tree({
    "src/protocol/events.ts": `export type BusEvent = { type: "x" };\n`,
    "src/agent/engine.ts": `import type { BusEvent } from "../protocol/events.js";\nexport const run = (e: BusEvent) => e;\n`,
    "src/agent/compaction.ts": `export const SUMMARY_PREFIX = "[summary]";\n`,
    // the engine drawing on the terminal
    "src/agent/progress.ts": `import { Text } from "ink";\nexport const progress = Text;\n`,
    // config reaching up into the engine, with a type-only import
    "src/config/schema.ts": `import type { run } from "../agent/engine.js";\nexport type Run = typeof run;\n`,
    "src/tools/walk.ts": `export const walk = () => [];\n`,
    // the UI importing tool code and an agent internal
    "src/ui/files.ts": `import { walk } from "../tools/walk.js";\nimport { SUMMARY_PREFIX } from "../agent/compaction.js";\nexport const files = () => [walk(), SUMMARY_PREFIX];\n`,
    // a dialog's spec drawing with Ink (the first frame draws it before Ink loads)
    "src/ui/dialogs/help.ts": `import { Box } from "ink";\nexport const help = Box;\n`,
    // a front end making its own "allow" past the engine's gate
    "src/tools/gate-seal.ts": `export const seal = (d: object) => d;\n`,
    "src/oneshot/run.ts": `import { seal } from "../tools/gate-seal.js";\nexport const allowAll = () => seal({ allow: true });\n`,
    "src/agent/gate.ts": `import { seal } from "../tools/gate-seal.js";\nexport const gate = () => seal({ allow: false });\n`,
    // the daemon <-> ui cycle, through a dynamic import on one side
    "src/daemon/attach.ts": `export const attach = async () => (await import("../ui/run.js")).runUi();\n`,
    "src/ui/run.ts": `import { attach } from "../daemon/attach.js";\nexport const runUi = () => attach;\n`,
  });
  const { status, report } = check("--min-modules", "1", dir);
  expect(status).toBe(1);
  const broken = report!.violations.map((v) => `${v.rule}: ${v.from} -> ${v.to}`);
  expect(broken).toContain("config-imports-only-protocol: src/config/schema.ts -> src/agent/engine.ts");
  expect(broken).toContain("ui-not-into-tools: src/ui/files.ts -> src/tools/walk.ts");
  expect(broken).toContain("ui-only-the-engine-entry: src/ui/files.ts -> src/agent/compaction.ts");
  expect(broken).toContain("front-ends-apart: src/daemon/attach.ts -> src/ui/run.ts");
  expect(broken).toContain("front-ends-apart: src/ui/run.ts -> src/daemon/attach.ts");
  expect(report!.violations.some((v) => v.rule === "no-cycles-between-folders")).toBe(true);
  expect(report!.violations.some((v) => v.rule === "only-the-ui-draws" && v.from === "src/agent/progress.ts")).toBe(
    true,
  );
  expect(report!.violations.some((v) => v.rule === "ui-logic-before-ink" && v.from === "src/ui/dialogs/help.ts")).toBe(
    true,
  );
  expect(broken).toContain("only-the-gate-seals: src/oneshot/run.ts -> src/tools/gate-seal.ts");
  expect(broken.filter((b) => b.startsWith("only-the-gate-seals: src/agent/gate.ts"))).toEqual([]);
  // What is allowed stays allowed: the engine on the protocol.
  expect(broken.filter((b) => b.includes("src/agent/engine.ts -> src/protocol"))).toEqual([]);
});

it("rejects a cycle between two folders inside src/ui, closed by a type-only import", () => {
  // The knot of issue 33: UiState in controller/ read by the store, the controller reading the store.
  const dir = tree({
    "src/ui/state/store.ts": `import type { UiState } from "../controller/ui-state.js";\nexport interface AppState { ui: UiState }\n`,
    "src/ui/controller/ui-state.ts": `export interface UiState { focus: string }\n`,
    "src/ui/controller/controller.ts": `import type { AppState } from "../state/store.js";\nexport const focusOf = (s: AppState) => s.ui.focus;\n`,
    // an edge one way only is fine
    "src/ui/view/title.ts": `import type { AppState } from "../state/store.js";\nexport const title = (s: AppState) => s.ui.focus;\n`,
  });
  const { status, report } = check("--min-modules", "1", dir);
  expect(status).toBe(1);
  const cycles = report!.violations.filter((v) => v.rule === "no-cycles-between-ui-folders");
  expect(cycles.map((v) => `${v.from} -> ${v.to}`).sort()).toEqual([
    "src/ui/controller -> src/ui/state",
    "src/ui/state -> src/ui/controller",
  ]);
  expect(report!.violations.filter((v) => v.from.startsWith("src/ui/view"))).toEqual([]);
});

it("rejects a dialog, focus area or tab that imports the Controller instead of its host interface", () => {
  const dir = tree({
    "src/ui/controller/host.ts": `export interface UiHost { setUi(change: (ui: object) => object): void }\n`,
    "src/ui/controller/controller.ts": `import type { UiHost } from "./host.js";\nexport class Controller implements UiHost { setUi() {} }\n`,
    // the Controller whole, by a type-only import: caught
    "src/ui/dialogs/confirm.ts": `import type { Controller } from "../controller/controller.js";\nexport const close = (c: Controller) => c.setUi((ui) => ui);\n`,
    "src/ui/focus/tasks.ts": `import type { Controller } from "../controller/controller.js";\nexport const keys = (c: Controller) => c;\n`,
    "src/ui/tabs/diff/keys.ts": `import { Controller } from "../../controller/controller.js";\nexport const make = () => Controller;\n`,
    // the narrow interface: allowed
    "src/ui/dialogs/queue.ts": `import type { UiHost } from "../controller/host.js";\nexport const close = (h: UiHost) => h.setUi((ui) => ui);\n`,
  });
  const { status, report } = check("--min-modules", "1", dir);
  expect(status).toBe(1);
  const caught = report!.violations.filter((v) => v.rule === "key-layers-through-the-host");
  expect(caught.map((v) => `${v.from} -> ${v.to}`).sort()).toEqual([
    "src/ui/dialogs/confirm.ts -> src/ui/controller/controller.ts",
    "src/ui/focus/tasks.ts -> src/ui/controller/controller.ts",
    "src/ui/tabs/diff/keys.ts -> src/ui/controller/controller.ts",
  ]);
  expect(report!.violations.filter((v) => v.from === "src/ui/dialogs/queue.ts")).toEqual([]);
});

it("fails rather than passes when it cruised too few modules to have looked", () => {
  const dir = tree({ "src/protocol/events.ts": `export type BusEvent = { type: "x" };\n` });
  const { status, stderr } = check(dir);
  expect(status).toBe(2);
  expect(stderr).toMatch(/only 1 modules cruised/);
});
