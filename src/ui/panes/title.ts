// The title bar: brand, model, mode, sandbox, policy, tokens, the approval inbox, scheduled runs, workspace.
import type { AppServices } from "../context/services.js";
import type { AppState } from "../state/store.js";
import { titleBar } from "../view/chrome.js";

export function titleLine(s: AppState, sv: AppServices, width: number): string {
  const { palette, workspace, sandbox } = sv;
  const tasks = s.tasks;
  const current = s.current;
  const task = current ? (tasks[current]?.snapshot ?? null) : null;
  let prompt = 0;
  let completion = 0;
  let pending = 0;
  for (const t of Object.values(tasks)) {
    prompt += t.snapshot.usage.prompt;
    completion += t.snapshot.usage.completion;
    pending += t.snapshot.pendingApprovals;
  }
  return titleBar(
    palette,
    task,
    { workspace, sandbox, totals: { prompt, completion }, pendingApprovals: pending, mcp: s.mcp, cron: s.ui.cron },
    width,
  );
}
