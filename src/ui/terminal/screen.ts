// Owning the terminal: the alternate screen, bracketed paste, focus reports and the cursor, and one
// restore path that runs on every exit (normal, crash, SIGTERM, SIGHUP from a dropped SSH link).

import { signalExitCode } from "../../agent/interrupt.js";

/**
 * Mouse reporting (button events, SGR encoding) so the wheel scrolls the transcript instead of the
 * terminal turning it into arrow keys that walk the prompt history; clicks are ignored, and
 * Shift-drag still selects text in xterm, VTE terminals, iTerm2, kitty and tmux.
 */
export const MOUSE_ON = "\x1b[?1000h\x1b[?1006h";
export const MOUSE_OFF = "\x1b[?1006l\x1b[?1000l";
const ENTER = `\x1b[?1049h\x1b[?2004h\x1b[?1004h${MOUSE_ON}\x1b[?25l\x1b[H\x1b[2J`;
// The window title goes back to the terminal's default (an empty OSC 2 on most terminals).
const LEAVE = `${MOUSE_OFF}\x1b[?1004l\x1b[?2004l\x1b[?25h\x1b[0m\x1b[?1049l\x1b]2;\x07`;

export interface TerminalStreams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

export interface ScreenSession {
  /** Idempotent: leaves the alternate screen, restores modes and the cursor, ends raw mode. */
  restore(): void;
  /**
   * Makes our SIGTERM/SIGHUP handlers the only ones. Call after the renderer started: Ink's
   * signal-exit (v3) re-raises a signal when it counts no other listener, which would kill the
   * process before the sessions are saved and before the terminal is restored.
   */
  claimSignals(): void;
}

/**
 * Contract: after `enterScreen`, `restore()` (or process exit, an uncaught error, SIGTERM or
 * SIGHUP) puts the terminal back as it was. `beforeExit` runs first on signals and crashes (save
 * the sessions); it gets a short time budget, then the process exits anyway.
 */
export function enterScreen(
  io: TerminalStreams,
  beforeExit: (reason: string) => Promise<void>,
  teardown: () => void = () => {},
  budgetMs = 1500,
): ScreenSession {
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    // The renderer goes first: Ink redraws its last frame when it unmounts, which must land on
    // the alternate screen, not on the user's main screen.
    try {
      teardown();
    } catch {
      // a renderer that fails to stop must not keep the terminal broken
    }
    try {
      if (io.stdin.isTTY) io.stdin.setRawMode(false);
    } catch {
      // the terminal may already be gone (SIGHUP)
    }
    try {
      io.stdout.write(LEAVE);
    } catch {
      // EIO/EPIPE after a dropped link: nothing left to restore
    }
  };
  const finish = (reason: string, code: number) => {
    const end = () => {
      restore();
      // After SIGHUP the terminal is gone: Node's own exit-time reset of the tty then fails an
      // assertion (tcsetattr gives EIO) and prints a native stack trace. Nothing is left to
      // restore, so end without that step.
      if (reason === "SIGHUP") process.kill(process.pid, "SIGKILL");
      process.exit(code);
    };
    const timer = setTimeout(end, budgetMs);
    timer.unref?.();
    void beforeExit(reason)
      .catch(() => {})
      .finally(end);
  };
  io.stdout.write(ENTER);
  if (io.stdin.isTTY) io.stdin.setRawMode(true);
  process.on("exit", restore);
  let signalled = false;
  const onSignal = (sig: "SIGTERM" | "SIGHUP") => () => {
    if (signalled) return;
    signalled = true;
    finish(sig, signalExitCode(sig));
  };
  const claimSignals = () => {
    for (const sig of ["SIGTERM", "SIGHUP"] as const) {
      process.removeAllListeners(sig);
      process.on(sig, onSignal(sig));
    }
  };
  claimSignals();
  process.on("uncaughtException", (error) => {
    restore();
    process.stderr.write(`nanohermes: internal error: ${error.stack ?? error.message}\n`);
    finish("crash", 1);
  });
  // Writes to a terminal that went away must not crash the exit path.
  io.stdout.on("error", () => {});
  return { restore, claimSignals };
}
