// A private PostgreSQL cluster for a test file: initdb into a temp folder, started on a free
// loopback port, stopped and removed at the end. initdb refuses to run as root, so as root the
// cluster belongs to `nobody` (its folder lies in the system temp folder, not in the checkout,
// which may sit under a folder only root may enter). Missing binaries fail the test with a
// message naming the package: tests that need PostgreSQL are never skipped silently. initdb and
// pg_ctl run as child processes the test process waits on without blocking: its timers and the
// mock servers of the same file keep running while a cluster starts or stops.
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";

export interface PgCluster {
  /** postgres://… of the cluster's `postgres` database. */
  url: string;
  port: number;
  /** A new, empty database on the cluster; returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server at once (as a crash would); `start` brings it back on the same port. */
  kill(): Promise<void>;
  /** Starts the server (3 tries of 20 s at most each); the error of the last carries the server log's end. */
  start(): Promise<void>;
  /** Stops the server and removes its folder; again is a no-op. */
  stop(): Promise<void>;
}

export interface PgClusterOptions {
  /** Told when a PostgreSQL program (`initdb`, `pg_ctl start`, ...) is started and when it ended. */
  onRun?: (step: string, phase: "begun" | "ended") => void;
}

function findBin(name: string): string {
  const fromPath = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
  if (fromPath) return fromPath;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const path = join(root, version, "bin", name);
    if (existsSync(path)) return path;
  }
  throw new Error(
    `PostgreSQL's ${name} is not installed: these tests need the PostgreSQL server binaries (Debian: apt-get install postgresql-15; .ci/run installs it)`,
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startPgCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  const initdb = findBin("initdb");
  const pgCtl = findBin("pg_ctl");
  const root = mkdtempSync(join(tmpdir(), "nh-pg-"));
  const data = join(root, "data");
  const asRoot = process.getuid?.() === 0;
  // As root, everything runs as nobody, who must own the folder.
  const command = (bin: string, args: string[]): [string, string[]] =>
    asRoot ? ["setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", bin, ...args]] : [bin, args];
  const run = async (step: string, bin: string, args: string[]) => {
    const [cmd, argv] = command(bin, args);
    options.onRun?.(step, "begun");
    try {
      await new Promise<void>((resolve, reject) => {
        execFile(cmd, argv, { cwd: root }, (error) => (error ? reject(error) : resolve()));
      });
    } finally {
      options.onRun?.(step, "ended");
    }
  };
  const immediateStop = ["-D", data, "-m", "immediate", "-w", "stop"];
  let stopped = false;
  // A test file that ends without its afterAll (a hook timed out, a crash) leaves no server
  // behind. At exit nothing else runs any more, so this last stop may block.
  const stopAtExit = () => {
    stopped = true;
    try {
      execFileSync(...command(pgCtl, immediateStop), { stdio: "pipe", cwd: root });
    } catch {
      // not running
    }
    rmSync(root, { recursive: true, force: true });
  };
  process.once("exit", stopAtExit);
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off("exit", stopAtExit);
    try {
      await run("pg_ctl stop", pgCtl, immediateStop);
    } catch {
      // not running
    }
    rmSync(root, { recursive: true, force: true });
  };
  let port = 0;
  // A restart right after `kill` can meet the old server's last processes still exiting: pg_ctl
  // then waits in vain. It waits 20 s at most; a start that did not come up is stopped and tried
  // again, and the error of the last try carries the end of the server's log.
  const start = async () => {
    // fsync off is safe for a killed server (the OS keeps what was written); synchronous_commit
    // off is not: `kill` would lose committed rows.
    const server = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
    const log = join(root, "log");
    for (let attempt = 1; ; attempt++) {
      try {
        await run("pg_ctl start", pgCtl, ["-D", data, "-o", server, "-l", log, "-w", "-t", "20", "start"]);
        return;
      } catch (error) {
        try {
          await run("pg_ctl stop", pgCtl, immediateStop);
        } catch {
          // it was not running
        }
        if (attempt === 3) {
          const end = existsSync(log) ? readFileSync(log, "utf8").slice(-2000) : "";
          throw new Error(`PostgreSQL did not start (3 tries): ${(error as Error).message}\n${end}`);
        }
      }
    }
  };
  try {
    if (asRoot) chownSync(root, 65534, 65534);
    await run("initdb", initdb, ["-D", data, "-U", "nh", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
    port = await freePort();
    await start();
  } catch (error) {
    await stop();
    throw error;
  }
  const url = `postgres://nh@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    async createDatabase(name) {
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return `postgres://nh@127.0.0.1:${port}/${name}`;
    },
    kill: () => run("pg_ctl stop", pgCtl, immediateStop),
    start,
    stop,
  };
}

export interface FileCluster {
  /** The cluster, started before the file's first test: kill() and start() it to take it away. */
  readonly cluster: PgCluster;
  /** A database of its own for one test, named `<prefix><n>`. */
  database(): Promise<string>;
}

/**
 * One cluster for a test file: registers the beforeAll that starts it and the afterAll that runs
 * `beforeStop` (closing what the tests opened on it) and stops it.
 */
export function pgClusterPerFile(prefix: string, beforeStop: () => Promise<void> = async () => {}): FileCluster {
  let cluster: PgCluster | undefined;
  let databases = 0;
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 60_000);
  afterAll(async () => {
    await beforeStop();
    await cluster?.stop();
  });
  const started = () => {
    if (!cluster) throw new Error("the PostgreSQL cluster is not started (use it inside a test)");
    return cluster;
  };
  return {
    get cluster() {
      return started();
    },
    database: () => started().createDatabase(`${prefix}${++databases}`),
  };
}
