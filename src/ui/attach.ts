// `nanohermes attach [ADDRESS]`: the UI with every task a session of a daemon. The connection is
// remote/attach.ts's; this front end only checks it answers, then runs the UI on it.
import { UsageError, type Flags } from "../config/flags.js";
import type { Settings } from "../config/schema.js";
import { DaemonError, describeAddress, parseAddress, type DaemonClient } from "../remote/client.js";
import { connect } from "../remote/attach.js";
import { defaultSocketPath } from "../remote/wire.js";

/** `nanohermes attach [ADDRESS]`: the UI with every task a session of the daemon. */
export async function runAttach(
  settings: Settings,
  flags: Flags,
  args: string[],
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream; env: NodeJS.ProcessEnv },
): Promise<number> {
  if (args.length > 1)
    throw new UsageError("usage: nanohermes attach [unix:/path/to.sock | http://HOST:PORT] [--daemon-token-file FILE]");
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
    const hint =
      error instanceof DaemonError && error.status === 401
        ? " (pass --daemon-token-file FILE or set NANOHERMES_DAEMON_TOKEN)"
        : "";
    io.stderr.write(`nanohermes: cannot attach to ${where}: ${(error as Error).message}${hint}\n`);
    return 1;
  }
  // Checked after the daemon answered: whether it is there is the more useful thing to know.
  if (!io.stdin.isTTY || !io.stdout.isTTY)
    throw new UsageError(
      "attach needs a terminal (the daemon answers: use its HTTP API from scripts, see docs/daemon.md)",
    );
  const { runUi } = await import("./run.js");
  return runUi({ settings, stdin: io.stdin, stdout: io.stdout, env: io.env, attach: { client, sessions } });
}
