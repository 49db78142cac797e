// Images for vision models: at most 4 per turn, at most 12 MB each, must decode, resized so the
// long edge is at most 1024 px, sent as data URLs. Every refusal says why in one line. The limits
// and the pasted-path check are protocol/images.ts, shared with the daemon and the composer.
import { resolve } from "node:path";
import { MAX_EDGE, MAX_IMAGE_BYTES, MAX_IMAGES } from "../protocol/images.js";
import type { ContentPart } from "../protocol/messages.js";
import { ToolError } from "../tools/define.js";
import { withWalk } from "../tools/safe-fs.js";
import { readRegular } from "../tools/safe-fs-ops.js";

export type ImageResult = { ok: true; part: ContentPart; note: string } | { ok: false; error: string };

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** Loads, checks and (if needed) shrinks one image. sharp (libvips) loads on first use only. */
export async function loadImage(path: string, cwd: string): Promise<ImageResult> {
  const abs = resolve(cwd, path);
  let input: Buffer;
  try {
    // The no-follow walk (links resolved by it) and a regular file only: a FIFO never blocks the turn.
    const read = await withWalk(abs, { followFinal: true }, async (w) => {
      const st = w.lstat();
      if (st?.isDirectory()) throw new ToolError(`${path} is a directory, not an image`);
      if (st?.isFile() && st.size > MAX_IMAGE_BYTES)
        throw new ToolError(`${path} is ${mb(st.size)}; images must be at most 12 MB`);
      return readRegular(w, path, MAX_IMAGE_BYTES, `${path} is over 12 MB; images must be at most 12 MB`);
    });
    if (read === null) return { ok: false, error: `no such file: ${path}` };
    input = read.data;
  } catch (error) {
    if (error instanceof ToolError) return { ok: false, error: error.message };
    return { ok: false, error: `no such file: ${path}` };
  }
  const { default: sharp } = await import("sharp");
  let meta;
  try {
    meta = await sharp(input).metadata();
  } catch (error) {
    return {
      ok: false,
      error: `${path} is not an image that can be decoded (${(error as Error).message.split("\n")[0]})`,
    };
  }
  if (!meta.width || !meta.height)
    return { ok: false, error: `${path} is not an image that can be decoded (no dimensions)` };
  const long = Math.max(meta.width, meta.height);
  const keepPng = meta.hasAlpha === true || meta.format === "png" || meta.format === "gif";
  try {
    let image = sharp(input, { animated: false }).rotate();
    if (long > MAX_EDGE) image = image.resize(MAX_EDGE, MAX_EDGE, { fit: "inside" });
    const { data, info } = await (keepPng ? image.png() : image.jpeg({ quality: 85 })).toBuffer({
      resolveWithObject: true,
    });
    const mime = keepPng ? "image/png" : "image/jpeg";
    const scaled = long > MAX_EDGE ? `, resized from ${meta.width}x${meta.height}` : "";
    return {
      ok: true,
      part: { type: "image_url", image_url: { url: `data:${mime};base64,${data.toString("base64")}` } },
      note: `${path}: ${info.width}x${info.height}${scaled}`,
    };
  } catch (error) {
    return { ok: false, error: `${path} could not be decoded (${(error as Error).message.split("\n")[0]})` };
  }
}

/** Builds a user message from text and image paths; errors name each refused image. */
export async function buildPrompt(
  text: string,
  paths: string[],
  cwd: string,
): Promise<{ content: string | ContentPart[]; notes: string[]; errors: string[] }> {
  if (paths.length === 0) return { content: text, notes: [], errors: [] };
  if (paths.length > MAX_IMAGES)
    return { content: text, notes: [], errors: [`at most ${MAX_IMAGES} images per turn; ${paths.length} were given`] };
  const results = await Promise.all(paths.map((p) => loadImage(p, cwd)));
  const errors = results.flatMap((r) => (r.ok ? [] : [r.error]));
  const parts = results.flatMap((r) => (r.ok ? [r.part] : []));
  const notes = results.flatMap((r) => (r.ok ? [r.note] : []));
  return { content: [{ type: "text", text }, ...parts], notes, errors };
}
