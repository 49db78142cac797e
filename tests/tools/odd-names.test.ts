// Odd files through the real registry: names with a newline or a tab are listed quoted (a JSON
// string) by list_dir and glob and taken back in that form by read_file, edit_file and write_file;
// names that are not UTF-8 are in tests/tools/byte-names.test.ts; UTF-16 and UTF-32 text is named
// by its byte-order mark; a file over the edit limit gets one answer from every editing tool.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyPatchTool } from "../../src/tools/apply-patch.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { globTool } from "../../src/tools/glob.js";
import { listDirTool } from "../../src/tools/list-dir.js";
import { readPathArg, showPath } from "../../src/tools/path-escape.js";
import { readFileTool } from "../../src/tools/read-file.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { tempDir } from "../helpers/cli.js";
import { callTool } from "../helpers/tools.js";

describe("showPath / readPathArg", () => {
  it.each([
    ["plain.txt", "plain.txt"],
    ["with space.txt", "with space.txt"],
    ["a\nb.txt", '"a\\nb.txt"'],
    ["tab\there.txt", '"tab\\there.txt"'],
    ["bell\u0007.txt", '"bell\\u0007.txt"'],
    ["del\u007f.txt", '"del\\u007f.txt"'],
    ['"quoted".txt', '"\\"quoted\\".txt"'],
    ["ünïcödé.txt", "ünïcödé.txt"],
  ])("%j is shown as %s and read back", (name, shown) => {
    expect(showPath(name)).toBe(shown);
    expect(readPathArg(shown)).toBe(name);
  });
});

describe("names with a newline or a tab", () => {
  const setup = () => {
    const ws = tempDir();
    writeFileSync(join(ws, "a\nb.txt"), "one\n");
    writeFileSync(join(ws, "tab\there.txt"), "two\n");
    writeFileSync(join(ws, "plain.txt"), "three\n");
    return ws;
  };

  it("list_dir shows them quoted, one entry per line", async () => {
    const r = await callTool(listDirTool, {}, setup());
    expect(r.forModel.split("\n").slice(1)).toEqual(['  "a\\nb.txt"', "  plain.txt", '  "tab\\there.txt"']);
  });

  it("glob shows them quoted, one path per line", async () => {
    const r = await callTool(globTool, { pattern: "*.txt" }, setup());
    expect(r.forModel.split("\n").sort()).toEqual(['"a\\nb.txt"', '"tab\\there.txt"', "plain.txt"]);
  });

  it("read_file, edit_file and write_file take the quoted form back", async () => {
    const ws = setup();
    expect((await callTool(readFileTool, { path: '"a\\nb.txt"' }, ws)).forModel).toContain("one");
    const edit = await callTool(editFileTool, { path: '"tab\\there.txt"', old_string: "two", new_string: "2" }, ws);
    expect(edit.status, edit.forModel).toBe("ok");
    expect(readFileSync(join(ws, "tab\there.txt"), "utf8")).toBe("2\n");
    const write = await callTool(writeFileTool, { path: '"new\\nname.txt"', content: "x" }, ws);
    expect(write.status, write.forModel).toBe("ok");
    expect(readdirSync(ws)).toContain("new\nname.txt");
  });
});

describe("read_file on UTF-16 and UTF-32 text", () => {
  it.each([
    ["UTF-16LE", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hello\n", "utf16le")])],
    ["UTF-16BE", Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("hello\n", "utf16le").swap16()])],
    ["UTF-32LE", Buffer.from([0xff, 0xfe, 0, 0, 0x68, 0, 0, 0, 0x0a, 0, 0, 0])],
  ])("%s is named as such, with how to read it", async (encoding, bytes) => {
    const ws = tempDir();
    writeFileSync(join(ws, "t.txt"), bytes);
    const r = await callTool(readFileTool, { path: "t.txt" }, ws);
    expect(r.status).toBe("error");
    expect(r.forModel).toMatch(
      new RegExp(`^t\\.txt is ${encoding} text \\(by its byte-order mark\\);.*iconv -f ${encoding} -t UTF-8 't\\.txt'`),
    );
  });
});

describe("a file over the edit limit", () => {
  it("gets the same answer from edit_file and apply_patch, naming a command", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "big.txt"), `${"x".repeat(5 * 1024 * 1024)}\nend\n`);
    const edit = await callTool(editFileTool, { path: "big.txt", old_string: "end", new_string: "END" }, ws);
    const patch = await callTool(
      applyPatchTool,
      { patch: "*** Begin Patch\n*** Update File: big.txt\n@@\n-end\n+END\n*** End Patch" },
      ws,
    );
    expect(edit.forModel).toBe(
      "big.txt is over 4 MB; edit_file and apply_patch change files up to 4 MB only: change this one with a command (e.g. sed -i, or a short script)",
    );
    expect(patch.forModel).toContain(edit.forModel);
  });
});
