// parsePatch, table-driven: patch text in, file operations (or the error the model would read) out.
import { describe, expect, it } from "vitest";
import { ToolError } from "../../src/tools/define.js";
import { parsePatch, type FileOp } from "../../src/tools/patch-parse.js";

const P = (...lines: string[]): string => lines.join("\n");

interface Case {
  name: string;
  patch: string;
  ops?: FileOp[];
  error?: string;
}

const cases: Case[] = [
  {
    name: "every Codex operation",
    patch: P(
      "*** Begin Patch",
      "*** Add File: n.txt",
      "+a",
      "+",
      "*** Delete File: d.txt",
      "*** Update File: u.ts",
      "*** Move to: v.ts",
      "@@ function f() {",
      " ctx",
      "-old",
      "+new",
      "*** End of File",
      "*** End Patch",
    ),
    ops: [
      { type: "add", path: "n.txt", content: "a\n\n" },
      { type: "delete", path: "d.txt" },
      {
        type: "update",
        path: "u.ts",
        moveTo: "v.ts",
        hunks: [
          {
            anchor: "function f() {",
            anchorRequired: true,
            oldLines: ["ctx", "old"],
            newLines: ["ctx", "new"],
            endOfFile: true,
          },
        ],
      },
    ],
  },
  {
    name: "consecutive @@ lines become outer anchors",
    patch: P("*** Begin Patch", "*** Update File: a.py", "@@ class A:", "@@ def f(self):", "-x", "+y", "*** End Patch"),
    ops: [
      {
        type: "update",
        path: "a.py",
        hunks: [
          {
            anchor: "def f(self):",
            outerAnchors: ["class A:"],
            anchorRequired: true,
            oldLines: ["x"],
            newLines: ["y"],
          },
        ],
      },
    ],
  },
  {
    name: "trailing blank lines without a space are separators, inner ones are context",
    patch: P("*** Begin Patch", "*** Update File: a", " x", "", "-y", "", "", "*** Delete File: b", "*** End Patch"),
    ops: [
      { type: "update", path: "a", hunks: [{ oldLines: ["x", "", "y"], newLines: ["x", ""] }] },
      { type: "delete", path: "b" },
    ],
  },
  {
    name: "prose before the patch and a missing End Patch",
    patch: P("Here is the patch:", "*** Begin Patch", "*** Delete File: x"),
    ops: [{ type: "delete", path: "x" }],
  },
  {
    name: "a ~~~ fence around a heredoc",
    patch: P("~~~", 'apply_patch <<"PATCH"', "*** Begin Patch", "*** Delete File: x", "*** End Patch", "PATCH", "~~~"),
    ops: [{ type: "delete", path: "x" }],
  },
  {
    name: "CRLF patch text",
    patch: "*** Begin Patch\r\n*** Add File: a\r\n+x\r\n*** End Patch\r\n",
    ops: [{ type: "add", path: "a", content: "x\n" }],
  },
  {
    name: "unified: git extended headers, hint lines and function headers",
    patch: P(
      "diff --git a/src/x.c b/src/x.c",
      "index 83db48f..bf269f4 100644",
      "--- a/src/x.c",
      "+++ b/src/x.c",
      "@@ -10,3 +10,3 @@ int main(void)",
      " a",
      "-b",
      "+c",
      " d",
      "@@ -20 +20,2 @@",
      " e",
      "+f",
    ),
    ops: [
      {
        type: "update",
        path: "src/x.c",
        hunks: [
          { anchor: "int main(void)", hintLine: 10, oldLines: ["a", "b", "d"], newLines: ["a", "c", "d"] },
          { hintLine: 20, oldLines: ["e"], newLines: ["e", "f"] },
        ],
      },
    ],
  },
  {
    name: "unified: plain diff -u with timestamps and no prefixes",
    patch: P("--- lib/a.txt\t2024-01-01 10:00:00", "+++ lib/a.txt\t2024-01-02 10:00:00", "@@ -1 +1 @@", "-x", "+y"),
    ops: [{ type: "update", path: "lib/a.txt", hunks: [{ hintLine: 1, oldLines: ["x"], newLines: ["y"] }] }],
  },
  {
    name: "unified: a blank context line that lost its space, inside the counts",
    patch: P("--- a/f", "+++ b/f", "@@ -1,3 +1,3 @@", " a", "", "-b", "+c"),
    ops: [{ type: "update", path: "f", hunks: [{ hintLine: 1, oldLines: ["a", "", "b"], newLines: ["a", "", "c"] }] }],
  },
  {
    name: "unified: a removed '--- x' line inside a hunk is not a file header",
    patch: P(
      "--- a/f.md",
      "+++ b/f.md",
      "@@ -1,2 +1,1 @@",
      " title",
      "---- rule",
      "--- a/g",
      "+++ b/g",
      "@@ -1 +1 @@",
      "-1",
      "+2",
    ),
    ops: [
      { type: "update", path: "f.md", hunks: [{ hintLine: 1, oldLines: ["title", "--- rule"], newLines: ["title"] }] },
      { type: "update", path: "g", hunks: [{ hintLine: 1, oldLines: ["1"], newLines: ["2"] }] },
    ],
  },
  {
    name: "unified: new and deleted files, the new one without final newline",
    patch: P(
      "diff --git a/n b/n",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/n",
      "@@ -0,0 +1,2 @@",
      "+1",
      "+2",
      "\\ No newline at end of file",
      "diff --git a/e b/e",
      "new file mode 100644",
      "index 0000000..e69de29",
      "diff --git a/d b/d",
      "deleted file mode 100644",
      "--- a/d",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-gone",
    ),
    ops: [
      { type: "add", path: "n", content: "1\n2" },
      { type: "add", path: "e", content: "" },
      { type: "delete", path: "d" },
    ],
  },
  {
    name: "unified: quoted non-ASCII names from git",
    patch: P(
      'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
      '--- "a/caf\\303\\251.txt"',
      '+++ "b/caf\\303\\251.txt"',
      "@@ -1 +1 @@",
      "-a",
      "+b",
    ),
    ops: [{ type: "update", path: "caf\u00e9.txt", hunks: [{ hintLine: 1, oldLines: ["a"], newLines: ["b"] }] }],
  },
  {
    name: "unified: mode-only changes are skipped, commit message and signature ignored",
    patch: P(
      "From 1234 Mon Sep 17 00:00:00 2001",
      "Subject: [PATCH] tweak",
      "",
      "- a bullet in the message",
      "---",
      " x | 2 +-",
      "",
      "diff --git a/s.sh b/s.sh",
      "old mode 100644",
      "new mode 100755",
      "diff --git a/x b/x",
      "--- a/x",
      "+++ b/x",
      "@@ -1 +1 @@",
      "-1",
      "+2",
      "-- ",
      "2.39.5",
    ),
    ops: [{ type: "update", path: "x", hunks: [{ hintLine: 1, oldLines: ["1"], newLines: ["2"] }] }],
  },
  {
    name: "a patch indented as a whole",
    patch: P("    *** Begin Patch", "    *** Update File: a", "     ctx", "    -x", "    +y", "    *** End Patch"),
    ops: [{ type: "update", path: "a", hunks: [{ oldLines: ["ctx", "x"], newLines: ["ctx", "y"] }] }],
  },
  {
    name: "two patches one after the other",
    patch: P(
      "*** Begin Patch",
      "*** Delete File: a",
      "*** End Patch",
      "",
      "*** Begin Patch",
      "*** Delete File: b",
      "*** End Patch",
      "EOF",
    ),
    ops: [
      { type: "delete", path: "a" },
      { type: "delete", path: "b" },
    ],
  },
  {
    name: "issue 36: padded markers inside a hunk are context; unpadded ones still end it",
    patch: P(
      "*** Begin Patch",
      "*** Update File: a.txt",
      " *** Update File: b.txt",
      " *** Add File: c.txt",
      " *** Delete File: d.txt",
      " *** End of File",
      " *** End Patch",
      "-x",
      "+y",
      "*** Delete File: e.txt",
      "*** Update File: f.txt",
      "-1",
      "+2",
      "*** End of File",
      "*** Add File: g.txt",
      "+g",
      "*** End Patch",
    ),
    ops: [
      {
        type: "update",
        path: "a.txt",
        hunks: [
          {
            oldLines: [
              "*** Update File: b.txt",
              "*** Add File: c.txt",
              "*** Delete File: d.txt",
              "*** End of File",
              "*** End Patch",
              "x",
            ],
            newLines: [
              "*** Update File: b.txt",
              "*** Add File: c.txt",
              "*** Delete File: d.txt",
              "*** End of File",
              "*** End Patch",
              "y",
            ],
          },
        ],
      },
      { type: "delete", path: "e.txt" },
      { type: "update", path: "f.txt", hunks: [{ oldLines: ["1"], newLines: ["2"], endOfFile: true }] },
      { type: "add", path: "g.txt", content: "g\n" },
    ],
  },
  {
    name: "a padded *** End Patch on the last line still ends the patch",
    patch: P("*** Begin Patch", "*** Update File: a", "-x", "+y", "  *** End Patch", "", ""),
    ops: [{ type: "update", path: "a", hunks: [{ oldLines: ["x"], newLines: ["y"] }] }],
  },
  {
    name: "padded headers between files are still headers",
    patch: P(
      "*** Begin Patch",
      "*** Add File: n",
      "+n",
      "  *** Delete File: d",
      "\t*** Delete File: e",
      "*** End Patch",
    ),
    ops: [
      { type: "add", path: "n", content: "n\n" },
      { type: "delete", path: "d" },
      { type: "delete", path: "e" },
    ],
  },
  {
    name: "a heredoc around a patch with leading blank lines",
    patch: P("", "", "apply_patch <<'EOF'", "*** Begin Patch", "*** Delete File: x", "*** End Patch", "EOF", ""),
    ops: [{ type: "delete", path: "x" }],
  },
  {
    name: "unified: a context line that reads like a Codex header",
    patch: P("--- a/f.md", "+++ b/f.md", "@@ -1,2 +1,2 @@", " *** Update File: x", "-a", "+b"),
    ops: [
      {
        type: "update",
        path: "f.md",
        hunks: [{ hintLine: 1, oldLines: ["*** Update File: x", "a"], newLines: ["*** Update File: x", "b"] }],
      },
    ],
  },
  // ---- Errors the model has to fix ----
  { name: "empty", patch: "  \n\n", error: "invalid patch: it is empty" },
  {
    name: "issue 36: no *** Begin Patch",
    patch: P("*** Update File: a.txt", "@@", "-old", "+new", "*** End Patch"),
    error: 'line 1: missing "*** Begin Patch"',
  },
  {
    name: "no *** Begin Patch inside a heredoc, after a padded header",
    patch: P("apply_patch <<'EOF'", "", "  *** Delete File: x", "*** End Patch", "EOF"),
    error: 'line 3: missing "*** Begin Patch"',
  },
  {
    name: "a hunk without a file",
    patch: P("@@ -1 +1 @@", "-a", "+b"),
    error: "line 1: a hunk needs a file header before it",
  },
  {
    name: "unknown Codex header",
    patch: P("*** Begin Patch", "*** Modify File: a", "*** End Patch"),
    error:
      'line 2: expected "*** Add File: <path>", "*** Update File: <path>", "*** Delete File: <path>" or "*** End Patch", got "*** Modify File: a"',
  },
  {
    name: "Add File line without +",
    patch: P("*** Begin Patch", "*** Add File: a", "+x", "y"),
    error: 'line 4: every line of "*** Add File: a" must start with "+"',
  },
  {
    name: "Update File without hunks",
    patch: P("*** Begin Patch", "*** Update File: a", "*** End Patch"),
    error: 'line 2: "*** Update File: a" has no changes',
  },
  {
    name: "Add File without a path",
    patch: P("*** Begin Patch", "*** Add File:", "+x"),
    error: 'line 2: "*** Add File:" needs a path',
  },
  {
    name: "an empty @@ hunk",
    patch: P("*** Begin Patch", "*** Update File: a", " x", "@@", "*** End Patch"),
    error: 'line 4: a hunk of "a" has no lines',
  },
  {
    name: "End of File outside a hunk",
    patch: P("*** Begin Patch", "*** Update File: a", "*** End of File"),
    error: 'line 3: "*** End of File" must follow',
  },
  {
    name: "binary git patch",
    patch: P("diff --git a/i.png b/i.png", "Binary files a/i.png and b/i.png differ"),
    error: "line 2: binary patches are not supported",
  },
  {
    name: "+ line after a hunk ended",
    patch: P("--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a", "+b", "junk", "+c"),
    error: 'line 7: a "+" line outside any hunk',
  },
  {
    name: "add file with '-' lines in a unified diff",
    patch: P("--- /dev/null", "+++ b/n", "@@ -1 +1 @@", "-a", "+b"),
    error: '"n" is a new file (/dev/null)',
  },
];

describe("parsePatch", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    if (c.error !== undefined) {
      expect(() => parsePatch(c.patch)).toThrow(ToolError);
      expect(() => parsePatch(c.patch)).toThrow(c.error);
      return;
    }
    expect(parsePatch(c.patch)).toEqual(c.ops);
  });
});
