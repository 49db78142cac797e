// The trust question: a workspace's own config keys, commands (.claude/commands,
// .nanohermes/commands) and instruction files apply only once the user trusts the folder. Asked
// at start when something waits, and by /trust; y trusts it (y/n, one key).
import type { Controller } from "./controller.js";

/** Opens the question when something waits for trust; false when nothing does. */
export function askTrust(ctl: Controller): boolean {
  const waiting = ctl.deps.untrusted?.() ?? [];
  if (waiting.length === 0) return false;
  const workspace = ctl.deps.workspace?.root ?? "this folder";
  ctl.setUi((ui) => ({
    ...ui,
    dialog: {
      kind: "confirm",
      action: "trust",
      target: workspace,
      title: `This folder (${workspace}) has things of its own that wait until you trust it: ${waiting.join("; ")}. Trust it? (y/n; /trust asks again later)`,
    },
  }));
  return true;
}
