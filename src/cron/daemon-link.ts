// The local daemon as `nanohermes cron` and the cron tool reach it: one request over its socket
// (~/.nanohermes/daemon.sock), to start a run now or to have a changed job planned at once.
import { request } from "node:http";
import { defaultSocketPath } from "../config/paths.js";

export interface DaemonAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** One request to the local daemon; null when no daemon listens there. */
export function askDaemon(home: string, method: string, path: string): Promise<DaemonAnswer | null> {
  return new Promise((resolve) => {
    const req = request({ socketPath: defaultSocketPath(home), path, method }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // an empty answer
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on("error", () => resolve(null));
    req.end();
  });
}

/** What a team daemon said about a change it shared: why the team refused it, or why it could not ask. */
export interface WakeAnswer {
  refused: string | null;
  teamError: string | null;
}

/**
 * A running daemon plans a changed job now rather than at its next safety tick; a team daemon
 * first shares the change with the team (cron/team-jobs.ts). No daemon, nothing to do. `refused`
 * says why the team refused the change to `name`.
 */
export async function wakeDaemon(home: string, name: string | null = null): Promise<WakeAnswer> {
  const answer = await askDaemon(home, "POST", "/v1/cron/wake");
  const team = answer?.body.team as { lost?: { name: string; reason: string }[]; error?: string } | undefined;
  if (!team) return { refused: null, teamError: null };
  const lost = name === null ? undefined : team.lost?.find((l) => l.name === name);
  return {
    refused: lost ? `${lost.reason}; the team's job stands (cron list shows it)` : null,
    teamError: team.error ?? null,
  };
}

/** Why `cron run` cannot work without a daemon, and how to start one. */
export const noDaemonMessage = (home: string) =>
  `no daemon is running (socket ${defaultSocketPath(home)}); start one with nanohermes --daemon, which runs cron jobs`;

/** Asks the daemon to run job `name` now: the run's id, or why not (one line). */
export async function runOnDaemon(home: string, name: string): Promise<{ run: number } | { error: string }> {
  const answer = await askDaemon(home, "POST", `/v1/cron/jobs/${encodeURIComponent(name)}/run`);
  if (!answer) return { error: noDaemonMessage(home) };
  if (answer.status !== 202) return { error: String(answer.body.error ?? `the daemon answered ${answer.status}`) };
  return { run: Number(answer.body.run) };
}
