// read_file, write_file and edit_file against real temp directories.
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { editFileTool } from "../../src/tools/edit-file.js";
import { readFileTool } from "../../src/tools/read-file.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { tempDir } from "../helpers/cli.js";
import { callTool } from "../helpers/tools.js";

describe("read_file", () => {
  it("numbers lines and pages with offset/limit", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "a.txt"), Array.from({ length: 10 }, (_, i) => `line${i + 1}`).join("\n") + "\n");
    const all = await callTool(readFileTool, { path: "a.txt" }, ws);
    expect(all.forModel.split("\n")).toHaveLength(10);
    expect(all.forModel.split("\n")[0]).toBe("     1\tline1");
    const part = await callTool(readFileTool, { path: "a.txt", offset: 4, limit: 2 }, ws);
    expect(part.forModel).toBe(
      '     4\tline4\n     5\tline5\n[lines 4-5 of 10 shown; 5 more lines: read_file {"path": "a.txt", "offset": 6}]',
    );
    const past = await callTool(readFileTool, { path: "a.txt", offset: 11 }, ws);
    expect(past).toMatchObject({ status: "error", forModel: "a.txt has 10 lines; offset 11 is past the end" });
  });

  it("says clearly when a path is missing, a directory, empty, or binary", async () => {
    const ws = tempDir();
    mkdirSync(join(ws, "dir"));
    writeFileSync(join(ws, "empty.txt"), "");
    writeFileSync(join(ws, "bin.dat"), Buffer.from([1, 2, 0, 3, 4]));
    expect((await callTool(readFileTool, { path: "nope" }, ws)).forModel).toBe("no such file: nope");
    expect((await callTool(readFileTool, { path: "dir" }, ws)).forModel).toBe(
      "dir is a directory; use list_dir to see its entries",
    );
    expect((await callTool(readFileTool, { path: "empty.txt" }, ws)).forModel).toBe("empty.txt is empty (0 bytes)");
    expect((await callTool(readFileTool, { path: "bin.dat" }, ws)).forModel).toMatch(
      /binary file \(binary data, 5 bytes\)/,
    );
  });

  it("reads non-UTF-8 bytes without failing, and CRLF files as lines", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    writeFileSync(join(ws, "crlf.txt"), "a\r\nb\r\n");
    expect((await callTool(readFileTool, { path: "latin1.txt" }, ws)).forModel).toBe("     1\tcaf\uFFFD");
    expect((await callTool(readFileTool, { path: "crlf.txt" }, ws)).forModel).toBe("     1\ta\n     2\tb");
  });

  it("cuts very long lines", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "min.js"), "x".repeat(5000));
    const r = await callTool(readFileTool, { path: "min.js" }, ws);
    expect(r.forModel).toMatch(/\[line cut at 2000 chars\]$/);
  });

  it("rejects invalid arguments with an instructive message", async () => {
    const r = await callTool(readFileTool, { path: "a", offset: 0 }, tempDir());
    expect(r.status).toBe("error");
    expect(r.forModel).toMatch(/invalid arguments for read_file: "offset": Too small/);
  });
});

describe("write_file", () => {
  it("creates parents, overwrites atomically and keeps the file mode", async () => {
    const ws = tempDir();
    const r = await callTool(writeFileTool, { path: "deep/dir/new.txt", content: "a\nb\n" }, ws);
    expect(r.forModel).toBe("wrote deep/dir/new.txt: 2 lines, 4 bytes, created");
    writeFileSync(join(ws, "run.sh"), "old");
    chmodSync(join(ws, "run.sh"), 0o755);
    const o = await callTool(writeFileTool, { path: "run.sh", content: "new\n" }, ws);
    expect(o.forModel).toBe("wrote run.sh: 1 lines, 4 bytes, overwrote (was 3 bytes)");
    expect(statSync(join(ws, "run.sh")).mode & 0o777).toBe(0o755);
  });

  it("refuses paths outside the workspace, also through a symlink", async () => {
    const ws = tempDir();
    const outside = tempDir();
    symlinkSync(outside, join(ws, "link"));
    symlinkSync(join(outside, "target.txt"), join(ws, "dangling"));
    for (const path of ["../x.txt", join(outside, "x.txt"), "link/x.txt", "dangling"]) {
      const r = await callTool(writeFileTool, { path, content: "x" }, ws);
      expect(r.status, path).toBe("error");
      expect(r.forModel).toMatch(/outside the workspace/);
    }
    expect(existsSync(join(outside, "x.txt"))).toBe(false);
    expect(existsSync(join(outside, "target.txt"))).toBe(false);
  });

  it("writes through a symlink that stays inside the workspace", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "real.txt"), "old");
    symlinkSync(join(ws, "real.txt"), join(ws, "alias.txt"));
    await callTool(writeFileTool, { path: "alias.txt", content: "new" }, ws);
    expect(readFileSync(join(ws, "real.txt"), "utf8")).toBe("new");
  });

  it("refuses to replace a directory", async () => {
    const ws = tempDir();
    mkdirSync(join(ws, "d"));
    expect((await callTool(writeFileTool, { path: "d", content: "x" }, ws)).forModel).toBe("d is a directory");
  });
});

describe("edit_file", () => {
  it("replaces a unique match and shows the result", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "a.ts"), "const a = 1;\nconst b = 2;\n");
    const r = await callTool(
      editFileTool,
      { path: "a.ts", old_string: "const b = 2;", new_string: "const b = 3;" },
      ws,
    );
    expect(r.status).toBe("ok");
    expect(r.forModel).toMatch(/^edited a.ts: replaced 1 occurrence \(first at line 2\)/);
    expect(readFileSync(join(ws, "a.ts"), "utf8")).toBe("const a = 1;\nconst b = 3;\n");
  });

  it("names the count when the match is not unique, and replace_all replaces them all", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "a.txt"), "x\ny\nx\nx\n");
    const r = await callTool(editFileTool, { path: "a.txt", old_string: "x", new_string: "z" }, ws);
    expect(r.forModel).toBe(
      "old_string occurs 3 times in a.txt (at lines 1, 3, 4); include more surrounding lines to make it unique, or set replace_all to true",
    );
    const all = await callTool(
      editFileTool,
      { path: "a.txt", old_string: "x", new_string: "z", replace_all: true },
      ws,
    );
    expect(all.forModel).toMatch(/replaced 3 occurrences/);
    expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("z\ny\nz\nz\n");
  });

  it("points at a near miss when only whitespace differs", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "a.py"), "def f():\n    return 1\n");
    const r = await callTool(editFileTool, { path: "a.py", old_string: "def f():\n  return 1", new_string: "x" }, ws);
    expect(r.forModel).toMatch(
      /old_string was not found in a.py. A similar text with different whitespace starts at line 1/,
    );
  });

  it("keeps CRLF line endings when edited with LF strings", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "w.txt"), "one\r\ntwo\r\nthree\r\n");
    await callTool(editFileTool, { path: "w.txt", old_string: "one\ntwo", new_string: "1\n2" }, ws);
    expect(readFileSync(join(ws, "w.txt"), "utf8")).toBe("1\r\n2\r\nthree\r\n");
  });

  it("creates a file with an empty old_string, but not over an existing one", async () => {
    const ws = tempDir();
    expect((await callTool(editFileTool, { path: "n.txt", old_string: "", new_string: "hi" }, ws)).forModel).toBe(
      "created n.txt (1 lines)",
    );
    const again = await callTool(editFileTool, { path: "n.txt", old_string: "", new_string: "x" }, ws);
    expect(again.forModel).toMatch(/exists and is not empty/);
  });

  it("refuses identical strings, missing files, binaries and outside paths", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "a.txt"), "a");
    writeFileSync(join(ws, "b.bin"), Buffer.from([0, 1, 2]));
    expect((await callTool(editFileTool, { path: "a.txt", old_string: "a", new_string: "a" }, ws)).forModel).toMatch(
      /the same/,
    );
    expect((await callTool(editFileTool, { path: "no.txt", old_string: "a", new_string: "b" }, ws)).forModel).toMatch(
      /^no such file: no.txt/,
    );
    expect((await callTool(editFileTool, { path: "b.bin", old_string: "a", new_string: "b" }, ws)).forModel).toMatch(
      /binary/,
    );
    expect(
      (await callTool(editFileTool, { path: "/etc/hostname", old_string: "a", new_string: "b" }, ws)).forModel,
    ).toMatch(/outside the workspace/);
  });
});
