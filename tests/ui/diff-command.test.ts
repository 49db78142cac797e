// /diff through the controller on a real repository: the read lands in the UI state, the results
// pane opens on the Diff tab with the focus, its keys move, open, jump hunks and close, and a
// second /diff reads again. Outside git, only a status line.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { WorkspaceSource } from "../../src/agent/workspace-view.js";
import { readWorktreeDiff } from "../../src/agent/worktree-diff.js";
import { tempDir } from "../helpers/cli.js";
import { gitRepo } from "../helpers/git-repo.js";
import { renderUi, until, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

function source(root: string): WorkspaceSource {
  return {
    root,
    endpoint: "http://mock",
    commands: () => [],
    untrustedCommands: () => false,
    context: () => null,
    diff: async () => ({ ok: true, text: "" }),
    worktree: () => readWorktreeDiff(root),
  };
}

function repo(): string {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
  const { ws } = gitRepo({ "a.txt": `${lines.join("\n")}\n` });
  lines[1] = "line 2 changed";
  lines[25] = "line 26 changed";
  writeFileSync(join(ws, "a.txt"), `${lines.join("\n")}\n`);
  writeFileSync(join(ws, "b.txt"), "new\n");
  return ws;
}

async function slashDiff(harness: Harness): Promise<void> {
  harness.keys("/diff");
  harness.keys("\x1b");
  harness.keys("\r");
}

describe("/diff", () => {
  it.each([120, 80, 50])("at %i columns: opens the pane on the Diff tab, focused; keys browse it", async (columns) => {
    const ws = repo();
    h = await renderUi(columns, 30, { workspace: source(ws) });
    await slashDiff(h);
    const harness = h;
    await until(harness, () => harness.store.getState().ui.worktreeDiff?.result?.ok === true);
    let ui = h.store.getState().ui;
    expect(ui).toMatchObject({ resultsOpen: true, focus: "results", resultsTab: "diff", dialog: null });
    expect(ui.status?.text).toBe("/diff: 2 files (+3 -2), untracked included");
    const result = ui.worktreeDiff!.result!;
    expect(result.ok && result.files.map((f) => [f.path, f.status])).toEqual([
      ["a.txt", "modified"],
      ["b.txt", "untracked"],
    ]);

    // ] opens the selected file at its first hunk, again at the second; Esc back to the list.
    h.keys("]");
    h.keys("]");
    ui = h.store.getState().ui;
    expect(ui.worktreeDiff).toMatchObject({ open: true, hunk: 1 });
    expect(ui.status?.text).toBe("hunk 2 of 2");
    expect(await h.frame()).toContain("line 26 changed");
    h.keys("\x1b");
    expect(h.store.getState().ui.worktreeDiff?.open).toBe(false);
    h.keys("\x1b[B");
    expect(h.store.getState().ui.worktreeDiff?.index).toBe(1);
    h.keys("\r");
    expect(h.store.getState().ui.worktreeDiff).toMatchObject({ open: true, index: 1 });
    h.keys("\x1b");
    h.keys("\x1b");
    expect(h.store.getState().ui.focus).toBe("composer");
    // A pane drawn over the transcript goes with the focus; beside it (120 columns) it stays.
    expect(h.store.getState().ui.resultsOpen).toBe(columns >= 120);

    // /diff again reads again, and keeps the selected file.
    writeFileSync(join(ws, "b.txt"), "new\nand more\n");
    await slashDiff(h);
    await until(harness, () => {
      const r = harness.store.getState().ui.worktreeDiff?.result;
      return Boolean(r?.ok && r.files[1]?.added === 2);
    });
    expect(h.store.getState().ui.worktreeDiff).toMatchObject({ index: 1, seq: 2, loading: false });
  });

  it("outside a git repository: a status line, no pane and no tab", async () => {
    h = await renderUi(80, 24, { workspace: source(tempDir()) });
    await slashDiff(h);
    const harness = h;
    await until(harness, () => /not a git repository/.test(harness.store.getState().ui.status?.text ?? ""));
    const ui = h.store.getState().ui;
    expect(ui.status?.level).toBe("error");
    expect(ui).toMatchObject({ resultsOpen: false, worktreeDiff: null, focus: "composer" });
  });
});
