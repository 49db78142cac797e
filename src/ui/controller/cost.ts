// /cost and the status line's context gauge: both read the task snapshot the engine keeps
// (usage totals with their price, and the latest request's input against the model's window).
import type { TaskSnapshot } from "../../protocol/events.js";
import type { Controller } from "./controller.js";

/** "ctx 42%" when the model's window is known, else null. */
export function contextLabel(snapshot: TaskSnapshot | undefined): string | null {
  const c = snapshot?.context;
  if (!c || c.window <= 0) return null;
  return `ctx ${Math.min(999, Math.round((c.used / c.window) * 100))}%`;
}

const n = (v: number | undefined) => (v ?? 0).toLocaleString("en-US");

/** USD with enough digits to show cents of a cheap model: $0.0042, $1.23. */
export function formatUsd(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** What /cost shows for a task. */
export function costLines(snapshot: TaskSnapshot): string[] {
  const u = snapshot.usage;
  const cost = u.unpriced
    ? u.costUsd
      ? `unknown (${formatUsd(u.costUsd)} for the priced requests)`
      : 'unknown (no price for this model; set it in config "models")'
    : formatUsd(u.costUsd ?? 0);
  const lines = [
    `model          ${snapshot.model}`,
    `input tokens   ${n(u.prompt)}`,
    `  cached       ${n(u.cachedPrompt)}`,
    ...(u.cacheWrite ? [`  cache write  ${n(u.cacheWrite)}`] : []),
    `output tokens  ${n(u.completion)}`,
    `  reasoning    ${n(u.reasoning)}`,
    `cost           ${cost}`,
  ];
  const ctx = contextLabel(snapshot);
  if (ctx && snapshot.context)
    lines.push(`context        ${n(snapshot.context.used)} of ${n(snapshot.context.window)} tokens (${ctx.slice(4)})`);
  lines.push("", "Subagents' requests are included; list prices, before any discount.");
  return lines;
}

export function showCost(ctl: Controller): void {
  const task = ctl.currentTask();
  if (!task) return ctl.status("no task yet", "warn");
  ctl.setUi((ui) => ({ ...ui, dialog: { kind: "detail", title: "Cost", lines: costLines(task.snapshot), offset: 0 } }));
}
