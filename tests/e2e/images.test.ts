// Images on the command line (-i): checked, shrunk to 1024 px on the long edge, sent as data URLs;
// every refusal says why and stops the turn.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

describe("images", () => {
  it("sends a resized image as a data URL beside the text", async () => {
    const ws = tempDir();
    await sharp({ create: { width: 2000, height: 1000, channels: 3, background: "red" } })
      .png()
      .toFile(join(ws, "wide.png"));
    await sharp({ create: { width: 300, height: 200, channels: 3, background: "blue" } })
      .jpeg()
      .toFile(join(ws, "small.jpg"));
    const { mock, env } = await e2eEnv([textReply("a red rectangle")]);
    // -i paths are relative to where the command runs (here: the workspace), like any CLI argument.
    const r = await runCli(["-p", "what is this?", "-i", "wide.png", "-i", "small.jpg", "-C", ws], {
      cwd: ws,
      env,
    });
    expect(r.code).toBe(0);
    const content = (
      mock.requests[0]!.messages.at(-1) as { content: { type: string; text?: string; image_url?: { url: string } }[] }
    ).content;
    expect(content[0]).toEqual({ type: "text", text: "what is this?" });
    const [png, jpg] = content.slice(1).map((p) => p.image_url!.url);
    expect(png).toMatch(/^data:image\/png;base64,/);
    expect(jpg).toMatch(/^data:image\/jpeg;base64,/);
    const meta = await sharp(Buffer.from(png!.split(",")[1]!, "base64")).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 512]);
    const small = await sharp(Buffer.from(jpg!.split(",")[1]!, "base64")).metadata();
    expect([small.width, small.height]).toEqual([300, 200]);
  });

  it("refuses, with the reason, files that are missing, not images, too big, or too many", async () => {
    const ws = tempDir();
    writeFileSync(join(ws, "notes.png"), "this is text, not a PNG");
    writeFileSync(join(ws, "huge.png"), Buffer.alloc(13 * 1024 * 1024));
    await sharp({ create: { width: 10, height: 10, channels: 3, background: "red" } })
      .png()
      .toFile(join(ws, "a.png"));
    const { mock, env } = await e2eEnv([]);
    const cases: [string[], RegExp][] = [
      [["-i", "missing.png"], /image refused: no such file: missing\.png/],
      [["-i", "notes.png"], /image refused: notes\.png is not an image that can be decoded/],
      [["-i", "huge.png"], /image refused: huge\.png is 13\.0 MB; images must be at most 12 MB/],
      [
        ["-i", "a.png", "-i", "a.png", "-i", "a.png", "-i", "a.png", "-i", "a.png"],
        /image refused: at most 4 images per turn; 5 were given/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(["-p", "look", ...args, "-C", ws], { cwd: ws, env });
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(mock.requests).toHaveLength(0);
  });
});
