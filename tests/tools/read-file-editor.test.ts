// read_file with an editor's view of files (ACP's fs/read_text_file): the disk's checks first,
// then the editor's text, and the disk's text whenever the editor has none.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EditorFiles } from "../../src/tools/define.js";
import { readFileTool } from "../../src/tools/read-file.js";
import { tempDir } from "../helpers/cli.js";
import { callTool } from "../helpers/tools.js";

function workspace(): string {
  const ws = tempDir();
  writeFileSync(join(ws, "a.txt"), "on disk\n");
  writeFileSync(join(ws, "bin.dat"), Buffer.from([0, 1, 2, 0, 255]));
  return ws;
}

const editor = (read: EditorFiles["readText"]): EditorFiles => ({ readText: read });
const read = (ws: string, files: EditorFiles, args: object) =>
  callTool(readFileTool, args, ws, undefined, { editorFiles: files });

describe("read_file and the editor's files", () => {
  it("shows the editor's text, windowed like the disk's", async () => {
    const ws = workspace();
    const r = await read(
      ws,
      editor(async () => "one\ntwo\nthree\n"),
      { path: "a.txt", offset: 2, limit: 1 },
    );
    expect(r.forModel).toMatch(/^ {5}2\ttwo\n\[lines 2-2 of 3 shown/);
  });

  it.each([
    ["has no buffer", async () => null],
    ["fails", async () => Promise.reject(new Error("editor gone"))],
  ])("reads the disk when the editor %s", async (_why, readText) => {
    const ws = workspace();
    expect((await read(ws, editor(readText), { path: "a.txt" })).forModel).toBe("     1\ton disk");
  });

  it("keeps the disk's checks: a missing or binary file is refused without asking the editor", async () => {
    const ws = workspace();
    const asked: string[] = [];
    const files = editor(async (abs) => {
      asked.push(abs);
      return "text";
    });
    expect((await read(ws, files, { path: "nope.txt" })).forModel).toMatch(/no such file/);
    expect((await read(ws, files, { path: "bin.dat" })).forModel).toMatch(/binary file/);
    expect(asked).toEqual([]);
  });
});
