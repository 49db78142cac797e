// The text an attached file makes in a sent prompt (written by ../controller/attach-files.ts), and
// the way back: the transcript shows such a prompt as the typed text and one line per file.

/** One attached file as the model reads it: `body` is the file's text, cut if it was long. */
export function attachmentBlock(path: string, lines: number, body: string): string {
  return `<attached-file path="${path}" lines="${lines}">\n${body.replace(/\n$/, "")}\n</attached-file>`;
}

const BLOCK = /\n\n<attached-file path="([^"]*)" lines="(\d+)">\n[\s\S]*?\n<\/attached-file>/g;

/** A sent prompt as the transcript shows it: the typed text, and "attached PATH (N lines)" lines. */
export function splitAttachments(text: string): { text: string; files: { path: string; lines: number }[] } {
  if (!text.includes("<attached-file ")) return { text, files: [] };
  const files: { path: string; lines: number }[] = [];
  const rest = text.replace(BLOCK, (_all, path: string, lines: string) => {
    files.push({ path, lines: Number(lines) });
    return "";
  });
  return { text: rest, files };
}
