// `nanohermes attach [ADDRESS]` (the UI on a daemon's sessions) and `/remote` (one remote task in
// the local UI): both find the daemon, read the token and check that it answers first.
import { UsageError, type Flags } from "../config/flags.js";
import type { Settings } from "../config/schema.js";
import { randomId } from "../protocol/ids.js";
import { DaemonClient, DaemonError, defaultSocketPath, describeAddress, parseAddress, readToken, SESSION_ID } from "./client.js";
import type { RemoteTasks } from "./remote-tasks.js";
import { readRemotes, updateRemotes, type RemoteEntry } from "./remote-store.js";
import { resolve } from "node:path";

/** A client for the daemon at `address` that has answered /health (and a listing, so the token works). */
async function connect(address: string, tokenFile: string | null, env: NodeJS.ProcessEnv, cwd: string): Promise<DaemonClient> {
  const client = new DaemonClient(parseAddress(address, cwd), await readToken(tokenFile, env, cwd));
  await client.health();
  return client;
}

export interface RemoteRequest {
  address: string;
  tokenFile: string | null;
  session: string | null;
}

export interface RemoteContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where the list of remote tasks is kept, and the workspace it belongs to. */
  home: string;
  workspace: string;
}

/**
 * `/remote ADDRESS [TOKEN-FILE] [SESSION]`: adds the session as a task once the daemon answers,
 * and remembers it for the next start; returns its local id.
 */
export async function addRemoteTask(remote: RemoteTasks, request: RemoteRequest, ctx: RemoteContext): Promise<string> {
  if (request.session !== null && !SESSION_ID.test(request.session)) throw new Error(`invalid session id "${request.session}": use 1 to 64 of A-Z a-z 0-9 _ -`);
  const client = await connect(request.address, request.tokenFile, ctx.env, ctx.cwd);
  const sessions = await client.sessions();
  const localId = `r${Date.now().toString(36)}${randomId(4)}`;
  const session = request.session ?? localId;
  const info = sessions.find((s) => s.id === session);
  remote.add(localId, client, session, info ?? {});
  const tokenFile = request.tokenFile ? resolve(ctx.cwd, request.tokenFile.replace(/^~(?=\/)/, ctx.env.HOME ?? "~")) : null;
  const entry: RemoteEntry = { id: localId, address: request.address, tokenFile, session, title: info?.title ?? `${session} on ${request.address}`, workspace: ctx.workspace, updatedAt: new Date().toISOString() };
  await updateRemotes(ctx.home, (entries) => [entry, ...entries.filter((e) => e.id !== localId)]);
  return localId;
}

/** The remote tasks remembered for this workspace, listed again (each connects when opened). */
export async function restoreRemoteTasks(remote: RemoteTasks, ctx: RemoteContext): Promise<number> {
  const entries = (await readRemotes(ctx.home)).filter((e) => e.workspace === ctx.workspace);
  for (const entry of [...entries].reverse()) {
    let client: DaemonClient;
    try {
      client = new DaemonClient(parseAddress(entry.address, ctx.cwd), await readToken(entry.tokenFile, ctx.env, ctx.cwd));
    } catch {
      // An unreadable token file: listed all the same; opening it says what is wrong.
      client = new DaemonClient(parseAddress(entry.address, ctx.cwd), null);
    }
    remote.add(entry.id, client, entry.session, { title: entry.title, updatedAt: entry.updatedAt });
  }
  return entries.length;
}

/** Keeps remotes.json in step with the remote tasks' titles and deletions. */
export function rememberChange(home: string, localId: string, change: { title: string } | { removed: true }): void {
  void updateRemotes(home, (entries) =>
    "removed" in change ? entries.filter((e) => e.id !== localId) : entries.map((e) => (e.id === localId ? { ...e, title: change.title, updatedAt: new Date().toISOString() } : e)),
  ).catch(() => {});
}

/** `nanohermes attach [ADDRESS]`: the UI with every task a session of the daemon. */
export async function runAttach(settings: Settings, flags: Flags, args: string[], io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream; env: NodeJS.ProcessEnv }): Promise<number> {
  if (args.length > 1) throw new UsageError("usage: nanohermes attach [unix:/path/to.sock | http://HOST:PORT] [--daemon-token-file FILE]");
  const address = args[0] ?? `unix:${defaultSocketPath(settings.home)}`;
  const tokenFile = typeof flags.values["daemon-token-file"] === "string" ? flags.values["daemon-token-file"] : null;
  let client: DaemonClient;
  let sessions;
  try {
    client = await connect(address, tokenFile, io.env, process.cwd());
    sessions = await client.sessions();
  } catch (error) {
    const where = (() => {
      try {
        return describeAddress(parseAddress(address, process.cwd()));
      } catch {
        return address;
      }
    })();
    const hint = error instanceof DaemonError && error.status === 401 ? " (pass --daemon-token-file FILE or set NANOHERMES_DAEMON_TOKEN)" : "";
    io.stderr.write(`nanohermes: cannot attach to ${where}: ${(error as Error).message}${hint}\n`);
    return 1;
  }
  // Checked after the daemon answered: whether it is there is the more useful thing to know.
  if (!io.stdin.isTTY || !io.stdout.isTTY) throw new UsageError("attach needs a terminal (the daemon answers: use its HTTP API from scripts, see docs/daemon.md)");
  (await import("node:v8")).setFlagsFromString("--liftoff-only");
  const { runUi } = await import("../ui/run.js");
  return runUi({ settings, stdin: io.stdin, stdout: io.stdout, env: io.env, attach: { client, sessions } });
}
