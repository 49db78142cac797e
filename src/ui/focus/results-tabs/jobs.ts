import type { ResultsTabSpec } from "./tab.js";
import { paneAction } from "./tab.js";

/** The Jobs tab: ↑↓ pick a background command (its output shows under the list), x stops it. */
export const jobsTab: ResultsTabSpec = {
  keys(ctl, key) {
    if (paneAction(ctl, key) !== "agentStop") return false;
    const task = ctl.currentTask();
    const jobs = task ? (ctl.state.transcripts[task.id]?.jobs ?? []) : [];
    const job = jobs[Math.min(ctl.ui.resultsIndex, Math.max(0, jobs.length - 1))];
    if (!task || !job) return true;
    if (job.state !== "running") {
      ctl.status(`${job.id} is not running (${job.state})`);
      return true;
    }
    ctl.send({ type: "job.stop", taskId: task.id, jobId: job.id });
    ctl.status(`stopping ${job.id}: ${job.command}`, "warn");
    return true;
  },
};
