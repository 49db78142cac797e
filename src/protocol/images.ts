// What an image in a prompt may be, agreed by every end: the engine that loads it, the daemon
// that refuses larger uploads, the composer that takes a pasted path for one. Data and a pure
// check only; reading and resizing is agent/images.ts.
import { extname } from "node:path";

export const MAX_IMAGES = 4;
export const MAX_IMAGE_BYTES = 12 * 1024 * 1024;
/** Images are resized so the long edge is at most this. */
export const MAX_EDGE = 1024;

export const IMAGE_EXTENSIONS = new Set([".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".avif"]);

/** Whether a pasted text is just the path of an image file (drag-and-drop pastes a path). */
export function looksLikeImagePath(text: string): boolean {
  const t = text
    .trim()
    .replace(/^'(.*)'$/, "$1")
    .replace(/^"(.*)"$/, "$1");
  return !t.includes("\n") && IMAGE_EXTENSIONS.has(extname(t).toLowerCase());
}
