// /review's diff text: every file /diff lists, in unified-diff form, and what the caps left out.
import { expect, it } from "vitest";
import { worktreeText } from "../../src/agent/workspace-source.js";
import type { WorktreeFile } from "../../src/agent/workspace-view.js";

const file = (f: Partial<WorktreeFile> & Pick<WorktreeFile, "path" | "status">): WorktreeFile => ({
  added: 0,
  removed: 0,
  binary: false,
  patch: null,
  ...f,
});

it("writes each kind of change as a unified diff, untracked files as new ones", () => {
  const text = worktreeText(
    [
      file({ path: "a.ts", status: "modified", patch: "@@ -1 +1 @@\n-old\n+new\n" }),
      file({ path: "gone.ts", status: "deleted", patch: "@@ -1 +0,0 @@\n-bye\n" }),
      file({ path: "idea.md", status: "untracked", patch: "@@ -0,0 +1 @@\n+hello\n" }),
      file({ path: "logo.png", status: "modified", binary: true }),
      file({ path: "huge.log", status: "untracked", note: "too large to show here" }),
    ],
    ["not shown: /diff reads at most 1,024 KiB of diff"],
  );
  expect(text).toBe(
    [
      "diff --git a/a.ts b/a.ts",
      "--- a/a.ts",
      "+++ b/a.ts",
      "@@ -1 +1 @@\n-old\n+new",
      "diff --git a/gone.ts b/gone.ts",
      "--- a/gone.ts",
      "+++ /dev/null",
      "@@ -1 +0,0 @@\n-bye",
      "diff --git a/idea.md b/idea.md",
      "new file (untracked: not added to git yet)",
      "--- /dev/null",
      "+++ b/idea.md",
      "@@ -0,0 +1 @@\n+hello",
      "diff --git a/logo.png b/logo.png",
      "Binary file logo.png changed",
      "diff --git a/huge.log b/huge.log",
      "new file (untracked: not added to git yet)",
      "(too large to show here)",
      "(not shown: /diff reads at most 1,024 KiB of diff)",
    ].join("\n"),
  );
});

it("says there is nothing when nothing changed", () => {
  expect(worktreeText([], [])).toMatch(/^no /);
});
