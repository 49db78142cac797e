// tmux settings -> tmux.conf lines, from sample values and from a real tmux server on its own socket.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clipboardRoute,
  parseTmuxVersion,
  readTmux,
  tmuxAtLeast,
  tmuxRecommendations,
  type RunFile,
  type TmuxInfo,
} from "../../../src/ui/terminal/tmux.js";

const defaults33: TmuxInfo = {
  inside: true,
  version: "tmux 3.3a",
  options: { setClipboard: "external", allowPassthrough: "off", extendedKeys: "off", escapeTime: 500 },
  problems: [],
};

const lines = (info: TmuxInfo) => tmuxRecommendations(info).map((r) => r.line);

describe("tmuxRecommendations", () => {
  it("recommends all four lines for tmux 3.3's defaults, each with a one-line reason", () => {
    const recs = tmuxRecommendations(defaults33);
    expect(recs.map((r) => r.line)).toEqual([
      "set -g set-clipboard on",
      "set -g allow-passthrough on",
      "set -s extended-keys on",
      "set -sg escape-time 10",
    ]);
    for (const r of recs) {
      expect(r.reason.length).toBeGreaterThan(10);
      expect(r.reason).not.toContain("\n");
    }
    expect(recs[3]?.reason).toContain("500 ms");
  });

  it.each<[string, TmuxInfo, string[]]>([
    [
      "a tuned tmux",
      { ...defaults33, options: { setClipboard: "on", allowPassthrough: "on", extendedKeys: "on", escapeTime: 10 } },
      [],
    ],
    [
      "allow-passthrough all counts",
      {
        ...defaults33,
        options: { setClipboard: "on", allowPassthrough: "all", extendedKeys: "always", escapeTime: 0 },
      },
      [],
    ],
    ["escape-time 50 is fine", { ...defaults33, options: { escapeTime: 50 } }, []],
    ["escape-time 51 is not", { ...defaults33, options: { escapeTime: 51 } }, ["set -sg escape-time 10"]],
    [
      "tmux 3.2 has no allow-passthrough to set",
      {
        ...defaults33,
        version: "tmux 3.2a",
        options: { setClipboard: "on", allowPassthrough: "off", extendedKeys: "off" },
      },
      ["set -s extended-keys on"],
    ],
    [
      "tmux 3.1 has no extended-keys either",
      { ...defaults33, version: "tmux 3.1c", options: { extendedKeys: "off", allowPassthrough: "off" } },
      [],
    ],
    ["unread options recommend nothing", { ...defaults33, options: {} }, []],
    ["outside tmux", { inside: false, options: { setClipboard: "off" }, problems: [] }, []],
  ])("%s", (_label, info, expected) => {
    expect(lines(info)).toEqual(expected);
  });
});

describe("versions and the clipboard route", () => {
  it("parses tmux version strings", () => {
    expect(parseTmuxVersion("tmux 3.3a")).toEqual([3, 3]);
    expect(parseTmuxVersion("tmux next-3.5")).toEqual([3, 5]);
    expect(parseTmuxVersion("tmux 3.10")).toEqual([3, 10]);
    expect(parseTmuxVersion("tmux master")).toBeUndefined();
    expect(tmuxAtLeast("tmux 3.10", 3, 3)).toBe(true);
    expect(tmuxAtLeast("tmux 2.9a", 3, 2)).toBe(false);
    expect(tmuxAtLeast("tmux master", 3, 3)).toBe(true);
  });

  it.each<[string, TmuxInfo, boolean | undefined, boolean]>([
    ["outside tmux: plain", { inside: false, options: {}, problems: [] }, true, false],
    [
      "set-clipboard on: plain, tmux forwards it",
      { ...defaults33, options: { setClipboard: "on", allowPassthrough: "off" } },
      true,
      false,
    ],
    [
      "passthrough on: wrapped",
      { ...defaults33, options: { setClipboard: "external", allowPassthrough: "on" } },
      true,
      true,
    ],
    [
      "tmux 3.2 always passes through",
      { ...defaults33, version: "tmux 3.2a", options: { setClipboard: "external" } },
      true,
      true,
    ],
    ["3.3 defaults: dropped", defaults33, false, true],
    [
      "unknown settings: wrapped, works unknown",
      { inside: true, options: {}, problems: ["tmux is not on PATH"] },
      undefined,
      true,
    ],
  ])("%s", (_label, info, works, wrap) => {
    const route = clipboardRoute(info);
    expect(route.works).toBe(works);
    expect(route.wrap).toBe(wrap);
  });
});

describe("readTmux", () => {
  it("runs nothing outside tmux", async () => {
    const calls: string[][] = [];
    const run: RunFile = async (_f, args) => (calls.push(args), "");
    expect(await readTmux({ env: {}, run })).toEqual({ inside: false, options: {}, problems: [] });
    expect(calls).toEqual([]);
  });

  it("reports a missing tmux instead of throwing", async () => {
    const info = await readTmux({ env: { TMUX: "/nonexistent,1,0", PATH: "/nonexistent-bin" } });
    expect(info.inside).toBe(true);
    expect(info.version).toBeUndefined();
    expect(info.problems).toEqual(["tmux is not on PATH"]);
    expect(tmuxRecommendations(info)).toEqual([]);
  });

  it("reports a tmux that does not answer in time", async () => {
    const run: RunFile = () => Promise.reject(new Error("tmux did not answer within 5 ms"));
    const info = await readTmux({ env: { TMUX: "x" }, run, timeoutMs: 5 });
    expect(info.problems).toEqual(["tmux did not answer within 5 ms"]);
  });

  it("reads sample values through an injected runner", async () => {
    const answers: Record<string, string> = {
      "-V": "tmux 3.4\n",
      "set-clipboard": "on\n",
      "allow-passthrough": "off\n",
      "extended-keys": "off\n",
      "escape-time": "0\n",
    };
    const run: RunFile = async (_f, args) => answers[args[args.length - 1] ?? ""] ?? "";
    const info = await readTmux({ env: { TMUX: "x" }, run });
    expect(info).toEqual({
      inside: true,
      version: "tmux 3.4",
      options: { setClipboard: "on", allowPassthrough: "off", extendedKeys: "off", escapeTime: 0 },
      problems: [],
    });
    expect(lines(info)).toEqual(["set -g allow-passthrough on", "set -s extended-keys on"]);
  });
});

describe("readTmux against a real tmux server", () => {
  const socket = join(tmpdir(), `nh-tmux-test-${process.pid}-${Date.now()}.sock`);
  // The tmux client finds its server through $TMUX ("socket,pid,session"), as it would inside tmux.
  const env = { PATH: process.env.PATH, TMUX: `${socket},${process.pid},0` };
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-S", socket, ...args], { encoding: "utf8", env: { PATH: process.env.PATH } });

  beforeAll(() => {
    tmux("-f", "/dev/null", "new-session", "-d", "-s", "nh");
  });
  afterAll(() => {
    try {
      tmux("kill-server");
    } finally {
      rmSync(socket, { force: true });
    }
  });

  it("reads the version and the defaults, and recommends for them", async () => {
    const info = await readTmux({ env });
    expect(info.problems).toEqual([]);
    expect(info.version).toBe(tmux("-V").trim());
    expect(info.options.setClipboard).toBe("external");
    expect(info.options.escapeTime).toBe(500);
    expect(lines(info)).toContain("set -g set-clipboard on");
    expect(lines(info)).toContain("set -sg escape-time 10");
  });

  it("sees the recommended lines take effect, after which nothing is recommended", async () => {
    for (const line of tmuxRecommendations(await readTmux({ env })).map((r) => r.line)) {
      tmux(...line.split(" "));
    }
    const info = await readTmux({ env });
    expect(info.options).toMatchObject({ setClipboard: "on", escapeTime: 10 });
    expect(lines(info)).toEqual([]);
    expect(clipboardRoute(info)).toMatchObject({ works: true, wrap: false });
  });

  it("reports a server that has gone away", async () => {
    const info = await readTmux({ env: { ...env, TMUX: `${socket}.gone,1,0` } });
    expect(info.version).toBeDefined();
    expect(info.options).toEqual({});
    expect(info.problems.join(" ")).toMatch(/no server running|error connecting|server exited/);
  });
});
