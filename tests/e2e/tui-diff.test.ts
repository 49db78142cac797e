// /diff in a real terminal: the working tree's diff (a modified and an untracked file) in the
// results pane's Diff tab, focused; at 50 columns the pane takes the width. Outside git: a status.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { gitRepo } from "../helpers/git-repo.js";
import type { MockServer } from "../helpers/mock-openai.js";
import { keys, type PtyApp } from "../helpers/pty.js";

function repo(): string {
  const { ws } = gitRepo({ "notes.txt": "first line\nsecond line\n" });
  writeFileSync(join(ws, "notes.txt"), "first line\nsecond line changed\n");
  writeFileSync(join(ws, "todo.md"), "an untracked file\n");
  return ws;
}

async function start(cols: number, rows: number, ws: string): Promise<{ app: PtyApp; mock: MockServer }> {
  const { mock, pty } = await e2eEnv([], { model: "mock-model" });
  const app = pty({ cols, rows, cwd: ws });
  await app.waitFor("Ask anything");
  await sendDiff(app);
  return { app, mock };
}

/**
 * Types /diff and sends it. Esc closes the completion list first (Enter would pick from it); Enter
 * goes once the list is seen gone, so Esc was read on its own and the two are not one Alt chord.
 */
async function sendDiff(a: PtyApp): Promise<void> {
  await a.typeSlowly("/diff");
  await a.waitFor("the working tree's changes");
  a.type(keys.esc);
  await a.waitFor((s) => !s.includes("the working tree's changes"));
  a.type(keys.enter);
}

describe.each([
  [120, 40],
  [80, 24],
  [50, 20],
])("/diff at %ix%i", (cols, rows) => {
  it("shows the modified and the untracked file in the focused Diff tab; Enter opens one, /diff again reads again", async () => {
    const ws = repo();
    const { app, mock } = await start(cols, rows, ws);
    const screen = await app.waitFor("[Diff]");
    expect(screen).toMatch(/M notes\.txt\s+\+1 -1/);
    expect(screen).toMatch(/\? todo\.md\s+\+1 -0/);
    // The first file's diff under the list, with the changed line's words intact.
    await app.waitFor("second line changed");
    expect(app.screen()).toContain("/diff: 2 files (+2 -1), untracked included");
    expect(mock.requests).toHaveLength(0);

    // ↓ selects the untracked file, Enter opens its diff over the whole tab.
    app.type(keys.down);
    await app.waitFor(/todo\.md \(untracked\) \+1 -0/);
    app.type(keys.enter);
    await app.waitFor((s) => !s.includes("M notes.txt") && s.includes("an untracked file"));

    // Esc back to the list, Esc back to the input. A change made meanwhile shows after /diff
    // again, and the selected file stays selected.
    writeFileSync(join(ws, "todo.md"), "an untracked file\nwith a second line\n");
    // Each key goes once the screen shows the one before it was read (two Esc in one read are not two).
    app.type(keys.esc);
    await app.waitFor("M notes.txt");
    await app.typeAndWait(keys.esc);
    await app.waitFor("Ask anything");
    await sendDiff(app);
    await app.waitFor("with a second line");
  });
});

it("at 50x20 the pane takes the width: its border in the first column, the tab bar and the list beside it", async () => {
  const { app } = await start(50, 20, repo());
  await app.waitFor("second line changed");
  const lines = app.lines();
  const bar = lines.findIndex((l) => l.includes("[Diff]"));
  expect(bar).toBeGreaterThan(0);
  // Every row of the pane starts with its border; the list's counts end at the right edge.
  for (const l of lines.slice(bar, bar + 5)) expect(l.startsWith("│ ")).toBe(true);
  const row = lines.find((l) => l.includes("M notes.txt"))!;
  expect(row.length).toBe(50);
  expect(row.endsWith("+1 -1")).toBe(true);
});

it("outside a git repository: a status line says so, and no pane opens", async () => {
  const { app } = await start(80, 24, tempDir());
  await app.waitFor("/diff: not a git repository");
  expect(app.screen()).not.toContain("[Diff]");
});
