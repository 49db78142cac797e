// scripts/deploy-debian.sh, run for real in dry-run mode: every file it would write on a VPS goes
// under a temporary --root, where the unit, the folders' modes, the token and the env file are read.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { collect, tempDir, testEnv, waitForOutput, type CliResult } from "../helpers/cli.js";

const REPO = resolve(import.meta.dirname, "../..");
const SCRIPT = join(REPO, "scripts/deploy-debian.sh");
const PREFIX = "/opt/nh-test";
const UNIT_PATH = "etc/systemd/system/nanohermes.service";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function root(): string {
  const dir = tempDir("nh-deploy-");
  made.push(dir);
  return dir;
}

function deploy(args: string[], env: Record<string, string | undefined> = {}, timeoutMs = 20_000): Promise<CliResult> {
  const child = spawn("bash", [SCRIPT, ...args], {
    cwd: REPO,
    env: { ...process.env, ...env } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return collect(child, timeoutMs);
}

const dryRun = (dir: string, ...extra: string[]) =>
  deploy(["--dry-run", "--skip-install", "--root", dir, "--prefix", PREFIX, "--port", "9999", ...extra]);

const mode = (path: string) => statSync(path).mode & 0o777;

type Unit = Map<string, Array<[string, string]>>;

/** A systemd unit as sections of key/value pairs, in file order (comments and blank lines dropped). */
function parseUnit(text: string): Unit {
  const unit: Unit = new Map();
  let section: Array<[string, string]> | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[([A-Za-z]+)\]$/.exec(line);
    if (header) {
      expect(unit.has(header[1]!), `section [${header[1]}] appears twice`).toBe(false);
      section = [];
      unit.set(header[1]!, section);
      continue;
    }
    const eq = line.indexOf("=");
    expect(eq > 0 && section !== undefined, `not a key=value line inside a section: ${line}`).toBe(true);
    section!.push([line.slice(0, eq), line.slice(eq + 1)]);
  }
  return unit;
}

function value(unit: Unit, section: string, key: string): string | undefined {
  return unit.get(section)?.find(([k]) => k === key)?.[1];
}

// Keys systemd accepts more than once (their values add up); any other key repeated is a mistake
// (the later one silently wins).
const REPEATABLE = new Set([
  "After",
  "Before",
  "Wants",
  "Requires",
  "Environment",
  "EnvironmentFile",
  "ReadWritePaths",
  "ReadOnlyPaths",
  "ExecStartPre",
  "ExecStartPost",
  "ExecStopPost",
]);

describe("deploy-debian.sh --dry-run", () => {
  it("writes a hardened unit that starts the daemon with the deployment's flags", async () => {
    const dir = root();
    const r = await dryRun(dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);

    const text = readFileSync(join(dir, UNIT_PATH), "utf8");
    // The unit names the real prefix, never the dry run's root.
    expect(text).not.toContain(dir);
    // The run prints the unit and where it wrote things.
    expect(r.stdout).toContain(text.trim());
    expect(r.stdout).toContain(join(dir, PREFIX, ".daemon_token"));

    const unit = parseUnit(text);
    expect([...unit.keys()]).toEqual(["Unit", "Service", "Install"]);
    for (const [name, pairs] of unit) {
      const seen = new Set<string>();
      for (const [key] of pairs) {
        if (seen.has(key)) expect(REPEATABLE.has(key), `[${name}] ${key} is set twice`).toBe(true);
        seen.add(key);
      }
    }

    expect(value(unit, "Unit", "After")).toBe("network-online.target");
    expect(value(unit, "Unit", "Wants")).toBe("network-online.target");
    expect(value(unit, "Install", "WantedBy")).toBe("multi-user.target");
    expect(value(unit, "Service", "Type")).toBe("simple");
    expect(value(unit, "Service", "Restart")).toBe("always");
    expect(value(unit, "Service", "RestartSec")).toBe("2");
    expect(value(unit, "Service", "NoNewPrivileges")).toBe("yes");
    expect(value(unit, "Service", "ProtectSystem")).toBe("strict");
    expect(value(unit, "Service", "PrivateTmp")).toBe("yes");
    expect(value(unit, "Service", "ProtectKernelTunables")).toBe("yes");
    expect(value(unit, "Service", "ProtectControlGroups")).toBe("yes");
    expect(value(unit, "Service", "UMask")).toBe("0077");
    expect(value(unit, "Service", "Environment")).toBe(`NANOHERMES_HOME=${PREFIX}/home`);
    expect(value(unit, "Service", "EnvironmentFile")).toBe(`-${PREFIX}/daemon.env`);

    // ProtectSystem=strict makes everything read-only but these: the workspace, the sessions and
    // the home folder (memory and logs).
    const writable = value(unit, "Service", "ReadWritePaths")!.split(" ");
    expect(writable).toEqual(expect.arrayContaining([`${PREFIX}/workspace`, `${PREFIX}/sessions`, `${PREFIX}/home`]));

    const exec = value(unit, "Service", "ExecStart")!.split(" ");
    expect(exec[0]).toBe(`${PREFIX}/bin/nanohermes`);
    const flag = (name: string) => exec[exec.indexOf(name) + 1];
    expect(exec).toContain("--daemon");
    expect(flag("--daemon-port")).toBe("9999");
    expect(flag("--daemon-host")).toBe("127.0.0.1");
    expect(flag("-C")).toBe(`${PREFIX}/workspace`);
    expect(flag("--session-dir")).toBe(`${PREFIX}/sessions`);
    expect(flag("--daemon-token-file")).toBe(`${PREFIX}/.daemon_token`);
    expect(flag("--daemon-socket")).toBe(`${PREFIX}/home/daemon.sock`);
    expect(flag("--sandbox")).toBe("workspace-write");
    // Unquoted, so every path must be absolute and whole.
    for (const word of exec) expect(word).not.toMatch(/["'\\%$]/);
  });

  it("creates private folders, a 48-hex-digit token (600) and a commented env file (600)", async () => {
    const dir = root();
    expect((await dryRun(dir)).code).toBe(0);
    const at = (p: string) => join(dir, PREFIX, p);

    expect(statSync(at("workspace")).isDirectory()).toBe(true);
    expect(mode(at("sessions"))).toBe(0o700);
    expect(mode(at("home"))).toBe(0o700);

    expect(readFileSync(at(".daemon_token"), "utf8")).toMatch(/^[0-9a-f]{48}\n$/);
    expect(mode(at(".daemon_token"))).toBe(0o600);

    const env = readFileSync(at("daemon.env"), "utf8");
    expect(mode(at("daemon.env"))).toBe(0o600);
    for (const key of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "NANOHERMES_MODEL"])
      expect(env).toMatch(new RegExp(`^#\\s*${key}=`, "m"));
    // Every line is a comment: nothing is set until the user sets it.
    for (const line of env.split("\n").filter(Boolean)) expect(line.startsWith("#")).toBe(true);

    // --skip-install skips the program.
    expect(existsSync(at("app"))).toBe(false);
  });

  it("a second run reuses the token and leaves an edited daemon.env alone, but rewrites the unit", async () => {
    const dir = root();
    expect((await dryRun(dir)).code).toBe(0);
    const token = readFileSync(join(dir, PREFIX, ".daemon_token"), "utf8");
    const envFile = join(dir, PREFIX, "daemon.env");
    writeFileSync(envFile, "OPENAI_API_KEY=sk-mine\nNANOHERMES_MODEL=my-model\n");

    const again = await deploy(["--dry-run", "--skip-install", "--root", dir, "--prefix", PREFIX, "--port", "9998"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/reused/);
    expect(readFileSync(join(dir, PREFIX, ".daemon_token"), "utf8")).toBe(token);
    expect(readFileSync(envFile, "utf8")).toBe("OPENAI_API_KEY=sk-mine\nNANOHERMES_MODEL=my-model\n");
    expect(readFileSync(join(dir, UNIT_PATH), "utf8")).toContain("--daemon-port 9998 ");
  });

  it("--database-url puts DATABASE_URL in daemon.env (600), replacing its line and keeping the rest; never in the unit", async () => {
    const dir = root();
    expect((await dryRun(dir)).code).toBe(0);
    const envFile = join(dir, PREFIX, "daemon.env");
    writeFileSync(envFile, "OPENAI_API_KEY=sk-mine\nDATABASE_URL=postgres://old@db/x\n");
    expect((await dryRun(dir, "--database-url", "postgres://nh:s3cret@db.internal:5432/team")).code).toBe(0);
    expect(readFileSync(envFile, "utf8")).toBe(
      "OPENAI_API_KEY=sk-mine\nDATABASE_URL=postgres://nh:s3cret@db.internal:5432/team\n",
    );
    expect(mode(envFile)).toBe(0o600);
    expect(readFileSync(join(dir, UNIT_PATH), "utf8")).not.toContain("s3cret");
    for (const [bad, why] of [
      ["mysql://x@y/z", /must start with postgres:\/\/ or postgresql:\/\//],
      ["postgres://a b@c/d", /must not contain spaces, quotes or backslashes/],
    ] as const) {
      const refused = await dryRun(root(), "--database-url", bad);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(why);
    }
  });

  it("falls back to /dev/urandom when openssl fails", async () => {
    const dir = root();
    const bin = join(dir, "fake-bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "openssl"), "#!/bin/sh\nexit 1\n");
    chmodSync(join(bin, "openssl"), 0o755);
    const r = await deploy(["--dry-run", "--skip-install", "--root", join(dir, "root"), "--prefix", PREFIX], {
      PATH: `${bin}:${process.env.PATH}`,
    });
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "root", PREFIX, ".daemon_token"), "utf8")).toMatch(/^[0-9a-f]{48}\n$/);
  });

  it("without --root, writes into a new temporary folder and says where", async () => {
    const r = await deploy(["--dry-run", "--skip-install", "--prefix", PREFIX]);
    expect(r.code).toBe(0);
    const where = /everything was written under (\S+)/.exec(r.stdout)?.[1];
    expect(where).toBeDefined();
    made.push(where!);
    expect(readFileSync(join(where!, UNIT_PATH), "utf8")).toContain("--daemon-port 8787 ");
  });
});

describe("deploy-debian.sh refuses bad input before writing anything", () => {
  it.each([
    [["--port", "70000"], /--port expects a number from 1 to 65535, got "70000"/],
    [["--port", "abc"], /--port expects a number from 1 to 65535, got "abc"/],
    [["--frobnicate"], /unknown option "--frobnicate"/],
    [["--prefix", "/opt/nano hermes"], /--prefix must not contain spaces.*"\/opt\/nano hermes"/],
    [["--prefix", "opt/nh"], /--prefix must be an absolute path/],
    [["--prefix"], /--prefix expects a value/],
  ])("%j is a usage error (exit 2)", async (args, message) => {
    const dir = root();
    const r = await deploy(["--dry-run", "--skip-install", "--root", dir, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("--help prints the options and exits 0", async () => {
    const r = await deploy(["--help"]);
    expect(r.code).toBe(0);
    for (const option of ["--prefix", "--port", "--dry-run", "--root", "--skip-install"])
      expect(r.stdout).toContain(option);
  });

  it("a real install needs root; --root and --skip-install are for dry runs only", async () => {
    const dir = root();
    const prefix = join(dir, "prefix");
    if (process.getuid?.() !== 0) {
      const r = await deploy(["--prefix", prefix, "--port", "9999"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/must run as root/);
      expect(existsSync(prefix)).toBe(false);
    } else {
      // As root a real install would go ahead, so only the refusals that come first are tried.
      for (const extra of [["--root", dir], ["--skip-install"]]) {
        const r = await deploy(["--prefix", prefix, "--port", "9999", ...extra]);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/is only for --dry-run/);
      }
      expect(existsSync(prefix)).toBe(false);
    }
  });

  it("names the node version when it is older than 20", async () => {
    const dir = root();
    const bin = join(dir, "fake-bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "node"), "#!/bin/sh\necho v18.19.0\n");
    chmodSync(join(bin, "node"), 0o755);
    const r = await deploy(["--dry-run", "--root", join(dir, "root"), "--prefix", PREFIX], {
      PATH: `${bin}:${process.env.PATH}`,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Node 20 or newer is required, found v18\.19\.0/);
    expect(existsSync(join(dir, "root", PREFIX))).toBe(false);
  });
});

describe("deploy-debian.sh --dry-run with the install", () => {
  // Copies node_modules (then prunes the dev dependencies): about 5 s here.
  it("installs a runnable program under the root, which starts as the unit starts it", {
    timeout: 60_000,
  }, async () => {
    const dir = root();
    const r = await deploy(["--dry-run", "--root", dir, "--prefix", PREFIX, "--port", "9999"], {}, 55_000);
    expect(r.code).toBe(0);
    const app = join(dir, PREFIX, "app");
    const wrapper = join(dir, PREFIX, "bin/nanohermes");
    expect(mode(wrapper)).toBe(0o755);

    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string };
    const version = spawnSync(wrapper, ["--version"], { encoding: "utf8" });
    expect({ status: version.status, stdout: version.stdout }).toEqual({ status: 0, stdout: `${pkg.version}\n` });

    // The native addons the bundle leaves outside stay; the dev tools go.
    expect(existsSync(join(app, "node_modules/better-sqlite3/package.json"))).toBe(true);
    expect(existsSync(join(app, "node_modules/sharp/package.json"))).toBe(true);
    expect(existsSync(join(app, "node_modules/vitest"))).toBe(false);
    // The sandbox helper --sandbox workspace-write needs, when this checkout has one.
    if (existsSync(join(REPO, "dist-native/nh-sandbox")))
      expect(mode(join(app, "dist-native/nh-sandbox")) & 0o111).not.toBe(0);
    // No staging leftovers.
    expect(readdirSync(join(dir, PREFIX)).filter((name) => name.startsWith(".app"))).toEqual([]);

    // The program starts the way the unit starts it (its ExecStart, NANOHERMES_HOME and token),
    // pointed at the dry run's copy and on a free port, and answers.
    const unitText = readFileSync(join(dir, UNIT_PATH), "utf8");
    const unit = parseUnit(unitText.replaceAll(PREFIX, join(dir, PREFIX)));
    const [command, ...args] = value(unit, "Service", "ExecStart")!.split(" ");
    args[args.indexOf("--daemon-port") + 1] = "0";
    const daemon = spawn(command!, args, {
      env: testEnv({
        NANOHERMES_HOME: value(unit, "Service", "Environment")!.replace(/^NANOHERMES_HOME=/, ""),
        OPENAI_API_KEY: "k",
      }) as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = collect(daemon, 30_000);
    try {
      let address = "";
      await waitForOutput(
        daemon,
        (all) => Boolean((address = /http:\/\/127\.0\.0\.1:\d+/.exec(all)?.[0] ?? "")),
        15_000,
      );
      const health = await fetch(`${address}/health`);
      expect(await health.json()).toMatchObject({ status: "ok", version: pkg.version });
      const noToken = await fetch(`${address}/`, { method: "POST", body: JSON.stringify({ prompt: "hi" }) });
      expect(noToken.status).toBe(401);
    } finally {
      daemon.kill("SIGTERM");
    }
    expect((await exited).code).toBe(0);

    // systemd's own check of the unit, with its paths pointed at the dry run's copy.
    if (spawnSync("systemd-analyze", ["--version"]).status === 0 && !dir.includes(" ")) {
      const copy = join(dir, "verify/nanohermes.service");
      mkdirSync(join(dir, "verify"));
      writeFileSync(copy, unitText.replaceAll(PREFIX, join(dir, PREFIX)));
      const verify = spawnSync("systemd-analyze", ["verify", copy], { encoding: "utf8" });
      expect(verify.stderr).toBe("");
      expect(verify.status).toBe(0);
    }
  });
});
