// The title bar: brand, model, mode, sandbox, policy, tokens, the approval inbox, workspace.
import { Text } from "ink";
import { useApp, useStore } from "../hooks/useStore.js";
import { titleBar } from "../view/chrome.js";

export function TitleBar({ width }: { width: number }) {
  const { palette, workspace, sandbox } = useApp();
  const tasks = useStore((s) => s.tasks);
  const current = useStore((s) => s.current);
  const task = current ? (tasks[current]?.snapshot ?? null) : null;
  let prompt = 0;
  let completion = 0;
  let pending = 0;
  for (const t of Object.values(tasks)) {
    prompt += t.snapshot.usage.prompt;
    completion += t.snapshot.usage.completion;
    pending += t.snapshot.pendingApprovals;
  }
  return <Text wrap="truncate-end">{titleBar(palette, task, { workspace, sandbox, totals: { prompt, completion }, pendingApprovals: pending }, width)}</Text>;
}
