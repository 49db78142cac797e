// The `nanohermes doctor` report: environment-only when not on a terminal, probed when it is.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { runDoctor } from "../../../src/ui/terminal/doctor.js";

const ESC = "\x1b";

function pipes() {
  const written: string[] = [];
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  const stdout = { isTTY: false, write: (s: string) => written.push(s) };
  return { stdin, stdout, written };
}

describe("runDoctor without a terminal", () => {
  it("reports what the environment says, writes no queries and says the probe was skipped", async () => {
    const { stdin, stdout, written } = pipes();
    const env = { TERM: "xterm-256color", COLORTERM: "truecolor", LANG: "en_US.UTF-8" };
    const report = await runDoctor({ env, stdin, stdout });
    expect(written).toEqual([]);
    expect(report).toMatch(/^NanoHermes doctor\n/);
    expect(report).toMatch(/TERM\s+xterm-256color/);
    expect(report).toMatch(/COLORTERM\s+truecolor/);
    expect(report).toContain(
      "colour depth         none (output is not a terminal); on a terminal: 24-bit (true colour) (COLORTERM=truecolor)",
    );
    expect(report).toContain("unicode              yes: rounded borders, glyphs (LANG=en_US.UTF-8)");
    expect(report).toMatch(/synchronized output\s+unknown \(probe skipped\)/);
    expect(report).toMatch(/bracketed paste\s+unknown \(probe skipped\)/);
    expect(report).toMatch(/OSC 52 copy\s+unknown/);
    expect(report).toMatch(/background\s+unknown: default theme "dark"/);
    expect(report).toContain("not inside tmux (TMUX is not set)");
    expect(report).not.toContain("tmux.conf");
    expect(report).toContain("Probe skipped: stdin and stdout are not both terminals");
    expect(report).not.toContain(ESC);
  });

  it("shows NO_COLOR, a C locale and SSH", async () => {
    const { stdin, stdout } = pipes();
    const report = await runDoctor({
      env: { NO_COLOR: "1", LC_ALL: "C", LANG: "en_US.UTF-8", SSH_CONNECTION: "1 2 3 4" },
      stdin,
      stdout,
    });
    expect(report).toMatch(/colour depth\s+none \(NO_COLOR is set\)\n/);
    expect(report).toContain("no: ASCII only (LC_ALL=C)");
    expect(report).toMatch(/TERM\s+\(not set\)/);
    expect(report).toMatch(/ssh\s+yes/);
  });

  it("lists tmux settings and the exact tmux.conf lines, read from a real tmux server", async () => {
    const socket = join(tmpdir(), `nh-doctor-${process.pid}-${Date.now()}.sock`);
    const tmux = (...args: string[]) =>
      execFileSync("tmux", ["-S", socket, ...args], { encoding: "utf8", env: { PATH: process.env.PATH } });
    tmux("-f", "/dev/null", "new-session", "-d");
    try {
      tmux("set", "-g", "allow-passthrough", "on");
      const { stdin, stdout } = pipes();
      const env = { PATH: process.env.PATH, TMUX: `${socket},1,0`, TERM: "tmux-256color" };
      const report = await runDoctor({ env, stdin, stdout });
      expect(report).toContain(`version              ${tmux("-V").trim()}`);
      expect(report).toMatch(/set-clipboard\s+external/);
      expect(report).toMatch(/allow-passthrough\s+on/);
      expect(report).toMatch(/escape-time\s+500 ms/);
      expect(report).toMatch(/Add to ~\/\.tmux\.conf/);
      expect(report).toMatch(/\n  set -g set-clipboard on +# /);
      expect(report).toMatch(/\n  set -sg escape-time 10 +# /);
      expect(report).not.toContain("set -g allow-passthrough on");
      expect(report).toMatch(/through tmux: yes \(tmux passthrough is allowed/);
    } finally {
      tmux("kill-server");
      rmSync(socket, { force: true });
    }
  });
});

describe("runDoctor on a terminal", () => {
  function fakeTerminal(replies: string) {
    const stdin = Object.assign(new PassThrough(), {
      isTTY: true,
      isRaw: false,
      setRawMode(mode: boolean) {
        stdin.isRaw = mode;
        return stdin;
      },
    });
    const stdout = {
      isTTY: true,
      write(s: string) {
        if (s.includes(`${ESC}[c`)) setTimeout(() => stdin.write(replies), 1);
        return true;
      },
    };
    return { stdin, stdout };
  }

  it("reports what the terminal answered and picks the light theme for a light background", async () => {
    const replies = `${ESC}P>|WezTerm 20240203${ESC}\\${ESC}[?2026;2$y${ESC}[?2004;2$y${ESC}]11;rgb:ffff/ffff/ffff${ESC}\\${ESC}[?65;1;52c`;
    const { stdin, stdout } = fakeTerminal(replies);
    const env = { TERM: "xterm-256color", TERM_PROGRAM: "WezTerm", LANG: "C.UTF-8" };
    const report = await runDoctor({ env, stdin, stdout, timeoutMs: 2_000, run: async () => "" });
    expect(report).toMatch(/version\s+WezTerm 20240203/);
    expect(report).toMatch(/colour depth\s+256 colours \(TERM=xterm-256color\)/);
    expect(report).toMatch(/synchronized output\s+yes/);
    expect(report).toMatch(/bracketed paste\s+yes/);
    expect(report).toMatch(/OSC 52 copy\s+supported \(DA1 reports 52\)/);
    expect(report).toMatch(/background\s+light \(#ffffff\): default theme "light"/);
    expect(report).toContain("Probe: the terminal answered.");
    expect(stdin.isRaw).toBe(false);
  });

  it("says so when the terminal does not answer in time", async () => {
    const { stdin } = fakeTerminal("");
    const stdout = { isTTY: true, write: () => true };
    const report = await runDoctor({ env: { TERM: "vt100" }, stdin, stdout, timeoutMs: 30 });
    expect(report).toMatch(/version\s+unknown \(no XTVERSION reply\)/);
    expect(report).toMatch(/synchronized output\s+unknown \(no reply\)/);
    expect(report).toMatch(/colour depth\s+16 colours \(TERM=vt100\)/);
    expect(report).toContain("did not finish answering within 30 ms");
  });
});
