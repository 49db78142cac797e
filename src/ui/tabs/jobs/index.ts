// The Jobs tab: this task's background commands, the selected one's output under the list.
import { truncateToWidth } from "../../render/wrap.js";
import { selector } from "../../state/select.js";
import type { AppState } from "../../state/store.js";
import type { TranscriptState } from "../../state/transcript.js";
import { listLines } from "../../view/panes.js";
import { defineTab, paneAction, taskOf, type TabLines } from "../tab.js";

interface JobsModel {
  jobs: TranscriptState["jobs"] | undefined;
  index: number;
}

const select = selector((s: AppState): JobsModel => ({ jobs: taskOf(s)?.jobs, index: s.ui.resultsIndex }));

const lines: TabLines<JobsModel> = (m, sv, inner, height, focused) => {
  const p = sv.palette;
  const jobs = m.jobs ?? [];
  if (jobs.length === 0) return { body: [p.dim("no background commands")], measure: { count: 0, hunks: 0 } };
  // The list on top (a third of the pane at most), the selected job's output under it.
  const listRows = Math.max(1, Math.min(jobs.length, Math.floor(height / 3)));
  const list = listLines(
    p,
    jobs.map((j) => `${j.id} ${j.state}${j.exitCode !== null ? ` ${j.exitCode}` : ""} ${j.command}`),
    m.index,
    focused,
    inner,
    listRows,
    "",
  );
  const job = jobs[Math.min(m.index, jobs.length - 1)]!;
  const room = Math.max(0, height - list.length - 2);
  const output = (job.tail ?? job.lastLine)
    .replace(/\n+$/, "")
    .split("\n")
    .slice(-room)
    .map((l) => truncateToWidth(l, inner));
  const hint = job.state === "running" ? "x stop · ↑↓ pick a job" : `${job.state} · ↑↓ pick a job`;
  const body = [
    ...list,
    p.border("─".repeat(Math.min(inner, 20))) + p.dim(` ${truncateToWidth(hint, inner - 21)}`),
    ...output,
  ];
  return { body, measure: { count: jobs.length, hunks: 0 } };
};

/** The Jobs tab: ↑↓ pick a background command (its output shows under the list), x stops it. */
export const jobsTab = defineTab({
  label: "Jobs",
  short: "Jobs",
  select,
  lines,
  keys(host, key) {
    if (paneAction(host, key) !== "agentStop") return false;
    const task = host.currentTask();
    const jobs = task ? (host.state.transcripts[task.id]?.jobs ?? []) : [];
    const job = jobs[Math.min(host.ui.resultsIndex, Math.max(0, jobs.length - 1))];
    if (!task || !job) return true;
    if (job.state !== "running") {
      host.status(`${job.id} is not running (${job.state})`);
      return true;
    }
    host.send({ type: "job.stop", taskId: task.id, jobId: job.id });
    host.status(`stopping ${job.id}: ${job.command}`, "warn");
    return true;
  },
});
