// A job, a run and an inbox item as one line each: what `nanohermes cron` prints and the cron tool
// tells the model.
import { nextRunOf } from "./jobs.js";
import type { CronJob, CronRun, InboxItem } from "./store.js";

export const when = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString().replace(".000Z", "Z"));

export function jobLine(job: CronJob): string {
  const state = job.enabled ? `next ${when(nextRunOf(job))}` : `paused (${job.pausedReason ?? "paused"})`;
  return `${job.name}  ${job.schedule} [${job.tz}]  missed:${job.missed}  ${state}\n    ${job.workspace}: ${job.prompt.split("\n", 1)[0]}`;
}

export function runLine(run: CronRun): string {
  const detail = run.error ?? (run.response ? run.response.split("\n", 1)[0]!.slice(0, 80) : "");
  return `${run.id}  ${when(run.scheduledFor)}  ${run.status}${run.manual ? " (manual)" : ""}${run.session ? `  ${run.session}` : ""}${run.node ? `  on ${run.node}` : ""}${detail ? `  ${detail}` : ""}`;
}

export const inboxLine = (item: InboxItem) => `${item.seen ? " " : "*"} ${when(item.at)}  ${item.text}`;
