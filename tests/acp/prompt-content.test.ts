// An ACP prompt as a turn (src/acp/prompt-content.ts): text, embedded files, links and images.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PromptContentError } from "../../src/acp/errors.js";
import { turnInput } from "../../src/acp/prompt-content.js";
import { tempDir } from "../helpers/cli.js";

describe("turnInput", () => {
  it("inlines embedded files, names links and writes images to private files", async () => {
    const dir = join(tempDir(), "uploads");
    const png = Buffer.from("89504e470d0a1a0a", "hex");
    const input = await turnInput(
      [
        { type: "text", text: "look at" },
        { type: "resource", resource: { uri: "file:///w/a.ts", text: "const a = 1; // unsaved" } },
        { type: "resource_link", uri: "file:///w/b.ts", name: "b.ts" },
        { type: "image", mimeType: "image/png", data: png.toString("base64") },
      ],
      dir,
    );
    expect(input.text).toBe('look at\n\n<context path="/w/a.ts">\nconst a = 1; // unsaved\n</context>\n\n@/w/b.ts');
    expect(input.images).toHaveLength(1);
    expect(readFileSync(input.images[0]!)).toEqual(png);
    expect(statSync(input.images[0]!).mode & 0o777).toBe(0o600);
  });

  it.each([
    [{ type: "audio" as const, mimeType: "audio/wav", data: "" }, /audio/],
    [{ type: "image" as const, mimeType: "image/tiff", data: "" }, /image\/tiff/],
    [{ type: "resource" as const, resource: { uri: "file:///x.bin", blob: "AA==" } }, /binary/],
  ])("refuses %j", async (block, message) => {
    await expect(turnInput([block], tempDir())).rejects.toThrow(PromptContentError);
    await expect(turnInput([block], tempDir())).rejects.toThrow(message);
  });
});
