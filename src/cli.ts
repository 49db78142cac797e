// Entry point: parses arguments and picks the front end. Heavy modules load only when needed,
// so `--version` and `--help` start fast.
import { missingCredentials, setupHint } from "./config/credentials.js";
import { VERSION } from "./version.js";

const EXIT_USAGE = 2;

/** Piped input larger than this is refused: it would not fit a model's context, and reading it whole costs ~20x its size. */
const STDIN_CAP = 1024 * 1024;

/** Reads stdin up to STDIN_CAP bytes; null when there is more (the rest is never read). */
async function readStdin(): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > STDIN_CAP) {
      process.stdin.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const stdinTooLarge = `nanohermes: stdin is larger than ${STDIN_CAP / 1024 / 1024} MB; save it to a file and name the file in the prompt (the agent reads files in parts)\n`;

/** Whether stdin was given to us as data (a pipe or a file), not left open by a parent process. */
async function stdinIsData(): Promise<boolean> {
  const { fstatSync } = await import("node:fs");
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isFile();
  } catch {
    return false;
  }
}

const SANDBOX_RUN_HELP = `usage: nanohermes sandbox run [--mode MODE] [--network on|off] [--writable DIR]... [-C DIR] -- COMMAND...

Runs one command under the sandbox helper with the terminal inherited and exits with its code.

  --mode MODE       one of:
                      workspace-write  (default) write beneath the workspace (-C), the temp
                                       folder and --writable folders; read everywhere
                      read-only        write nothing anywhere (/dev/null and the terminal aside)
                      auto             workspace-write where Landlock works, else off (one line
                                       on stderr says so)
                      off              no Landlock; processes the command leaves are still reaped
  --network on|off  off (default): no TCP, no socket but Unix stream ones, no connect();
                    on also reaches loopback services and the daemon's port
  --writable DIR    another writable folder (repeatable; must exist)
  -C DIR            the workspace, where the command runs (default: the current folder)

An explicit mode that cannot be enforced here refuses to run (exit 126); see \`nanohermes sandbox status\`.`;

/** `nanohermes sandbox status` and `nanohermes sandbox run --mode M [--network on|off] [--writable DIR] [-C DIR] -- CMD...` */
async function sandboxCommand(args: string[]): Promise<number> {
  const { UsageError } = await import("./config/flags.js");
  const landlock = await import("./sandbox/landlock.js");
  const [sub, ...rest] = args;
  if (sub === "status") {
    process.stdout.write(`${landlock.sandboxStatusText()}\n`);
    return 0;
  }
  const dash = rest.indexOf("--");
  const opts = dash === -1 ? rest : rest.slice(0, dash);
  if (
    (sub === "run" && (opts.includes("--help") || opts.includes("-h"))) ||
    sub === "--help" ||
    sub === "-h" ||
    sub === "help"
  ) {
    process.stdout.write(
      `${sub === "run" ? "" : "usage: nanohermes sandbox status\n       nanohermes sandbox run --help\n\n"}${SANDBOX_RUN_HELP}\n`,
    );
    return 0;
  }
  if (sub !== "run")
    throw new UsageError(
      "usage: nanohermes sandbox status | nanohermes sandbox run [--mode workspace-write|read-only|auto|off] [--network on|off] [--writable DIR]... [-C DIR] -- COMMAND... (sandbox run --help explains)",
    );
  if (dash === -1 || dash === rest.length - 1)
    throw new UsageError("sandbox run: put the command after -- (sandbox run --help explains)");
  const command = rest.slice(dash + 1);
  let mode: "read-only" | "workspace-write" | "off" | "auto" = "workspace-write";
  let network = false;
  let workspace = process.cwd();
  const writable: string[] = [];
  for (let i = 0; i < opts.length; i++) {
    const opt = opts[i]!;
    const value = opts[i + 1];
    if (value === undefined) throw new UsageError(`sandbox run: ${opt} needs a value`);
    if (opt === "--mode") {
      if (value !== "read-only" && value !== "workspace-write" && value !== "off" && value !== "auto") {
        throw new UsageError(`sandbox run: --mode expects workspace-write, read-only, auto or off, got "${value}"`);
      }
      mode = value;
    } else if (opt === "--network") {
      if (value !== "on" && value !== "off")
        throw new UsageError(`sandbox run: --network expects on or off, got "${value}"`);
      network = value === "on";
    } else if (opt === "--writable") writable.push(value);
    else if (opt === "-C" || opt === "--cwd") workspace = (await import("node:path")).resolve(value);
    else throw new UsageError(`sandbox run: unknown option ${opt}`);
    i++;
  }
  if (mode === "auto") {
    const probe = landlock.probeLandlock();
    if (!probe.available)
      process.stderr.write(
        `nanohermes: sandbox auto: Landlock is unavailable (${probe.reason}); running unsandboxed\n`,
      );
    mode = probe.available ? "workspace-write" : "off";
  }
  return landlock.runSandboxCommand({ mode, network, workspace, writable, command });
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const { parseFlags, UsageError } = await import("./config/flags.js");
  // `policy check` has its own options; config deny rules apply (passed as --deny).
  if (argv[0] === "policy") {
    if (argv[1] !== "check") {
      process.stderr.write(
        "nanohermes: usage: nanohermes policy check [--approval P] [--json] [--stdin] [--deny GLOB]... -- COMMAND\n",
      );
      return EXIT_USAGE;
    }
    const { runPolicyCheck } = await import("./sandbox/policy-check.js");
    let deny: string[] = [];
    try {
      const { loadSettings } = await import("./config/load.js");
      deny = loadSettings({ flags: parseFlags([]) }).deny;
    } catch {
      // a broken config must not stop a policy check; its deny rules are simply not known
    }
    return runPolicyCheck([...deny.flatMap((d) => ["--deny", d]), ...argv.slice(2)], {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
    });
  }
  // `sandbox` has its own options (its --mode is the sandbox mode, not the permission mode).
  if (argv[0] === "sandbox") {
    try {
      return await sandboxCommand(argv.slice(1));
    } catch (error) {
      if (error instanceof UsageError) {
        process.stderr.write(`nanohermes: ${error.message}\n`);
        return EXIT_USAGE;
      }
      throw error;
    }
  }
  let ConfigError: (new (...args: never[]) => Error) | undefined;
  try {
    const flags = parseFlags(argv);
    if (flags.values.help) {
      const { helpText } = await import("./config/help.js");
      process.stdout.write(`${helpText(VERSION)}\n`);
      return 0;
    }
    if (flags.values.version) {
      process.stdout.write(`${VERSION}\n`);
      return 0;
    }
    const load = await import("./config/load.js");
    ConfigError = load.ConfigError;
    const settings = load.loadSettings({ flags });
    const { setLogFile, registerSecret, registerSecretEnv } = await import("./config/log.js");
    const { logPath } = await import("./config/paths.js");
    setLogFile(logPath(settings.home));
    registerSecret(settings.apiKey);
    registerSecretEnv(settings.apiKeyEnv);
    for (const f of settings.fallback ?? []) {
      registerSecret(f.apiKey);
      registerSecretEnv(f.apiKeyEnv);
    }

    const [command, ...rest] = flags.positionals;
    if (command === "tool") {
      const { runToolCommand } = await import("./oneshot/tool-run.js");
      if (rest.length > 2)
        throw new UsageError("usage: nanohermes tool NAME 'JSON-ARGS' (quote the JSON as one argument)");
      return await runToolCommand(
        settings,
        { name: rest[0], json: rest[1], schema: flags.values.schema === true },
        { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin },
      );
    }
    if (command === "mcp") {
      const { runMcpList } = await import("./oneshot/mcp-list.js");
      if (rest.length > 0 && !(rest.length === 1 && rest[0] === "list"))
        throw new UsageError("usage: nanohermes mcp [list] [--json] [--mcp FILE]");
      return await runMcpList(
        settings,
        { json: flags.values.json === true },
        { stdout: process.stdout, stderr: process.stderr },
      );
    }
    if (command === "models") {
      const { runModelsList } = await import("./oneshot/models-list.js");
      if (rest.length > 0) throw new UsageError("usage: nanohermes models [--provider NAME] [--base-url URL] [--json]");
      return await runModelsList(
        settings,
        { json: flags.values.json === true },
        { stdout: process.stdout, stderr: process.stderr },
      );
    }
    if (command === "sessions") {
      const { runSessions } = await import("./oneshot/sessions-cli.js");
      return await runSessions(settings, rest, flags, { stdout: process.stdout, stderr: process.stderr });
    }
    if (command === "export") {
      const { runExport } = await import("./oneshot/sessions-cli.js");
      if (rest.length > 0)
        throw new UsageError(
          "usage: nanohermes export --format sharegpt [--session ID | --all] [--output FILE] [--split turn|session]",
        );
      return await runExport(settings, flags, process.cwd(), { stdout: process.stdout, stderr: process.stderr });
    }
    if (command === "skills") {
      const { runSkills } = await import("./oneshot/skills-cli.js");
      return await runSkills(settings, rest, flags, { stdout: process.stdout, stderr: process.stderr });
    }
    if (command === "cron") {
      const { runCron } = await import("./cron/commands.js");
      return await runCron(settings, rest, flags, { stdout: process.stdout, stderr: process.stderr });
    }
    if (flags.values.daemon === true) {
      if (command !== undefined || flags.values.prompt !== undefined)
        throw new UsageError("--daemon takes no prompt or command");
      const { runDaemon } = await import("./daemon/run.js");
      return await runDaemon(settings, flags, { stderr: process.stderr, env: process.env, cwd: process.cwd() });
    }
    if (command === "attach") {
      const { runAttach } = await import("./ui/attach.js");
      return await runAttach(settings, flags, rest, {
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: process.stderr,
        env: process.env,
      });
    }
    if (command === "acp") {
      if (rest.length > 0) throw new UsageError("usage: nanohermes acp (an ACP agent on stdin/stdout, for editors)");
      // The protocol owns stdout: nothing else may be written there.
      const { runAcp } = await import("./acp/run.js");
      return await runAcp(settings, flags, { stdin: process.stdin, stdout: process.stdout, env: process.env });
    }
    if (command === "mcp-server") {
      if (rest.length > 0)
        throw new UsageError("usage: nanohermes mcp-server (an MCP server on stdin/stdout, for other agents)");
      const { runMcpServer } = await import("./mcp-server/run.js");
      return await runMcpServer(settings, flags, {
        stdin: process.stdin,
        stdout: process.stdout,
        stderr: process.stderr,
        env: process.env,
      });
    }
    if (command === "doctor") {
      const { runDoctor } = await import("./ui/terminal/doctor.js");
      process.stdout.write(`${await runDoctor({ env: process.env, stdin: process.stdin, stdout: process.stdout })}\n`);
      return 0;
    }
    if (command !== undefined) throw new UsageError(`unknown command "${command}" (to pass a prompt use -p "...")`);

    const { sessionToOpen } = await import("./session/open.js");
    const { SessionFolderError } = await import("./session/resume.js");
    const opened = await sessionToOpen(settings, flags, process.cwd()).catch((error: unknown) => {
      if (!(error instanceof SessionFolderError)) throw error;
      process.stderr.write(`nanohermes: ${error.message}\n`);
      return null;
    });
    if (!opened) return 1;
    let prompt = typeof flags.values.prompt === "string" ? flags.values.prompt : undefined;
    if (prompt === undefined && process.stdin.isTTY && process.stdout.isTTY) {
      const { runUi } = await import("./ui/run.js");
      return await runUi({
        settings,
        stdin: process.stdin,
        stdout: process.stdout,
        env: process.env,
        ...(opened.file ? { sessionFile: opened.file } : {}),
        ...(opened.pick ? { pickSession: true } : {}),
      });
    }
    if (prompt === undefined && process.stdin.isTTY) {
      process.stderr.write(
        'nanohermes: the interactive interface needs a terminal on stdout; run one turn with -p "..." (see --help)\n',
      );
      return EXIT_USAGE;
    }
    const piped =
      prompt === undefined
        ? process.stdin.isTTY
          ? undefined
          : await readStdin()
        : (await stdinIsData())
          ? await readStdin()
          : undefined;
    if (piped === null) {
      process.stderr.write(stdinTooLarge);
      return EXIT_USAGE;
    }
    if (prompt === undefined && piped !== undefined) prompt = piped.trim();
    else if (piped?.trim()) prompt = `${prompt}\n\n<stdin>\n${piped.trim()}\n</stdin>`;
    if (prompt === undefined) return EXIT_USAGE;
    if (prompt.trim() === "") {
      process.stderr.write('nanohermes: the prompt is empty; pass one with -p "..." or on stdin\n');
      return EXIT_USAGE;
    }
    if (missingCredentials(settings)) {
      process.stderr.write(`nanohermes: ${setupHint(settings).join("\n")}\n`);
      return EXIT_USAGE;
    }
    if (opened.pick)
      throw new UsageError("--resume without an id needs the interactive UI; give an id (or use --continue)");
    const { runOneShot } = await import("./oneshot/run.js");
    return await runOneShot(
      settings,
      flags,
      prompt,
      { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() },
      undefined,
      opened.file,
    );
  } catch (error) {
    if (error instanceof UsageError || (ConfigError && error instanceof ConfigError)) {
      process.stderr.write(`nanohermes: ${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

// A closed stdout (`nh -p ... | head -1`) must not crash the program.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
});

/**
 * Exits once stdout and stderr have flushed, so nothing left behind (an idle keep-alive socket,
 * a timer) can hold the process open after the work is done.
 */
function exitWhenFlushed(code: number): void {
  process.exitCode = code;
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}

main(process.argv.slice(2)).then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => {
    process.stderr.write(`nanohermes: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    void import("./config/log.js").then(({ log }) => log("error", "fatal", error)).finally(() => process.exit(1));
  },
);
