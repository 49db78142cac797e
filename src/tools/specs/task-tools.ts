// The specs of task_output, task_list and task_kill (the implementations are src/tools/task-tools.ts).
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";

/** Output returned per task_output call; the registry's 20 KB cap leaves room for the notes. */
export const TASK_OUTPUT_BYTES = 16 * 1024;
/** Output kept per job (stdout and stderr interleaved); older output is dropped. */
export const JOB_BUFFER_BYTES = 1024 * 1024;

const idParam = z.string().check(z.minLength(1), z.describe('The job id run_command returned, e.g. "job-1".'));

export const taskOutputSpec = defineSpec({
  name: "task_output",
  kind: "read",
  description:
    "Read a background job's output (stdout and stderr interleaved). Without `since`, returns what is new since the " +
    `last task_output call for that job; with \`since\`, from that byte offset. At most ${TASK_OUTPUT_BYTES / 1024} KB per call; ` +
    "the result gives the next offset, whether the job still runs and its exit code once it ended. " +
    `Only the last ${JOB_BUFFER_BYTES / (1024 * 1024)} MB of a job's output is kept.`,
  params: z.object({
    id: idParam,
    since: z
      .optional(z.int().check(z.minimum(0)))
      .check(
        z.describe("Byte offset to read from, as given by an earlier result (default: where the last read stopped)."),
      ),
  }),
  summarize: (a) => (a.since !== undefined ? `${a.id} since ${a.since}` : a.id),
});

export const taskListSpec = defineSpec({
  name: "task_list",
  kind: "read",
  description:
    "List this session's background jobs: id, state (running, exited, killed, failed), exit code, runtime, command and last line of output.",
  params: z.object({}),
  summarize: () => "background jobs",
});

export const taskKillSpec = defineSpec({
  name: "task_kill",
  kind: "read",
  description:
    "Stop a background job: its whole process group gets SIGTERM, then SIGKILL after 2 s if anything is still alive.",
  params: z.object({ id: idParam }),
  summarize: (a) => a.id,
});
