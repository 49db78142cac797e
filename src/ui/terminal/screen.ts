// Owning the terminal: the alternate screen, bracketed paste, focus reports and the cursor, and one
// restore path that runs on every exit (normal, crash, SIGTERM, SIGHUP from a dropped SSH link).

const ENTER = "\x1b[?1049h\x1b[?2004h\x1b[?1004h\x1b[?25l\x1b[H\x1b[2J";
const LEAVE = "\x1b[?1004l\x1b[?2004l\x1b[?25h\x1b[0m\x1b[?1049l";

export interface TerminalStreams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

export interface ScreenSession {
  /** Idempotent: leaves the alternate screen, restores modes and the cursor, ends raw mode. */
  restore(): void;
}

/**
 * Contract: after `enterScreen`, `restore()` (or process exit, an uncaught error, SIGTERM or
 * SIGHUP) puts the terminal back as it was. `beforeExit` runs first on signals and crashes (save
 * the sessions); it gets a short time budget, then the process exits anyway.
 */
export function enterScreen(io: TerminalStreams, beforeExit: (reason: string) => Promise<void>, budgetMs = 1500): ScreenSession {
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
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
    const timer = setTimeout(() => {
      restore();
      process.exit(code);
    }, budgetMs);
    timer.unref?.();
    void beforeExit(reason)
      .catch(() => {})
      .finally(() => {
        restore();
        process.exit(code);
      });
  };
  io.stdout.write(ENTER);
  if (io.stdin.isTTY) io.stdin.setRawMode(true);
  process.on("exit", restore);
  process.once("SIGTERM", () => finish("SIGTERM", 143));
  process.once("SIGHUP", () => finish("SIGHUP", 129));
  process.on("uncaughtException", (error) => {
    restore();
    process.stderr.write(`nanohermes: internal error: ${error.stack ?? error.message}\n`);
    finish("crash", 1);
  });
  // Writes to a terminal that went away must not crash the exit path.
  io.stdout.on("error", () => {});
  return { restore };
}
