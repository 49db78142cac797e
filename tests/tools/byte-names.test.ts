// Names that are not valid UTF-8, made from Buffer names (Linux allows any bytes but / and NUL):
// list_dir and glob show them quoted with \xNN for each such byte; read_file, edit_file and
// write_file take that form back and act on the exact bytes; checkpoints record them and a rewind
// restores or removes them byte for byte (a file tool's edit and a command's).
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fsPath, nameFromBytes } from "../../src/fs/byte-names.js";
import { Checkpoints } from "../../src/session/checkpoints.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { applyPatchTool } from "../../src/tools/apply-patch.js";
import { globTool } from "../../src/tools/glob.js";
import { grepTool } from "../../src/tools/grep.js";
import { listDirTool } from "../../src/tools/list-dir.js";
import { readPathArg, showPath } from "../../src/tools/path-escape.js";
import { readFileTool } from "../../src/tools/read-file.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { callTool } from "../helpers/tools.js";
import { tempDir } from "../helpers/cli.js";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));
/** caf\xe9.txt: Latin-1 é, which is not UTF-8. */
const LATIN1 = bytes("caf", [0xe9], ".txt");
/** A lone continuation byte and a truncated 3-byte sequence around valid UTF-8 (ü). */
const MIXED = bytes("ü", [0x80], "-", [0xe2, 0x82], ".md");

function workspace(): string {
  return tempDir("nh-bytes-");
}
/** The file `name` (bytes) in `dir`, as Node reaches it by a Buffer path. */
const at = (dir: string, name: Buffer) => Buffer.concat([Buffer.from(`${dir}/`), name]);
const names = (dir: string) => readdirSync(dir, { encoding: "buffer" }).map((b) => b.toString("hex"));

describe("byte names", () => {
  it.each([
    ["Latin-1", LATIN1, '"caf\\xe9.txt"'],
    ["mixed", MIXED, '"ü\\x80-\\xe2\\x82.md"'],
    ["valid UTF-8", Buffer.from("ünï €.txt"), "ünï €.txt"],
    ["an emoji", Buffer.from("😀.txt"), "😀.txt"],
    ["a real U+FFFD", Buffer.from("a\ufffd.txt"), '"a\\ufffd.txt"'],
  ])("%s: read exactly, shown quoted where needed, taken back to the same bytes", (_, raw, shown) => {
    const name = nameFromBytes(raw);
    expect(Buffer.from(fsPath(name))).toEqual(raw);
    expect(showPath(name)).toBe(shown);
    expect(readPathArg(shown)).toBe(name);
  });

  it("a backslash in a name is not read as an escape", () => {
    const name = nameFromBytes(bytes("a\\xe9", [0xff]));
    const shown = showPath(name);
    expect(shown).toBe('"a\\\\xe9\\xff"');
    expect(Buffer.from(fsPath(readPathArg(shown)))).toEqual(bytes("a\\xe9", [0xff]));
  });
});

describe("the file tools on a name that is not UTF-8", () => {
  it("list_dir and glob show it quoted with \\xNN; read_file, edit_file and write_file act on the exact bytes", async () => {
    const ws = workspace();
    writeFileSync(at(ws, LATIN1), "old text\n");
    writeFileSync(at(ws, MIXED), "mixed\n");
    const listed = await callTool(listDirTool, {}, ws);
    expect(listed.forModel.split("\n").slice(1).sort()).toEqual(['  "caf\\xe9.txt"', '  "ü\\x80-\\xe2\\x82.md"']);
    const globbed = await callTool(globTool, { pattern: "*.txt" }, ws);
    expect(globbed.forModel).toBe('"caf\\xe9.txt"');

    const read = await callTool(readFileTool, { path: '"caf\\xe9.txt"' }, ws);
    expect(read.status, read.forModel).toBe("ok");
    expect(read.forModel).toContain("old text");
    const edit = await callTool(editFileTool, { path: '"caf\\xe9.txt"', old_string: "old", new_string: "new" }, ws);
    expect(edit.status, edit.forModel).toBe("ok");
    expect(readFileSync(at(ws, LATIN1), "utf8")).toBe("new text\n");
    const write = await callTool(writeFileTool, { path: '"ü\\x80-\\xe2\\x82.md"', content: "rewritten\n" }, ws);
    expect(write.status, write.forModel).toBe("ok");
    expect(readFileSync(at(ws, MIXED), "utf8")).toBe("rewritten\n");
    const made = await callTool(writeFileTool, { path: '"new\\xff.txt"', content: "x" }, ws);
    expect(made.status, made.forModel).toBe("ok");
    expect(readFileSync(at(ws, bytes("new", [0xff], ".txt")), "utf8")).toBe("x");
    // No file with U+FFFD (EF BF BD) in its name was made on the way: the same three names only.
    expect(names(ws).sort()).toEqual(
      [LATIN1, MIXED, bytes("new", [0xff], ".txt")].map((b) => b.toString("hex")).sort(),
    );
  });
});

describe("grep and apply_patch on a name that is not UTF-8", () => {
  it.each([
    ["ripgrep", undefined],
    ["the built-in search", "1"],
  ])("grep through %s names the file as list_dir does", async (_, noRg) => {
    const ws = workspace();
    writeFileSync(at(ws, LATIN1), "a needle here\n");
    const before = process.env.NANOHERMES_NO_RG;
    if (noRg) process.env.NANOHERMES_NO_RG = noRg;
    else delete process.env.NANOHERMES_NO_RG;
    try {
      const r = await callTool(grepTool, { pattern: "needle" }, ws);
      expect(r.forModel.split("\n")[0]).toBe('"caf\\xe9.txt":1:a needle here');
    } finally {
      if (before === undefined) delete process.env.NANOHERMES_NO_RG;
      else process.env.NANOHERMES_NO_RG = before;
    }
  });

  it("apply_patch updates it by its quoted name", async () => {
    const ws = workspace();
    writeFileSync(at(ws, LATIN1), "one\ntwo\n");
    const r = await callTool(
      applyPatchTool,
      { patch: '*** Begin Patch\n*** Update File: "caf\\xe9.txt"\n@@\n one\n-two\n+2\n*** End Patch' },
      ws,
    );
    expect(r.status, r.forModel).toBe("ok");
    expect(readFileSync(at(ws, LATIN1), "utf8")).toBe("one\n2\n");
    expect(names(ws)).toEqual([LATIN1.toString("hex")]);
  });
});

/** Runs a shell command in `cwd` as run_command would: the changes come from another process. */
function sh(cwd: string, script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", script], { cwd, stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`sh exited ${code}`))));
  });
}

describe("checkpoints of a name that is not UTF-8", () => {
  it("a command's create and change are rewound byte for byte", async () => {
    const ws = workspace();
    writeFileSync(at(ws, LATIN1), "before\n");
    const cp = new Checkpoints({ dir: join(workspace(), "s1"), roots: [ws] });
    await cp.beforeCommand(1);
    // printf's octal escapes make the bytes in the shell, not in Node.
    await sh(ws, "printf 'after\\n' > \"$(printf 'caf\\351.txt')\"; printf 'made' > \"$(printf 'new\\377.txt')\"");
    const changes = await cp.afterCommand(1, "run_command");
    expect(changes.map((c) => Buffer.from(fsPath(c.path))).sort(Buffer.compare)).toEqual(
      [at(ws, LATIN1), at(ws, bytes("new", [0xff], ".txt"))].sort(Buffer.compare),
    );
    const result = await cp.rewind(1);
    expect(result.skipped).toEqual([]);
    expect(readFileSync(at(ws, LATIN1), "utf8")).toBe("before\n");
    expect(existsSync(at(ws, bytes("new", [0xff], ".txt")))).toBe(false);
    expect(names(ws)).toEqual([LATIN1.toString("hex")]);
  });

  it("a file tool's edit and a new file are rewound byte for byte", async () => {
    const ws = workspace();
    writeFileSync(at(ws, MIXED), "v1\n");
    const cp = new Checkpoints({ dir: join(workspace(), "s1"), roots: [ws] });
    const edited = join(ws, readPathArg('"ü\\x80-\\xe2\\x82.md"'));
    const created = join(ws, readPathArg('"dir\\xfe/new.txt"'));
    expect(await cp.beforeWrite(1, [edited, created], "write_file")).toBeNull();
    await callTool(writeFileTool, { path: '"ü\\x80-\\xe2\\x82.md"', content: "v2\n" }, ws);
    await callTool(writeFileTool, { path: '"dir\\xfe/new.txt"', content: "n\n" }, ws);
    expect(readFileSync(at(ws, MIXED), "utf8")).toBe("v2\n");
    expect(names(ws).sort()).toEqual([MIXED.toString("hex"), bytes("dir", [0xfe]).toString("hex")].sort());
    const result = await cp.rewind(1);
    expect(result.skipped).toEqual([]);
    expect(readFileSync(at(ws, MIXED), "utf8")).toBe("v1\n");
    // The new file and the folder made for it are gone.
    expect(names(ws)).toEqual([MIXED.toString("hex")]);
  });
});
