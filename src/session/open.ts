// Which session a run starts with: --session FILE, --resume [ID], --continue, or a new one.
import { resolve } from "node:path";
import { UsageError, type Flags } from "../config/flags.js";
import type { Settings } from "../config/schema.js";
import { lastSessionOf, resolveSessionRef, ResumeError } from "./resume.js";

/** `file`: the session to open (undefined: a new one); `pick`: let the user choose (bare --resume). */
export async function sessionToOpen(
  settings: Settings,
  flags: Flags,
  cwd: string,
): Promise<{ file?: string; pick: boolean }> {
  const session = typeof flags.values.session === "string" ? flags.values.session : undefined;
  const resume = typeof flags.values.resume === "string" ? flags.values.resume : undefined;
  const cont = flags.values.continue === true;
  if ([session !== undefined, resume !== undefined, cont].filter(Boolean).length > 1)
    throw new UsageError("use one of --session, --resume and --continue");
  if (session !== undefined) return { file: resolve(cwd, session), pick: false };
  try {
    if (cont) {
      const file = await lastSessionOf(settings.home, settings.sessionDir, settings.workspace);
      if (!file) throw new UsageError(`no earlier session in ${settings.workspace} to continue`);
      return { file, pick: false };
    }
    if (resume === undefined) return { pick: false };
    if (resume === "") return { pick: true };
    return { file: await resolveSessionRef(settings.sessionDir, resume, cwd), pick: false };
  } catch (error) {
    if (error instanceof ResumeError) throw new UsageError(error.message);
    throw error;
  }
}
