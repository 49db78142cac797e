// From settings to the two confinements tools run under: the write boundary of in-process file
// tools and the command sandbox. One place, so the two always agree.
import type { Settings } from "../config/schema.js";
import type { CommandSandbox } from "../tools/define.js";
import { PROTECTED_PATHS, type WriteBoundary } from "../tools/paths.js";

/** The sandbox mode commands run under, with "auto" resolved by whether Landlock works here. */
export function effectiveSandboxMode(settings: Pick<Settings, "sandbox">, landlockAvailable: boolean): CommandSandbox["mode"] {
  const mode = settings.sandbox.mode;
  if (mode === "auto") return landlockAvailable ? "workspace-write" : "off";
  return mode;
}

export function commandSandbox(settings: Pick<Settings, "sandbox">, landlockAvailable: boolean): CommandSandbox {
  return { mode: effectiveSandboxMode(settings, landlockAvailable), network: settings.sandbox.network, writableRoots: settings.sandbox.writableRoots };
}

/**
 * File tools write inside the workspace and the extra writable roots (not the temp directory,
 * which only commands get), never in protected paths unless allowed, never in read-only mode.
 */
export function writeBoundary(settings: Pick<Settings, "sandbox" | "allowProtectedWrites">, mode: CommandSandbox["mode"]): WriteBoundary {
  return {
    readOnly: mode === "read-only",
    extraRoots: settings.sandbox.writableRoots,
    protectedPaths: settings.allowProtectedWrites ? [] : PROTECTED_PATHS,
  };
}
