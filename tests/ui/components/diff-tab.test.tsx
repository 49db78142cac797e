// The Diff tab (/diff) on its own at 40, 80 and 120 columns: the summary, the file list, the
// selected file's coloured diff wrapped at token boundaries, binary and capped files, an open file.
import { afterEach, describe, expect, it } from "vitest";
import type { WorktreeDiff, WorktreeFile } from "../../../src/agent/workspace-view.js";
import type { WorktreeView } from "../../../src/ui/state/ui-state.js";
import { visibleWidth } from "../../../src/ui/render/wrap.js";
import { mountPane } from "./mount.js";
import { tabComponent } from "../../../src/ui/components/ResultsTab.js";

const DiffTab = tabComponent("diff");

let mounted: ReturnType<typeof mountPane> | undefined;
afterEach(() => {
  mounted?.app.unmount();
  mounted = undefined;
});

const long = "  const returnValue = computeSomething(argumentOne, argumentTwo, argumentThree);";
const files: WorktreeFile[] = [
  {
    path: "src/app.ts",
    status: "modified",
    added: 2,
    removed: 1,
    binary: false,
    patch: `@@ -1,3 +1,4 @@\n import { x } from "./x";\n-const a = 1;\n+const a = 2;\n+${long}\n export { a };\n@@ -20,2 +21,2 @@\n-old tail\n+new tail\n keep\n`,
  },
  { path: "logo.png", status: "modified", added: 0, removed: 0, binary: true, patch: null, note: "binary" },
  {
    path: "huge.json",
    status: "modified",
    added: 5000,
    removed: 0,
    binary: false,
    patch: null,
    note: "too large to show here (5,000 lines changed; the cap is 4,000)",
  },
  { path: "notes.md", status: "untracked", added: 1, removed: 0, binary: false, patch: "@@ -0,0 +1,1 @@\n+hello\n" },
];
const result: WorktreeDiff = { ok: true, root: "/work/demo", base: "HEAD", files, notes: [] };
const view = (over: Partial<WorktreeView> = {}): WorktreeView => ({
  result,
  loading: false,
  seq: 1,
  index: 0,
  open: false,
  offset: 0,
  hunk: 0,
  ...over,
});

describe.each([40, 80, 120])("at %i columns", (columns) => {
  // The pane's inner width at each size: 26 beside the transcript at 120, an overlay below.
  const width = columns === 120 ? 26 : Math.min(58, columns) - 2;
  const tab = { width, height: 16, focused: true };

  async function frame(over: Partial<WorktreeView> = {}): Promise<string[]> {
    mounted = mountPane(<DiffTab {...tab} />, columns, 24);
    mounted.store.updateUi((ui) => ({
      ...ui,
      resultsOpen: true,
      focus: "results",
      resultsTab: "diff",
      worktreeDiff: view(over),
    }));
    const lines = (await mounted.frame()).split("\n");
    expect(lines.length).toBeLessThanOrEqual(16);
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(width);
    return lines;
  }

  it("the summary, each file with its mark and counts, then the selected file's diff", async () => {
    const lines = await frame();
    expect(lines[0]).toMatch(/^4 files \+5003 -1/);
    expect(lines.find((l) => l.includes("src/app.ts"))).toMatch(/M src\/app\.ts\s+\+2 -1$/);
    expect(lines.find((l) => l.includes("logo.png"))).toMatch(/M logo\.png\s+binary$/);
    expect(lines.find((l) => l.includes("notes.md"))).toMatch(/^\? notes\.md\s+\+1 -0$/);
    const text = lines.join("\n");
    expect(text).toContain("@@ -1,3 +1,4 @@");
    expect(text).toContain("const a = 2;");
  });

  it("wraps a long changed line between tokens, never inside a word", async () => {
    const lines = await frame({ open: true });
    const words = long.trim().match(/[A-Za-z]+/g)!;
    const shown = lines.join(" ");
    for (const w of words) expect(shown).toContain(w);
  });

  it("a binary file says binary; a capped one says why and the cap", async () => {
    let lines = await frame({ index: 1 });
    // Under the list's rule: the file's name, then "binary".
    const rule = lines.findIndex((l) => l.startsWith("───"));
    expect(lines.slice(rule + 1, rule + 3).map((l) => l.trim())).toEqual(["logo.png", "binary"]);
    mounted?.app.unmount();
    lines = await frame({ index: 2, open: true });
    expect(lines.join(" ").replace(/\s+/g, " ")).toContain("the cap is 4,000");
  });

  it("an open file's diff fills the tab, from the hunk jumped to", async () => {
    const lines = await frame({ open: true, offset: 6 });
    expect(lines.join("\n")).not.toContain("M logo.png");
    expect(lines.join("\n")).toMatch(/new tail/);
  });

  it("not a repository: the error, wrapped at words", async () => {
    const error = "not a git repository: /work/demo/some/folder";
    const lines = await frame({ result: { ok: false, error } });
    expect(lines.join(" ").replace(/\s+/g, " ")).toContain(error);
  });
});
