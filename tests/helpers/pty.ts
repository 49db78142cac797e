// Runs the built program in a real pseudo-terminal (node-pty) feeding a headless xterm, so tests
// read the screen a user would see, type keys, resize, and check the terminal modes on exit.
import { spawn, type IPty } from "node-pty";
import xterm from "@xterm/headless";
import { CLI } from "./cli.js";
import { CARD_GUARD_MS } from "../../src/ui/controller/approval-guard.js";

const { Terminal } = xterm;

export const keys = {
  enter: "\r",
  esc: "\x1b",
  tab: "\t",
  shiftTab: "\x1b[Z",
  up: "\x1b[A",
  down: "\x1b[B",
  left: "\x1b[D",
  right: "\x1b[C",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  home: "\x1b[H",
  end: "\x1b[F",
  backspace: "\x7f",
  ctrl: (c: string) => String.fromCharCode(c.toUpperCase().charCodeAt(0) - 64),
  alt: (c: string) => `\x1b${c}`,
  paste: (text: string) => `\x1b[200~${text}\x1b[201~`,
};

export interface PtyOptions {
  cols: number;
  rows: number;
  env: Record<string, string | undefined>;
  cwd: string;
  args?: string[];
  /** The program to run (default: this tree's dist/cli.js; the bench passes an older build's). */
  cli?: string;
}

export class PtyApp {
  readonly term: InstanceType<typeof Terminal>;
  readonly pty: IPty;
  bytes = 0;
  exitCode: number | null = null;
  private exited: Promise<number>;
  private writes: Promise<void> = Promise.resolve();

  constructor(opts: PtyOptions) {
    this.term = new Terminal({ cols: opts.cols, rows: opts.rows, allowProposedApi: true });
    this.pty = spawn(process.execPath, [opts.cli ?? CLI, ...(opts.args ?? [])], {
      cols: opts.cols,
      rows: opts.rows,
      cwd: opts.cwd,
      // CI=true as on CI machines (and in some users' shells): the UI must stay live regardless.
      // A UTF-8 locale unless the test names another (tests/e2e/tui-ascii.test.ts runs LANG=C).
      env: { CI: "true", LANG: "C.UTF-8", ...(opts.env as Record<string, string>), TERM: "xterm-256color" },
      name: "xterm-256color",
    });
    this.pty.onData((data) => {
      this.bytes += Buffer.byteLength(data);
      this.writes = this.writes.then(() => new Promise<void>((res) => this.term.write(data, res)));
    });
    this.exited = new Promise((res) =>
      this.pty.onExit(({ exitCode }) => {
        this.exitCode = exitCode;
        res(exitCode);
      }),
    );
  }

  /** The visible screen, one string per row, trailing spaces trimmed. */
  lines(): string[] {
    const buffer = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < this.term.rows; i++)
      out.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? "");
    return out;
  }

  screen(): string {
    return this.lines().join("\n");
  }

  get altScreen(): boolean {
    return this.term.buffer.active.type === "alternate";
  }

  async settle(): Promise<void> {
    await this.writes;
  }

  async waitFor(predicate: string | RegExp | ((screen: string) => boolean), timeoutMs = 10_000): Promise<string> {
    const test =
      typeof predicate === "function"
        ? predicate
        : (s: string) => (typeof predicate === "string" ? s.includes(predicate) : predicate.test(s));
    const start = Date.now();
    for (;;) {
      await this.settle();
      const screen = this.screen();
      if (test(screen)) return screen;
      if (this.exitCode !== null)
        throw new Error(`the program exited (${this.exitCode}) while waiting; screen:\n${screen}`);
      if (Date.now() - start > timeoutMs)
        throw new Error(`timed out waiting for ${String(predicate)}; screen:\n${screen}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  type(text: string): void {
    this.pty.write(text);
  }

  /**
   * Types `key` and waits until the screen shows the program read it (the screen changed), so the
   * next key cannot arrive with it in one read: Esc then Enter would be one Alt chord. A wait on
   * the program instead of a fixed pause, which under load was sometimes too short. Wait for what
   * the keys before it show first, or their late drawing passes for this key's.
   */
  async typeAndWait(key: string, timeoutMs = 10_000): Promise<string> {
    await this.settle();
    const before = this.screen();
    this.pty.write(key);
    return this.waitFor((s) => s !== before, timeoutMs);
  }

  /** Types text one key at a time, as a person would (no paste markers). */
  async typeSlowly(text: string, gapMs = 5): Promise<void> {
    for (const ch of text) {
      this.pty.write(ch);
      await new Promise((r) => setTimeout(r, gapMs));
    }
  }

  /**
   * Answers the approval card on screen with `key` as a person would: after reading it. A key
   * sooner than CARD_GUARD_MS after the card appeared is typing, not an answer (approval-guard.ts).
   */
  async answer(key: string): Promise<void> {
    await new Promise((r) => setTimeout(r, CARD_GUARD_MS + 100));
    this.pty.write(key);
  }

  resize(cols: number, rows: number): void {
    this.pty.resize(cols, rows);
    this.term.resize(cols, rows);
  }

  async exit(timeoutMs = 10_000): Promise<number> {
    const timer = setTimeout(() => this.pty.kill("SIGKILL"), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    await this.settle();
    return code;
  }

  kill(signal = "SIGTERM"): void {
    this.pty.kill(signal);
  }
}
