// `/remote` (one remote task in the local UI) and `nanohermes attach` (ui/attach.ts): both find the
// daemon, read the token and check that it answers first. Remote tasks are remembered per workspace.
import { randomId } from "../protocol/ids.js";
import { DaemonClient, parseAddress } from "./client.js";
import { readToken, SESSION_ID } from "./wire.js";
import type { RemoteTasks } from "./remote-tasks.js";
import { readRemotes, updateRemotes, type RemoteEntry } from "./remote-store.js";
import { resolve } from "node:path";

/** A client for the daemon at `address` that has answered /health (and a listing, so the token works). */
export async function connect(
  address: string,
  tokenFile: string | null,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<DaemonClient> {
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
  if (request.session !== null && !SESSION_ID.test(request.session))
    throw new Error(`invalid session id "${request.session}": use 1 to 64 of A-Z a-z 0-9 _ -`);
  const client = await connect(request.address, request.tokenFile, ctx.env, ctx.cwd);
  const sessions = await client.sessions();
  const localId = `r${Date.now().toString(36)}${randomId(4)}`;
  const session = request.session ?? localId;
  const info = sessions.find((s) => s.id === session);
  remote.add(localId, client, session, info ?? {});
  const tokenFile = request.tokenFile
    ? resolve(ctx.cwd, request.tokenFile.replace(/^~(?=\/)/, ctx.env.HOME ?? "~"))
    : null;
  const entry: RemoteEntry = {
    id: localId,
    address: request.address,
    tokenFile,
    session,
    title: info?.title ?? `${session} on ${request.address}`,
    workspace: ctx.workspace,
    updatedAt: new Date().toISOString(),
  };
  await updateRemotes(ctx.home, (entries) => [entry, ...entries.filter((e) => e.id !== localId)]);
  return localId;
}

/** The remote tasks remembered for this workspace, listed again (each connects when opened). */
export async function restoreRemoteTasks(remote: RemoteTasks, ctx: RemoteContext): Promise<number> {
  const entries = (await readRemotes(ctx.home)).filter((e) => e.workspace === ctx.workspace);
  for (const entry of [...entries].reverse()) {
    let client: DaemonClient;
    try {
      client = new DaemonClient(
        parseAddress(entry.address, ctx.cwd),
        await readToken(entry.tokenFile, ctx.env, ctx.cwd),
      );
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
    "removed" in change
      ? entries.filter((e) => e.id !== localId)
      : entries.map((e) => (e.id === localId ? { ...e, title: change.title, updatedAt: new Date().toISOString() } : e)),
  ).catch(() => {});
}
