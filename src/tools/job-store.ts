// Where a session keeps its background jobs. Apart from the job runner (background.ts), so code that
// only looks at jobs (the agent's Jobs tab, task_list) loads no runner when no job was started.
import type { BackgroundJobs } from "./background.js";
import type { ToolContext } from "./define.js";

/** The session store's key for its jobs; only background.ts's jobsOf puts a value there. */
export const JOBS_STORE_KEY = "background";

/** The session's jobs if any were started, without creating them. */
export function existingJobs(ctx: Pick<ToolContext, "session">): BackgroundJobs | undefined {
  return ctx.session?.store.get(JOBS_STORE_KEY) as BackgroundJobs | undefined;
}
