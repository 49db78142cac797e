// `nanohermes sessions [WORDS]`: the sessions of this workspace, newest first, or the ones that
// mention WORDS (full-text search); and `nanohermes export --format sharegpt`: trajectories.
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { UsageError, type Flags } from "../config/flags.js";
import type { Settings } from "../config/schema.js";
import { resolveSessionRef, ResumeError } from "../session/resume.js";
import { SessionIndex } from "../session/search.js";
import { exportSessions } from "../session/sharegpt.js";
import { readTaskIndex } from "../session/task-index.js";
import type { Writer } from "./printer.js";
import { EXIT_OK } from "./run.js";

const day = (iso: string) => iso.slice(0, 16).replace("T", " ");

export async function runSessions(
  settings: Settings,
  words: string[],
  flags: Flags,
  io: { stdout: Writer; stderr: Writer },
): Promise<number> {
  const everywhere = flags.values.all === true;
  const json = flags.values.json === true;
  if (words.length === 0) {
    const entries = (await readTaskIndex(settings.home)).filter(
      (e) => everywhere || e.workspace === settings.workspace,
    );
    if (json)
      io.stdout.write(
        `${JSON.stringify(
          entries.map((e) => ({
            session: e.sessionFile.replace(/^.*\//, "").replace(/\.json$/, ""),
            file: e.sessionFile,
            title: e.title,
            workspace: e.workspace,
            updatedAt: e.updatedAt,
          })),
          null,
          2,
        )}\n`,
      );
    else if (entries.length === 0)
      io.stdout.write(`no sessions${everywhere ? "" : ` in ${settings.workspace} (--all lists every workspace)`}\n`);
    else
      for (const e of entries)
        io.stdout.write(
          `${e.sessionFile.replace(/^.*\//, "").replace(/\.json$/, "")}  ${day(e.updatedAt)}  ${e.title}${everywhere ? `  (${e.workspace})` : ""}\n`,
        );
    return EXIT_OK;
  }
  const index = await SessionIndex.open(join(settings.home, "sessions.db"));
  try {
    await index.sync(settings.sessionDir);
    const hits = index.search(words.join(" "), { ...(everywhere ? {} : { workspace: settings.workspace }), limit: 20 });
    if (json) io.stdout.write(`${JSON.stringify(hits, null, 2)}\n`);
    else if (hits.length === 0)
      io.stdout.write(
        `nothing found for "${words.join(" ")}"${everywhere ? "" : " in this workspace (--all searches every workspace)"}\n`,
      );
    else
      for (const h of hits)
        io.stdout.write(
          `${h.sessionId}  ${day(h.updatedAt)}  ${h.title}${everywhere ? `  (${h.workspace})` : ""}\n    ${h.role}: ${h.snippet}\n`,
        );
    return EXIT_OK;
  } finally {
    index.close();
  }
}

/** `nanohermes export --format sharegpt [--session ID | --all] [--output FILE] [--split turn|session]` */
export async function runExport(
  settings: Settings,
  flags: Flags,
  cwd: string,
  io: { stdout: NodeJS.WritableStream; stderr: Writer },
): Promise<number> {
  const format = typeof flags.values.format === "string" ? flags.values.format : "sharegpt";
  if (format !== "sharegpt") throw new UsageError(`export --format: only sharegpt is supported, not "${format}"`);
  const split = typeof flags.values.split === "string" ? flags.values.split : "turn";
  if (split !== "turn" && split !== "session")
    throw new UsageError(`export --split expects turn or session, got "${split}"`);
  const ref = typeof flags.values.session === "string" ? flags.values.session : undefined;
  let files: string[];
  if (flags.values.all === true) {
    if (ref) throw new UsageError("export: use --session ID or --all, not both");
    const names = await fs.readdir(settings.sessionDir).catch(() => [] as string[]);
    files = names
      .filter((n) => n.endsWith(".json") && !n.startsWith("."))
      .sort()
      .map((n) => join(settings.sessionDir, n));
  } else if (ref) {
    try {
      files = [await resolveSessionRef(settings.sessionDir, ref, cwd)];
    } catch (error) {
      if (error instanceof ResumeError) throw new UsageError(error.message);
      throw error;
    }
  } else throw new UsageError("export needs --session ID (an id, part of one, or a file) or --all");
  const output = typeof flags.values.output === "string" ? flags.values.output : undefined;
  const summary = await exportSessions(files, output ?? io.stdout, { split });
  io.stderr.write(
    `exported ${summary.records} record${summary.records === 1 ? "" : "s"} (${summary.completed} completed, ${summary.failed} not) from ${files.length - summary.skipped.length} session${files.length - summary.skipped.length === 1 ? "" : "s"}${output ? ` to ${output}` : ""}\n`,
  );
  for (const skipped of summary.skipped) io.stderr.write(`skipped (unreadable): ${skipped}\n`);
  return EXIT_OK;
}
