// A session's title read from the head of its file, for listing sessions not loaded.
import { constants, promises as fs } from "node:fs";

const TITLE_PEEK_BYTES = 4096;

/** The title near the start of a session file (saved before the messages), without reading it all. */
export async function peekTitle(file: string): Promise<string | null> {
  let handle: fs.FileHandle | null = null;
  try {
    // A link or a FIFO planted in the session folder is neither followed nor waited on.
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    if (!(await handle.stat()).isFile()) return null;
    const buffer = Buffer.alloc(TITLE_PEEK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, TITLE_PEEK_BYTES, 0);
    const match = /"title":("(?:[^"\\]|\\.)*")/.exec(buffer.subarray(0, bytesRead).toString("utf8"));
    return match ? (JSON.parse(match[1]!) as string) : null;
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}
