// From settings to the two confinements tools run under: the write boundary of in-process file
// tools and the command sandbox. One place, so the two always agree.
import type { Settings } from "../config/schema.js";
import type { CommandSandbox } from "../tools/define.js";
import { instructionChangeNotice, recordInstructionChange } from "../config/instruction-changes.js";
import type { WriteBoundary } from "../tools/paths.js";
import type { SandboxHost } from "../sandbox/landlock.js";

/** The Landlock front end, loaded by the first command (or the first label), not at start (issue 35). */
const landlock = () => import("../sandbox/landlock.js");

/** The sandbox mode commands run under, with "auto" resolved by whether Landlock works here. */
export function effectiveSandboxMode(
  settings: Pick<Settings, "sandbox">,
  landlockAvailable: boolean,
): "off" | "read-only" | "workspace-write" {
  const mode = settings.sandbox.mode;
  if (mode === "auto") return landlockAvailable ? "workspace-write" : "off";
  return mode;
}

/**
 * The command sandbox of a task. Landlock's front end loads and is probed (a helper run, cached)
 * only when a command first runs, so start-up does not pay for it. Contract: `notice` gets one line, once each, when
 * "auto" falls back to unsandboxed, when no mount namespace can be made for the read-only binds,
 * and when TMPDIR is replaced by a private folder (one-shot and
 * tool runs print it on stderr, the engine turns it into a warning notice). Tests inject `host`.
 */
export function commandSandbox(
  settings: Pick<Settings, "sandbox" | "workspace"> & { home?: string },
  notice?: (line: string) => void,
  host?: () => SandboxHost,
): CommandSandbox {
  const { mode, network, writableRoots } = settings.sandbox;
  const said = new Set<string>();
  const say = (line: string) => {
    if (said.has(line)) return;
    said.add(line);
    notice?.(line);
  };
  const home = settings.home;
  return {
    mode,
    network,
    writableRoots,
    instructionsChanged: (changed, after) => {
      notice?.(instructionChangeNotice(changed));
      if (home) recordInstructionChange(home, settings.workspace, changed, after);
    },
    wrap: async (argv, options) => {
      const { helperPath, noNamespaceNotice, probeLandlock, probeProtect, sandboxArgv } = await landlock();
      const probe = mode === "auto" ? (host?.().probe ?? probeLandlock()) : null;
      const effective = mode === "auto" ? (probe?.available ? "workspace-write" : "off") : mode;
      if (probe && !probe.available)
        say(`sandbox auto: Landlock is unavailable (${probe.reason}); commands run unsandboxed`);
      const result = sandboxArgv(
        {
          mode: effective,
          workspace: settings.workspace,
          writableRoots,
          network: network || options?.network === true,
        },
        argv,
        host?.(),
        options,
      );
      if ("notice" in result && result.notice) say(result.notice);
      if (effective === "workspace-write" && "argv" in result) {
        // Where no mount namespace can be made only the check after each command holds: say so once.
        const given = host?.();
        const protect = given?.protect ?? probeProtect(given ? given.helper : helperPath());
        if (!protect.mountNamespace) say(noNamespaceNotice(protect));
      }
      return result;
    },
  };
}

/** What the title bar and /sandbox say about the sandbox (probes Landlock). */
export async function sandboxLabel(settings: Pick<Settings, "sandbox">): Promise<string> {
  const probe = settings.sandbox.mode === "off" ? null : (await landlock()).probeLandlock();
  const mode = effectiveSandboxMode(settings, probe?.available ?? false);
  if (mode === "off") return "unsandboxed";
  const net = settings.sandbox.network ? "" : ", no network";
  return probe?.available ? `sandbox ${mode}${net}` : `sandbox ${mode} unavailable: commands refused`;
}

/**
 * File tools write inside the workspace and the extra writable roots (not the temp directory,
 * which only commands get), never in protected paths unless allowed, never in read-only mode.
 */
export function writeBoundary(settings: Pick<Settings, "sandbox" | "allowProtectedWrites">): WriteBoundary {
  const mode = settings.sandbox.mode;
  return {
    readOnly: mode === "read-only",
    extraRoots: settings.sandbox.writableRoots,
    protect: !settings.allowProtectedWrites,
  };
}
