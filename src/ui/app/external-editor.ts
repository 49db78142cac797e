// Ctrl-G: edit the prompt in $VISUAL / $EDITOR. The terminal is handed over (main screen, cooked
// mode) while the editor runs and taken back after; the UI repaints.
import { MOUSE_OFF, MOUSE_ON } from "../terminal/screen.js";
import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function openInEditor(
  text: string,
  env: NodeJS.ProcessEnv,
  stdin: NodeJS.ReadStream,
  stdout: NodeJS.WriteStream,
  repaint?: () => void,
): Promise<string | null> {
  const editor = env.VISUAL || env.EDITOR || "vi";
  const dir = await fs.mkdtemp(join(tmpdir(), "nanohermes-prompt-"));
  const file = join(dir, "prompt.md");
  await fs.writeFile(file, text);
  stdout.write(`${MOUSE_OFF}\x1b[?2004l\x1b[?25h\x1b[?1049l`);
  if (stdin.isTTY) stdin.setRawMode(false);
  stdin.pause();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn("/bin/sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit" });
    child.on("error", () => resolve(null));
    child.on("exit", (c) => resolve(c));
  });
  stdout.write(`\x1b[?1049h\x1b[?2004h${MOUSE_ON}\x1b[?25l\x1b[H\x1b[2J`);
  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.resume();
  repaint?.();
  const result = code === 0 ? await fs.readFile(file, "utf8").catch(() => null) : null;
  await fs.rm(dir, { recursive: true, force: true });
  return result;
}
