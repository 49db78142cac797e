// The title bar: brand, model, mode, sandbox, policy, tokens, the approval inbox, scheduled runs, workspace.
import type { AppServices } from "../context/services.js";
import type { AppState } from "../state/store.js";
import { selector } from "../state/select.js";
import { titleBar } from "../view/chrome.js";

/** What the title bar reads: every task (tokens and approvals add up), the current one, MCP, cron. */
export interface TitleModel {
  tasks: AppState["tasks"];
  current: string | null;
  mcp: AppState["mcp"];
  cron: AppState["ui"]["cron"];
  /** The sandbox label is a service (AppServices.sandbox): a probe sets it, then redraws. */
  redraws: number;
}

export const selectTitle = selector(
  (s: AppState): TitleModel => ({
    tasks: s.tasks,
    current: s.current,
    mcp: s.mcp,
    cron: s.ui.cron,
    redraws: s.redraws,
  }),
);

export function titleLine(m: TitleModel, sv: AppServices, width: number): string {
  const { palette, workspace, sandbox } = sv;
  const { tasks, current } = m;
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
    { workspace, sandbox, totals: { prompt, completion }, pendingApprovals: pending, mcp: m.mcp, cron: m.cron },
    width,
  );
}
