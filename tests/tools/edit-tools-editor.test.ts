// write_file, edit_file and apply_patch with an editor's view of files (ACP's fs/read_text_file and
// fs/write_text_file): the disk's checks and the write boundary first, the edit applied to the
// editor's text, the new text handed to the editor, the disk written only when the editor takes no writes.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyPatchTool } from "../../src/tools/apply-patch.js";
import type { AnyTool, EditorFiles } from "../../src/tools/define.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { tempDir } from "../helpers/cli.js";
import { callTool } from "../helpers/tools.js";

/** An editor holding `buffers` (by absolute path); records every write; `refuse` makes writes to a path fail. */
function fakeEditor(buffers: Record<string, string> = {}, opts: { writes?: boolean; refuse?: string } = {}) {
  const writes: { path: string; text: string }[] = [];
  const files: EditorFiles = {
    readText: async (abs) => buffers[abs] ?? null,
    ...(opts.writes === false
      ? {}
      : {
          writeText: async (abs: string, text: string) => {
            writes.push({ path: abs, text });
            if (abs === opts.refuse) throw new Error("buffer is read-only");
            buffers[abs] = text;
          },
        }),
  };
  return { files, writes, buffers };
}

function workspace(): string {
  const ws = tempDir();
  writeFileSync(join(ws, "a.txt"), "saved one\nsaved two\n");
  writeFileSync(join(ws, "b.txt"), "bee\n");
  return ws;
}

const call = (tool: AnyTool, ws: string, files: EditorFiles, args: object) =>
  callTool(tool, args, ws, undefined, { editorFiles: files });
const disk = (ws: string, name: string) => readFileSync(join(ws, name), "utf8");
const patch = (...lines: string[]) => ({ patch: ["*** Begin Patch", ...lines, "*** End Patch"].join("\n") });

describe("file tools through the editor", () => {
  it.each([
    ["edit_file", editFileTool, { path: "a.txt", old_string: "unsaved one", new_string: "edited one" }],
    ["apply_patch", applyPatchTool, patch("*** Update File: a.txt", "-unsaved one", "+edited one", " saved two")],
  ])(
    "%s applies to the editor's unsaved text and hands the result to the editor; the disk is untouched",
    async (_n, tool, args) => {
      const ws = workspace();
      const abs = join(ws, "a.txt");
      const editor = fakeEditor({ [abs]: "unsaved one\nsaved two\n" });
      const r = await call(tool, ws, editor.files, args);
      expect(r.status).toBe("ok");
      expect(r.forModel).toMatch(/through the editor|went to the editor/);
      expect(editor.writes).toEqual([{ path: abs, text: "edited one\nsaved two\n" }]);
      expect(disk(ws, "a.txt")).toBe("saved one\nsaved two\n");
    },
  );

  it.each([
    ["write_file", writeFileTool, { path: "a.txt", content: "whole\n" }, "whole\n"],
    ["edit_file", editFileTool, { path: "a.txt", old_string: "saved two", new_string: "two" }, "saved one\ntwo\n"],
  ])(
    "%s on a file the editor has no buffer of: the disk's text, written through the editor",
    async (_n, tool, args, text) => {
      const ws = workspace();
      const editor = fakeEditor();
      expect((await call(tool, ws, editor.files, args)).status).toBe("ok");
      expect(editor.writes).toEqual([{ path: join(ws, "a.txt"), text }]);
      expect(disk(ws, "a.txt")).toBe("saved one\nsaved two\n");
    },
  );

  it("writes the disk when the editor reads but does not take writes (the edit still applies to its text)", async () => {
    const ws = workspace();
    const editor = fakeEditor({ [join(ws, "a.txt")]: "unsaved one\n" }, { writes: false });
    const r = await call(editFileTool, ws, editor.files, {
      path: "a.txt",
      old_string: "unsaved",
      new_string: "edited",
    });
    expect(r.status).toBe("ok");
    expect(disk(ws, "a.txt")).toBe("edited one\n");
  });

  it.each([
    ["write_file", writeFileTool, { path: ".git/hooks/pre-commit", content: "#!/bin/sh\n" }, /protected/],
    ["edit_file", editFileTool, { path: ".git/hooks/pre-commit", old_string: "", new_string: "x" }, /protected/],
    ["apply_patch", applyPatchTool, patch("*** Add File: .git/hooks/pre-commit", "+x"), /protected/],
    ["write_file", writeFileTool, { path: "/etc/nh-outside.txt", content: "x" }, /outside the workspace/],
  ])("%s refuses a path the write boundary refuses without asking the editor", async (_n, tool, args, why) => {
    const ws = workspace();
    mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
    const editor = fakeEditor();
    const r = await call(tool, ws, editor.files, args);
    expect(r.status).toBe("error");
    expect(r.forModel).toMatch(why);
    expect(editor.writes).toEqual([]);
  });

  it.each([
    ["write_file", writeFileTool, { path: "a.txt", content: "new\n" }],
    ["edit_file", editFileTool, { path: "a.txt", old_string: "saved one", new_string: "one" }],
  ])("%s says clearly when the editor does not write, and the disk is left as it was", async (_n, tool, args) => {
    const ws = workspace();
    const editor = fakeEditor({}, { refuse: join(ws, "a.txt") });
    const r = await call(tool, ws, editor.files, args);
    expect(r.status).toBe("error");
    expect(r.forModel).toMatch(/the editor did not write a\.txt \(buffer is read-only\)/);
    expect(disk(ws, "a.txt")).toBe("saved one\nsaved two\n");
  });

  it("a new file the editor refuses leaves no directory behind", async () => {
    const ws = workspace();
    const editor = fakeEditor({}, { refuse: join(ws, "new", "deep", "c.txt") });
    const r = await call(writeFileTool, ws, editor.files, { path: "new/deep/c.txt", content: "c\n" });
    expect(r.status).toBe("error");
    expect(existsSync(join(ws, "new"))).toBe(false);
  });

  it("apply_patch gives the editor its texts back when a later write is refused", async () => {
    const ws = workspace();
    const a = join(ws, "a.txt");
    const editor = fakeEditor({ [a]: "unsaved one\nsaved two\n" }, { refuse: join(ws, "b.txt") });
    const r = await call(
      applyPatchTool,
      ws,
      editor.files,
      patch("*** Update File: a.txt", "-unsaved one", "+one", "*** Update File: b.txt", "-bee", "+bea"),
    );
    expect(r.status).toBe("error");
    expect(r.forModel).toMatch(/the editor did not write b\.txt .*restored/);
    expect(editor.writes.map((w) => w.text)).toEqual(["one\nsaved two\n", "bea\n", "unsaved one\nsaved two\n"]);
    expect(editor.buffers[a]).toBe("unsaved one\nsaved two\n");
    expect([disk(ws, "a.txt"), disk(ws, "b.txt")]).toEqual(["saved one\nsaved two\n", "bee\n"]);
  });

  it("apply_patch deletes on disk (ACP has no delete) and adds through the editor", async () => {
    const ws = workspace();
    const editor = fakeEditor();
    const r = await call(
      applyPatchTool,
      ws,
      editor.files,
      patch("*** Delete File: b.txt", "*** Add File: c.txt", "+c"),
    );
    expect(r.status).toBe("ok");
    expect(existsSync(join(ws, "b.txt"))).toBe(false);
    expect(editor.writes).toEqual([{ path: join(ws, "c.txt"), text: "c\n" }]);
  });
});
