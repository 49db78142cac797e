// `@path` in a prompt attaches the file: its text goes with the prompt in an <attached-file> block,
// bounded as read_file bounds what the model reads (20 KB, the start kept, a note saying how to read
// the rest); the transcript shows one line per attached file (view/cards.ts), not its text.
import { attachmentBlock } from "../view/attachment-text.js";
import type { Controller } from "./controller.js";

/** What one attached file carries at most. */
export const ATTACH_MAX_CHARS = 20_000;

const TOKEN = /(^|\s)@(\S+)/g;

/** The prompt with every `@path` that names a workspace file attached; `attached`: what was. */
export function withAttachments(ctl: Controller, text: string): { text: string; attached: string[] } {
  const read = ctl.deps.readAttachment;
  if (!read) return { text, attached: [] };
  const blocks: string[] = [];
  const attached: string[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const path = (m[2] ?? "").replace(/[,.;:!?)]+$/, "");
    if (!path || attached.includes(path)) continue;
    const content = read(path);
    if (content === null) continue;
    const cut = content.length > ATTACH_MAX_CHARS;
    const body = cut
      ? `${content.slice(0, ATTACH_MAX_CHARS)}\n[... cut at ${ATTACH_MAX_CHARS} characters of ${content.length}; read the rest with read_file offset/limit]`
      : content;
    const lines = content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
    blocks.push(attachmentBlock(path, lines, body));
    attached.push(path);
  }
  return blocks.length ? { text: `${text}\n\n${blocks.join("\n\n")}`, attached } : { text, attached };
}
