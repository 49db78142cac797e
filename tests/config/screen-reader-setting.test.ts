// Screen-reader mode is on from any of its three sources (the flag, the config's ui.screenReader,
// NANOHERMES_SCREEN_READER=1), off otherwise, and it stops animation.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseFlags } from "../../src/config/flags.js";
import { loadSettings } from "../../src/config/load.js";
import { motionAllowed } from "../../src/ui/context/motion.js";
import { tempDir } from "../helpers/cli.js";

function load(config: object, args: string[], env: Record<string, string> = {}) {
  const home = tempDir("nh-sr-home-");
  const workspace = tempDir("nh-sr-ws-");
  writeFileSync(join(home, "config.json"), JSON.stringify(config));
  return loadSettings({ flags: parseFlags(args), env: { NANOHERMES_HOME: home, ...env }, cwd: workspace });
}

describe("screen-reader setting", () => {
  it.each([
    ["nothing", {}, [], {}, false],
    ["--screen-reader", {}, ["--screen-reader"], {}, true],
    ["ui.screenReader in config.json", { ui: { screenReader: true } }, [], {}, true],
    ["NANOHERMES_SCREEN_READER=1", {}, [], { NANOHERMES_SCREEN_READER: "1" }, true],
    ["NANOHERMES_SCREEN_READER=0", {}, [], { NANOHERMES_SCREEN_READER: "0" }, false],
    ["the flag over ui.screenReader false", { ui: { screenReader: false } }, ["--screen-reader"], {}, true],
  ] as const)("%s", (_name, config, args, env, on) => {
    const settings = load(config, [...args], env);
    expect(settings.ui.screenReader).toBe(on);
    expect(motionAllowed({}, settings)).toBe(!on);
  });
});
