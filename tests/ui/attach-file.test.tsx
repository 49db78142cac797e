// @file attaches the file (issue 28, item 14): the prompt carries its text (bounded like read_file),
// the transcript shows a line saying what was attached, and completion still works.
import { afterEach, describe, expect, it } from "vitest";
import { keys } from "../helpers/pty.js";
import { ATTACH_MAX_CHARS } from "../../src/ui/controller/attach-files.js";
import { renderUi, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(() => {
  h?.unmount();
  h = undefined;
});

const files: Record<string, string> = {
  "src/cli.ts": "export const a = 1;\nexport const b = 2;\n",
  "big.txt": "x".repeat(ATTACH_MAX_CHARS + 500),
};

describe("@file", () => {
  it("attaches the file's text and shows one line for it", async () => {
    h = await renderUi(100, 30);
    (h.ctl.deps as { readAttachment?: (p: string) => string | null }).readAttachment = (p) => files[p] ?? null;
    h.keys("explain @src/c");
    h.keys(keys.tab);
    expect(await h.frame()).toContain("explain @src/cli.ts");
    h.keys("and @nobody please\r");
    const sent = h.sent.at(-1);
    expect(sent).toMatchObject({ type: "user.submit", mode: "turn" });
    const text = sent?.type === "user.submit" ? sent.text : "";
    expect(text.startsWith("explain @src/cli.ts and @nobody please\n\n")).toBe(true);
    expect(text).toContain(
      '<attached-file path="src/cli.ts" lines="2">\nexport const a = 1;\nexport const b = 2;\n</attached-file>',
    );
    expect(text).not.toContain('path="nobody"');
    h.emit({ type: "turn.started", taskId: "t0", turnId: "turn-1", prompt: text });
    const frame = await h.frame();
    expect(frame).toContain("attached src/cli.ts (2 lines)");
    expect(frame).not.toContain("export const a = 1;");
  });

  it("cuts a large file as read_file would and says how to read the rest", async () => {
    h = await renderUi(100, 30);
    (h.ctl.deps as { readAttachment?: (p: string) => string | null }).readAttachment = (p) => files[p] ?? null;
    h.keys("look at @big.txt\r");
    const sent = h.sent.at(-1);
    const text = sent?.type === "user.submit" ? sent.text : "";
    expect(text.length).toBeLessThan(ATTACH_MAX_CHARS + 400);
    expect(text).toMatch(/read the rest with read_file offset\/limit/);
  });
});
