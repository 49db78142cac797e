// `nanohermes --daemon`: the long-lived HTTP service. Reads its token, serves the sessions in the
// session folder, and on SIGTERM/SIGINT stops the turns, saves every session and removes its socket.
import { missingCredentials, setupHint } from "../config/credentials.js";
import { isIP } from "node:net";
import { dirname, join, resolve } from "node:path";
import { defaultSocketPath, readToken, tokenFilePath } from "../remote/wire.js";
import { loadExtensions, noExtensions, type Extensions } from "../agent/extensions.js";
import type { ModelClient } from "../agent/model-client.js";
import { intFlag, UsageError, type Flags } from "../config/flags.js";
import { startObservers, type Observers } from "../telemetry/observers.js";
import { log } from "../config/log.js";
import { virtualFsProblem } from "../config/paths.js";
import type { Settings } from "../config/schema.js";
import { DaemonSessions } from "./sessions.js";
import { startDaemonServer, type DaemonServer } from "./server.js";
import { startCron } from "./cron.js";
import { startSkillCurator } from "./skill-curator.js";
import type { TeamDaemon } from "./team-daemon.js";
import { setLockRole } from "../session/session-lock.js";

export interface DaemonIO {
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export const DEFAULT_DAEMON_PORT = 8787;

const isLoopback = (host: string) =>
  host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));

/**
 * The daemon's sessions live apart from the UI's (~/.nanohermes/sessions): otherwise it would serve
 * the UI's sessions as its own, and a local UI could resume a file the daemon is writing.
 */
export const defaultDaemonSessionDir = (home: string): string => join(home, "daemon-sessions");

export interface RunningDaemon {
  server: DaemonServer;
  sessions: DaemonSessions;
  /** Set with --database-url / DATABASE_URL: the team this daemon serves in. */
  team: TeamDaemon | null;
  /** Stops the turns, saves the sessions, closes the listeners. */
  stop(): Promise<void>;
}

/** Starts the daemon (without signal handling): what `--daemon` and the tests use. */
export async function startDaemon(
  settings: Settings,
  flags: Flags,
  io: DaemonIO,
  client?: ModelClient,
): Promise<RunningDaemon> {
  setLockRole("daemon");
  const port = intFlag(flags, "daemon-port", 0, 65_535) ?? DEFAULT_DAEMON_PORT;
  const host = typeof flags.values["daemon-host"] === "string" ? flags.values["daemon-host"] : "127.0.0.1";
  const tokenFile = flags.values["daemon-token-file"];
  const token = await readToken(typeof tokenFile === "string" ? tokenFile : null, io.env, io.cwd, (text) =>
    io.stderr.write(`${text}\n`),
  ).catch((error: Error) => {
    throw new UsageError(error.message);
  });
  if (token && token.length < 16)
    io.stderr.write("warning: the daemon token is shorter than 16 characters; make one with: openssl rand -hex 24\n");
  if (!token && !isLoopback(host))
    throw new UsageError(
      `--daemon-host ${host} is reachable from other machines: set a token first (--daemon-token-file FILE or NANOHERMES_DAEMON_TOKEN)`,
    );
  const socketFlag = flags.values["daemon-socket"];
  const socketPath =
    socketFlag === "off"
      ? null
      : typeof socketFlag === "string"
        ? resolve(io.cwd, socketFlag)
        : defaultSocketPath(settings.home);
  const sessionDirFlag = flags.values["session-dir"];
  const sessionFlag = flags.values.session;
  // The seed's unit passes `--session <dir>/default.json`: its folder is the session folder.
  const sessionDir =
    typeof sessionDirFlag === "string"
      ? resolve(io.cwd, sessionDirFlag)
      : typeof sessionFlag === "string"
        ? dirname(resolve(io.cwd, sessionFlag))
        : defaultDaemonSessionDir(settings.home);
  const sessionDirProblem = virtualFsProblem(sessionDir);
  if (sessionDirProblem) throw new UsageError(`--session-dir: ${sessionDirProblem}`);

  // MCP servers, skills, hooks and AGENTS.md load in the background; turns wait for them.
  let loaded: (ext: Extensions) => void = () => {};
  const extensions = new Promise<Extensions>((done) => (loaded = done));
  // Never served as a workspace file, whatever link leads there: the token and the daemon's own state.
  const privatePaths = [
    settings.home,
    sessionDir,
    ...(typeof tokenFile === "string" ? [tokenFilePath(tokenFile, io.env, io.cwd)] : []),
  ];
  // Observers (issue 32): OpenTelemetry and --telemetry-file, for every session's events.
  let observers: Observers;
  try {
    observers = await startObservers(settings, flags, io.env, "", (text) => io.stderr.write(`warning: ${text}\n`));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const sessions = new DaemonSessions({
    settings,
    sessionDir,
    extensions,
    privatePaths,
    telemetry: observers.telemetry,
    ...(client ? { client } : {}),
  });
  if (observers.file) sessions.bus.subscribe(observers.file.write);
  await sessions.init();
  const team = await openTeam(flags, io, sessions, sessionDir);
  loadExtensions(settings, { emit: (event) => sessions.bus.emit(event), env: io.env }).then(
    (ext) => {
      for (const problem of ext.problems) io.stderr.write(`warning: ${problem}\n`);
      loaded(ext);
    },
    (error: unknown) => {
      io.stderr.write(`warning: MCP, skills and hooks are off: ${(error as Error).message}\n`);
      loaded(noExtensions());
    },
  );
  const cron = await startCron({
    settings,
    sessionDir,
    sessions,
    extensions,
    report: (line) => io.stderr.write(`${line}\n`),
    ...(client ? { client } : {}),
    ...(team ? { claimShared: (job: string, instant: number) => team.store.claimInstant(job, instant) } : {}),
    ...(team?.store.cronJobs ? { sharedJobs: team.store.cronJobs } : {}),
  });
  const server = await startDaemonServer({
    sessions,
    ...(team ? { team } : {}),
    cron,
    port,
    host,
    token,
    socketPath,
    report: (line) => {
      io.stderr.write(`${line}\n`);
      log("info", `daemon: ${line}`);
    },
  });
  // Only a daemon that owns the socket and the port runs the schedule: a second one refused above never does.
  cron.start();
  // The agent's own skills are curated while nothing runs (first pass a dry run; `skills curate` by hand).
  const stopCurator = settings.skills.manage
    ? startSkillCurator({ settings, running: () => sessions.running, report: (line) => io.stderr.write(`${line}\n`) })
    : () => {};
  team?.start(Number(io.env.NANOHERMES_TEAM_CONCURRENCY) || 32);
  // One write: whoever reads the first line (a supervisor, a test) has the store's line too.
  io.stderr.write(
    `nanohermes daemon ${server.url} (${token ? "bearer token required" : "no token"}), ${socketPath ? `socket ${socketPath}, ` : ""}workspace ${settings.workspace}, sessions ${sessionDir} (${sessions.count} found)\n${
      team
        ? `store: ${team.store.describe}; turns from the shared queue (local copies in ${sessionDir})`
        : `store: embedded (session files in ${sessionDir}, SQLite ledgers in ${settings.home})`
    }\n`,
  );
  let stopping: Promise<void> | null = null;
  return {
    server,
    sessions,
    team,
    stop: () =>
      (stopping ??= (async () => {
        // Running turns stop and their requests are answered ("interrupted") before the connections close.
        server.stopAccepting();
        stopCurator();
        await cron.stop();
        // Turns taken from the team queue end (interrupted) and record that before the database goes.
        await team?.close();
        await sessions.shutdown();
        await server.close();
        await extensions.then((ext) => ext.close()).catch(() => {});
        await observers.close();
      })()),
  };
}

/** The team store when a database URL is given (flag first, then DATABASE_URL); null for the embedded daemon. */
async function openTeam(
  flags: Flags,
  io: DaemonIO,
  sessions: DaemonSessions,
  sessionDir: string,
): Promise<TeamDaemon | null> {
  const flag = flags.values["database-url"];
  const url = typeof flag === "string" ? flag : io.env.DATABASE_URL || null;
  if (!url) return null;
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new UsageError("--database-url / DATABASE_URL must be a postgres://USER@HOST:PORT/DB URL");
  // The driver and the team code load here only: an embedded daemon never imports them.
  const [{ openTeamStore }, { TeamDaemon }] = await Promise.all([import("./team/open.js"), import("./team-daemon.js")]);
  const leaseMs = Number(io.env.NANOHERMES_TEAM_LEASE_MS) || undefined;
  const store = await openTeamStore({
    databaseUrl: url,
    sessionDir,
    ...(leaseMs ? { leaseMs, pollMs: Math.min(1_000, leaseMs / 4) } : {}),
  }).catch((error: Error) => {
    throw new UsageError(error.message);
  });
  return new TeamDaemon(store, sessions, sessionDir);
}

/** `nanohermes --daemon`: runs until SIGTERM or SIGINT. */
export async function runDaemon(settings: Settings, flags: Flags, io: DaemonIO): Promise<number> {
  if (missingCredentials(settings)) throw new UsageError(setupHint(settings).join("\n"));
  // Started from a shell (`nanohermes --daemon &`), it outlives the SSH connection: a hang-up is
  // not a reason to stop, and a terminal that went away must not crash it on the next line.
  process.on("SIGHUP", () => log("info", "daemon: SIGHUP ignored (the terminal went away; the daemon goes on)"));
  process.stderr.on("error", () => {});
  process.stdout.on("error", () => {});
  let daemon: RunningDaemon;
  try {
    daemon = await startDaemon(settings, flags, io);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EACCES") throw new UsageError(`cannot listen: ${(error as Error).message}`);
    if (error instanceof Error && /another daemon|longer than 107 bytes/.test(error.message))
      throw new UsageError(error.message);
    throw error;
  }
  return new Promise<number>((resolveExit) => {
    const onSignal = (signal: NodeJS.Signals) => {
      io.stderr.write(`${signal}: stopping the turns and saving the sessions\n`);
      // A second signal does not wait for the saves.
      process.once(signal, () => resolveExit(1));
      void daemon.stop().then(
        () => resolveExit(0),
        (error: unknown) => {
          log("error", "daemon shutdown", error);
          resolveExit(1);
        },
      );
    };
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
  });
}
