// Copy (/copy, y and c in browse mode): OSC 52 to the terminal, and inside a tmux that drops it
// (the default: set-clipboard external, allow-passthrough off) also `tmux load-buffer -`, so the
// text lands somewhere, with a status that says where and how to reach the system clipboard.
import { spawn } from "node:child_process";
import { osc52 } from "../terminal/osc.js";
import type { ClipboardRoute } from "../terminal/tmux.js";

export type CopyResult = { ok: true; note?: string } | { ok: false; reason: string };

export interface CopyDeps {
  /** Inside tmux: how OSC 52 travels (null outside tmux, or until tmux's settings are read). */
  route: ClipboardRoute | null;
  inTmux: boolean;
  write(sequence: string): void;
  /** Puts `text` in tmux's paste buffer; resolves false when tmux refused or is missing. */
  loadBuffer(text: string): Promise<boolean>;
}

const FIX = "for the system clipboard add `set -g set-clipboard on` to tmux.conf (`nh doctor` explains)";

export function copyOut(text: string, deps: CopyDeps): CopyResult {
  const seq = osc52(text, { tmux: deps.route ? deps.route.wrap : deps.inTmux });
  if (!seq.ok) return { ok: false, reason: seq.reason };
  deps.write(seq.sequence);
  if (!deps.inTmux || deps.route?.works === true) return { ok: true };
  void deps.loadBuffer(text);
  return {
    ok: true,
    note:
      deps.route?.works === false
        ? `tmux drops the clipboard sequence here, so it went to tmux's paste buffer (prefix ] pastes); ${FIX}`
        : `inside tmux it may not reach the clipboard: it is in tmux's paste buffer too (prefix ] pastes); ${FIX}`,
  };
}

/** `tmux load-buffer -` with the text on stdin. */
export function tmuxLoadBuffer(env: Record<string, string | undefined>): (text: string) => Promise<boolean> {
  return (text) =>
    new Promise((resolve) => {
      const child = spawn("tmux", ["load-buffer", "-"], {
        env: env as NodeJS.ProcessEnv,
        stdio: ["pipe", "ignore", "ignore"],
      });
      child.on("error", () => resolve(false));
      child.on("close", (code) => resolve(code === 0));
      child.stdin.on("error", () => {});
      child.stdin.end(text);
    });
}
