// An untrusted workspace config may only tighten safety keys (strictly, on the orders written in
// src/config/strictness.ts); every key in both directions, through the real loader and real files.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseFlags } from "../../src/config/flags.js";
import { loadSettings } from "../../src/config/load.js";
import type { ConfigFile, Settings } from "../../src/config/schema.js";
import { trustWorkspace } from "../../src/config/trust.js";
import { tempDir } from "../helpers/cli.js";

const dir = (prefix: string) => tempDir(prefix);

function load(user: ConfigFile, ws: ConfigFile, options: { trusted?: boolean; args?: string[] } = {}): Settings {
  const home = dir("nh-trust-home-");
  const workspace = dir("nh-trust-ws-");
  writeFileSync(join(home, "config.json"), JSON.stringify(user));
  mkdirSync(join(workspace, ".nanohermes"));
  writeFileSync(join(workspace, ".nanohermes", "config.json"), JSON.stringify(ws));
  const args = [...(options.args ?? []), ...(options.trusted ? ["--trust"] : [])];
  return loadSettings({ flags: parseFlags(args), env: { NANOHERMES_HOME: home }, cwd: workspace });
}

interface Case {
  key: string;
  user: ConfigFile;
  ws: ConfigFile;
  /** The workspace value applies (strictly stricter) or is ignored. */
  applies: boolean;
  /** The effective value read from the settings. */
  read: (s: Settings) => unknown;
  effective: unknown;
}

const sandboxMode = (s: Settings) => s.sandbox.mode;
const network = (s: Settings) => s.sandbox.network;
const roots = (s: Settings) => s.sandbox.writableRoots;
const mode = (s: Settings) => s.mode;
const approval = (s: Settings) => s.approval;
const protectedWrites = (s: Settings) => s.allowProtectedWrites;

const cases: Case[] = [
  // sandbox.mode: off < auto < workspace-write < read-only
  {
    key: "sandbox.mode",
    user: { sandbox: { mode: "read-only" } },
    ws: { sandbox: { mode: "workspace-write" } },
    applies: false,
    read: sandboxMode,
    effective: "read-only",
  },
  {
    key: "sandbox.mode",
    user: { sandbox: { mode: "read-only" } },
    ws: { sandbox: { mode: "off" } },
    applies: false,
    read: sandboxMode,
    effective: "read-only",
  },
  {
    key: "sandbox.mode",
    user: {},
    ws: { sandbox: { mode: "off" } },
    applies: false,
    read: sandboxMode,
    effective: "auto",
  },
  {
    key: "sandbox.mode",
    user: { sandbox: { mode: "workspace-write" } },
    ws: { sandbox: { mode: "auto" } },
    applies: false,
    read: sandboxMode,
    effective: "workspace-write",
  },
  {
    key: "sandbox.mode",
    user: { sandbox: { mode: "workspace-write" } },
    ws: { sandbox: { mode: "workspace-write" } },
    applies: false,
    read: sandboxMode,
    effective: "workspace-write",
  },
  {
    key: "sandbox.mode",
    user: {},
    ws: { sandbox: { mode: "workspace-write" } },
    applies: true,
    read: sandboxMode,
    effective: "workspace-write",
  },
  {
    key: "sandbox.mode",
    user: { sandbox: { mode: "off" } },
    ws: { sandbox: { mode: "auto" } },
    applies: true,
    read: sandboxMode,
    effective: "auto",
  },
  {
    key: "sandbox.mode",
    user: { sandbox: { mode: "workspace-write" } },
    ws: { sandbox: { mode: "read-only" } },
    applies: true,
    read: sandboxMode,
    effective: "read-only",
  },
  // sandbox.network: on < off
  {
    key: "sandbox.network",
    user: { sandbox: { network: false } },
    ws: { sandbox: { network: true } },
    applies: false,
    read: network,
    effective: false,
  },
  // The default is off (issue 26.6): a workspace cannot turn it on, and off is no change.
  {
    key: "sandbox.network",
    user: {},
    ws: { sandbox: { network: true } },
    applies: false,
    read: network,
    effective: false,
  },
  {
    key: "sandbox.network",
    user: { sandbox: { network: true } },
    ws: { sandbox: { network: false } },
    applies: true,
    read: network,
    effective: false,
  },
  // sandbox.writableRoots: non-empty < []
  {
    key: "sandbox.writableRoots",
    user: {},
    ws: { sandbox: { writableRoots: ["/"] } },
    applies: false,
    read: roots,
    effective: [],
  },
  {
    key: "sandbox.writableRoots",
    user: { sandbox: { writableRoots: ["/srv"] } },
    ws: { sandbox: { writableRoots: ["/"] } },
    applies: false,
    read: roots,
    effective: ["/srv"],
  },
  {
    key: "sandbox.writableRoots",
    user: {},
    ws: { sandbox: { writableRoots: [] } },
    applies: false,
    read: roots,
    effective: [],
  },
  {
    key: "sandbox.writableRoots",
    user: { sandbox: { writableRoots: ["/srv"] } },
    ws: { sandbox: { writableRoots: [] } },
    applies: true,
    read: roots,
    effective: [],
  },
  // mode: goal < accept-edits < default < debug < plan
  { key: "mode", user: { mode: "plan" }, ws: { mode: "debug" }, applies: false, read: mode, effective: "plan" },
  { key: "mode", user: { mode: "plan" }, ws: { mode: "goal" }, applies: false, read: mode, effective: "plan" },
  { key: "mode", user: {}, ws: { mode: "accept-edits" }, applies: false, read: mode, effective: "default" },
  { key: "mode", user: { mode: "debug" }, ws: { mode: "default" }, applies: false, read: mode, effective: "debug" },
  {
    key: "mode",
    user: { mode: "accept-edits" },
    ws: { mode: "goal" },
    applies: false,
    read: mode,
    effective: "accept-edits",
  },
  { key: "mode", user: {}, ws: { mode: "default" }, applies: false, read: mode, effective: "default" },
  { key: "mode", user: {}, ws: { mode: "debug" }, applies: true, read: mode, effective: "debug" },
  { key: "mode", user: { mode: "debug" }, ws: { mode: "plan" }, applies: true, read: mode, effective: "plan" },
  {
    key: "mode",
    user: { mode: "goal" },
    ws: { mode: "accept-edits" },
    applies: true,
    read: mode,
    effective: "accept-edits",
  },
  // approval: never < on-request < untrusted
  {
    key: "approval",
    user: { approval: "untrusted" },
    ws: { approval: "on-request" },
    applies: false,
    read: approval,
    effective: "untrusted",
  },
  { key: "approval", user: {}, ws: { approval: "never" }, applies: false, read: approval, effective: undefined },
  { key: "approval", user: {}, ws: { approval: "on-request" }, applies: false, read: approval, effective: undefined },
  { key: "approval", user: {}, ws: { approval: "untrusted" }, applies: true, read: approval, effective: "untrusted" },
  {
    key: "approval",
    user: { approval: "never" },
    ws: { approval: "on-request" },
    applies: true,
    read: approval,
    effective: "on-request",
  },
  // allowProtectedWrites: true < false
  {
    key: "allowProtectedWrites",
    user: {},
    ws: { allowProtectedWrites: true },
    applies: false,
    read: protectedWrites,
    effective: false,
  },
  {
    key: "allowProtectedWrites",
    user: {},
    ws: { allowProtectedWrites: false },
    applies: false,
    read: protectedWrites,
    effective: false,
  },
  {
    key: "allowProtectedWrites",
    user: { allowProtectedWrites: true },
    ws: { allowProtectedWrites: false },
    applies: true,
    read: protectedWrites,
    effective: false,
  },
];

describe("an untrusted workspace config only tightens", () => {
  it.each(cases)(
    "$key: user $user, workspace $ws -> applies $applies",
    ({ key, user, ws, applies, read, effective }) => {
      const settings = load(user, ws);
      expect(read(settings)).toEqual(effective);
      if (applies) expect(settings.untrustedKeys).not.toContain(key);
      else expect(settings.untrustedKeys).toContain(key);
    },
  );

  it.each(cases.filter((c) => !c.applies))(
    "trusted, the workspace's $key applies: user $user, workspace $ws",
    ({ user, ws, read }) => {
      const settings = load(user, ws, { trusted: true });
      expect(settings.untrustedKeys).toEqual([]);
      // The workspace's own value wins once trusted: the same as with no user config at all.
      expect(read(settings)).toEqual(read(load({}, ws, { trusted: true })));
    },
  );

  it("one sandbox key looser and one stricter: only the looser one is ignored, the user's other keys stay", () => {
    const settings = load(
      { sandbox: { mode: "read-only", network: true, writableRoots: ["/srv"] } },
      { sandbox: { mode: "workspace-write", network: false } },
    );
    expect(settings.sandbox).toMatchObject({ mode: "read-only", network: false });
    expect(settings.sandbox.writableRoots).toEqual(["/srv"]);
    expect(settings.untrustedKeys).toEqual(["sandbox.mode"]);
  });

  it("a workspace that only turns the network off keeps the user's sandbox mode (merged key by key)", () => {
    const settings = load({ sandbox: { mode: "read-only", network: true } }, { sandbox: { network: false } });
    expect(settings.sandbox.mode).toBe("read-only");
    expect(settings.sandbox.network).toBe(false);
    expect(settings.untrustedKeys).toEqual([]);
  });

  it("the folder trusted through trusted.json lets the workspace loosen", async () => {
    const home = dir("nh-trust-home-");
    const workspace = dir("nh-trust-ws-");
    writeFileSync(join(home, "config.json"), JSON.stringify({ sandbox: { mode: "read-only" } }));
    mkdirSync(join(workspace, ".nanohermes"));
    writeFileSync(
      join(workspace, ".nanohermes", "config.json"),
      JSON.stringify({ sandbox: { mode: "workspace-write" }, mode: "goal" }),
    );
    const before = loadSettings({ flags: parseFlags([]), env: { NANOHERMES_HOME: home }, cwd: workspace });
    expect(before.untrustedKeys).toEqual(["mode", "sandbox.mode"]);
    await trustWorkspace(home, workspace);
    const after = loadSettings({ flags: parseFlags([]), env: { NANOHERMES_HOME: home }, cwd: workspace });
    expect(after.sandbox.mode).toBe("workspace-write");
    expect(after.mode).toBe("goal");
    expect(after.untrustedKeys).toEqual([]);
  });

  it("flags still win over the workspace either way", () => {
    const settings = load({}, { sandbox: { mode: "read-only" } }, { args: ["--sandbox", "off"] });
    expect(settings.sandbox.mode).toBe("off");
  });
});
