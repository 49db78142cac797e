// `nanohermes attach [ADDRESS]` (the UI on a daemon's sessions) and `/remote` (one remote task in
// the local UI): both find the daemon, read the token and check that it answers first.
import { UsageError, type Flags } from "../config/flags.js";
import type { Settings } from "../config/schema.js";
import { randomId } from "../protocol/ids.js";
import { DaemonClient, DaemonError, defaultSocketPath, describeAddress, parseAddress, readToken, SESSION_ID } from "./client.js";
import type { RemoteTasks } from "./remote-tasks.js";

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

/** `/remote ADDRESS [TOKEN-FILE] [SESSION]`: adds the session as a task; returns its local id. */
export async function addRemoteTask(remote: RemoteTasks, request: RemoteRequest & { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  if (request.session !== null && !SESSION_ID.test(request.session)) throw new Error(`invalid session id "${request.session}": use 1 to 64 of A-Z a-z 0-9 _ -`);
  const client = await connect(request.address, request.tokenFile, request.env, request.cwd);
  const sessions = await client.sessions();
  const localId = `r${Date.now().toString(36)}${randomId(4)}`;
  const session = request.session ?? localId;
  const info = sessions.find((s) => s.id === session);
  remote.add(localId, client, session, info ?? {});
  return localId;
}

/** `nanohermes attach [ADDRESS]`: the UI with every task a session of the daemon. */
export async function runAttach(settings: Settings, flags: Flags, args: string[], io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream; env: NodeJS.ProcessEnv }): Promise<number> {
  if (args.length > 1) throw new UsageError("usage: nanohermes attach [unix:/path/to.sock | http://HOST:PORT] [--daemon-token-file FILE]");
  if (!io.stdin.isTTY || !io.stdout.isTTY) throw new UsageError("attach needs a terminal");
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
  (await import("node:v8")).setFlagsFromString("--liftoff-only");
  const { runUi } = await import("../ui/run.js");
  return runUi({ settings, stdin: io.stdin, stdout: io.stdout, env: io.env, attach: { client, sessions } });
}
