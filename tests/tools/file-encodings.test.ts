// Edits keep every byte they do not change (issue 16 item 1): UTF-8 byte-order marks, CRLF, a
// missing final newline and Latin-1 bytes survive write_file, edit_file and apply_patch exactly;
// what cannot be kept (UTF-16, a character Latin-1 has no byte for) is refused by name.
import { readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyPatchTool } from "../../src/tools/apply-patch.js";
import { editFileTool } from "../../src/tools/edit-file.js";
import { writeFileTool } from "../../src/tools/write-file.js";
import { tempDir } from "../helpers/cli.js";
import { callTool } from "../helpers/tools.js";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));
const patch = (body: string) => ({ patch: `*** Begin Patch\n${body}\n*** End Patch` });

function file(content: Buffer): { ws: string; path: string; read: () => Buffer } {
  const ws = tempDir();
  const path = join(ws, "f.txt");
  writeFileSync(path, content);
  return { ws, path, read: () => readFileSync(path) };
}

describe("edit_file keeps the bytes it does not touch", () => {
  it("in a Latin-1 file: other non-UTF-8 bytes stay, Latin-1 characters are written as one byte", async () => {
    const f = file(bytes("caf", [0xe9], " cr", [0xe8], "me\nprix: 3\nna", [0xef], "ve"));
    const r = await callTool(
      editFileTool,
      { path: "f.txt", old_string: "prix: 3", new_string: "prix: 4 \u00e0 d\u00e9couvrir" },
      f.ws,
    );
    expect(r.status, r.forModel).toBe("ok");
    expect(f.read()).toEqual(
      bytes("caf", [0xe9], " cr", [0xe8], "me\nprix: 4 ", [0xe0], " d", [0xe9], "couvrir\nna", [0xef], "ve"),
    );
  });

  it("in a Latin-1 file: refuses a character Latin-1 cannot hold, and U+FFFD copied from read_file, changing nothing", async () => {
    const original = bytes("caf", [0xe9], "\nprix: 3\n");
    const f = file(original);
    const euro = await callTool(
      editFileTool,
      { path: "f.txt", old_string: "prix: 3", new_string: "prix: 3 \u20ac" },
      f.ws,
    );
    expect(euro.forModel).toMatch(
      /is not UTF-8: it is kept as Latin-1 \(ISO-8859-1\).*"\u20ac" \(U\+20AC\) has no Latin-1 byte/,
    );
    const replacement = await callTool(
      editFileTool,
      { path: "f.txt", old_string: "caf\uFFFD", new_string: "cafe" },
      f.ws,
    );
    expect(replacement.forModel).toMatch(/is not UTF-8 .*stand for bytes that cannot be matched/);
    expect(f.read()).toEqual(original);
  });

  it("keeps a UTF-8 byte-order mark, CRLF endings and a missing final newline", async () => {
    const f = file(bytes([0xef, 0xbb, 0xbf], "first\r\nsecond\r\nl\u00c3\u00a9 last"));
    const r = await callTool(
      editFileTool,
      { path: "f.txt", old_string: "second\nl\u00e9", new_string: "2nd\nthen\nl\u00e9" },
      f.ws,
    );
    expect(r.status, r.forModel).toBe("ok");
    expect(f.read()).toEqual(bytes([0xef, 0xbb, 0xbf], "first\r\n2nd\r\nthen\r\nl\u00c3\u00a9 last"));
  });

  it("refuses UTF-16 and UTF-32 files by name instead of calling them binary", async () => {
    for (const [name, bom] of [
      ["UTF-16LE", [0xff, 0xfe]],
      ["UTF-16BE", [0xfe, 0xff]],
      ["UTF-32LE", [0xff, 0xfe, 0, 0]],
    ] as const) {
      const content = bytes([...bom], Buffer.from("hi\n", "utf16le").toString("latin1"));
      const f = file(content);
      const r = await callTool(editFileTool, { path: "f.txt", old_string: "hi", new_string: "ho" }, f.ws);
      expect(r.forModel, name).toMatch(new RegExp(`f\\.txt is ${name} text \\(by its byte-order mark\\)`));
      expect(f.read()).toEqual(content);
    }
  });
});

describe("write_file over an existing file keeps its format", () => {
  it("keeps the byte-order mark and CRLF endings of the file it replaces", async () => {
    const f = file(bytes([0xef, 0xbb, 0xbf], "a\r\nb\r\n"));
    const r = await callTool(writeFileTool, { path: "f.txt", content: "x\ny\n" }, f.ws);
    expect(r.forModel).toBe(
      "wrote f.txt: 2 lines, 9 bytes, overwrote (was 9 bytes) (kept its byte-order mark, CRLF line endings)",
    );
    expect(f.read()).toEqual(bytes([0xef, 0xbb, 0xbf], "x\r\ny\r\n"));
  });

  it("writes Latin-1 into a Latin-1 file, and refuses what Latin-1 cannot hold", async () => {
    const f = file(bytes("caf", [0xe9], "\n"));
    expect((await callTool(writeFileTool, { path: "f.txt", content: "cr\u00e8me\n" }, f.ws)).status).toBe("ok");
    expect(f.read()).toEqual(bytes("cr", [0xe8], "me\n"));
    const r = await callTool(writeFileTool, { path: "f.txt", content: "\u20ac\n" }, f.ws);
    expect(r.forModel).toMatch(/is not UTF-8: it is kept as Latin-1/);
    expect(f.read()).toEqual(bytes("cr", [0xe8], "me\n"));
  });

  it("refuses to replace a UTF-16 file, naming the encoding", async () => {
    const content = bytes([0xff, 0xfe], Buffer.from("hi\n", "utf16le").toString("latin1"));
    const f = file(content);
    expect((await callTool(writeFileTool, { path: "f.txt", content: "x" }, f.ws)).forModel).toMatch(/is UTF-16LE text/);
    expect(f.read()).toEqual(content);
  });

  it("does not read a large file it replaces (only its head)", async () => {
    const f = file(Buffer.alloc(0));
    truncateSync(f.path, 600 * 1024 * 1024);
    const peakBefore = process.resourceUsage().maxRSS;
    const r = await callTool(writeFileTool, { path: "f.txt", content: "small\n" }, f.ws);
    expect(r.forModel).toBe("wrote f.txt: 1 lines, 6 bytes, overwrote (was 629145600 bytes)");
    // maxRSS is a high-water mark in KB: reading the file whole would raise it by 600 MB.
    expect(process.resourceUsage().maxRSS - peakBefore).toBeLessThan(100 * 1024);
    expect(f.read().toString()).toBe("small\n");
  });
});

describe("apply_patch keeps the bytes it does not touch", () => {
  it("updates a Latin-1 file byte for byte and refuses hunks it cannot match or encode", async () => {
    const original = bytes("caf", [0xe9], "\nprix: 3\nfin");
    const f = file(original);
    const ok = await callTool(applyPatchTool, patch("*** Update File: f.txt\n@@\n-prix: 3\n+prix: 4 \u00e0"), f.ws);
    expect(ok.status, ok.forModel).toBe("ok");
    expect(f.read()).toEqual(bytes("caf", [0xe9], "\nprix: 4 ", [0xe0], "\nfin"));
    const fffd = await callTool(applyPatchTool, patch("*** Update File: f.txt\n@@\n-caf\uFFFD\n+cafe"), f.ws);
    expect(fffd.forModel).toMatch(/is not UTF-8/);
    const euro = await callTool(
      applyPatchTool,
      patch("*** Add File: new.txt\n+ok\n*** Update File: f.txt\n@@\n-fin\n+\u20ac"),
      f.ws,
    );
    expect(euro.forModel).toMatch(/has no Latin-1 byte[\s\S]*No file was changed/);
    expect(f.read()).toEqual(bytes("caf", [0xe9], "\nprix: 4 ", [0xe0], "\nfin"));
  });

  it("moves a Latin-1 file keeping its bytes", async () => {
    const f = file(bytes("na", [0xef], "ve\nx\n"));
    const r = await callTool(applyPatchTool, patch("*** Update File: f.txt\n*** Move to: g.txt\n@@\n-x\n+y"), f.ws);
    expect(r.status, r.forModel).toBe("ok");
    expect(readFileSync(join(f.ws, "g.txt"))).toEqual(bytes("na", [0xef], "ve\ny\n"));
  });
});
