// The TypeScript side of the Landlock helper (src/sandbox/native/nh-sandbox.c): where the built
// binary is, what this kernel enforces, the argv that runs a command under it, and the two
// `nanohermes sandbox` subcommands. Explicit modes never degrade: they refuse with one line.
import { execFileSync, spawn } from "node:child_process";
import { accessSync, constants, lstatSync, readFileSync, statSync } from "node:fs";
import { constants as os } from "node:os";
import { dirname, join, resolve } from "node:path";
import { commandTempDir } from "./temp-dir.js";
import { protectArgs, protectedSet } from "./protected.js";
import { beginSharedGuard, type GuardEnd } from "./guard-store.js";
import { writableRootsOf } from "./writable-roots.js";

export { writableRootsOf };

export type SandboxMode = "off" | "read-only" | "workspace-write";

export interface SandboxPolicy {
  /** "off" runs the command as is; the others run it under the helper or refuse. */
  mode: SandboxMode;
  /** Writable beneath it under workspace-write (with the temp directory and `writableRoots`). */
  workspace: string;
  /** Extra roots writable under workspace-write; each must exist (relative ones are inside the workspace). */
  writableRoots: string[];
  /** false denies TCP connect and bind (Landlock ABI 4 or later, else the command is refused). */
  network: boolean;
}

export interface LandlockProbe {
  available: boolean;
  /** The kernel's Landlock ABI version, 0 when unavailable. */
  abi: number;
  reason: string;
  /** The helper exists but could not run: it is not used even for reaping. */
  helperBroken?: boolean;
}

/** What the sandbox runs on. Contract: tests inject it to simulate a missing helper or an old kernel. */
export interface SandboxHost {
  helper: string | null;
  probe: LandlockProbe;
  /** Default: asks the helper (probeProtect). */
  protect?: ProtectProbe;
}

export const HELPER_MISSING = "the sandbox helper was not built (no C compiler at install?)";

let root: string | undefined;
/**
 * The package root: this file runs from src/sandbox under vitest and from dist/ once bundled. The
 * root's package.json has a name; dist/package.json (`{"type":"commonjs"}`, for dist/cli.js) has not.
 */
function packageRoot(): string {
  if (root !== undefined) return root;
  const named = (dir: string): boolean => {
    try {
      return (
        typeof (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown }).name === "string"
      );
    } catch {
      return false;
    }
  };
  let dir = import.meta.dirname;
  while (!named(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return (root = dir);
}

/** The built helper (dist-native/nh-sandbox, see scripts/build-native.mjs), or null when absent. */
export function helperPath(): string | null {
  const path = join(packageRoot(), "dist-native", "nh-sandbox");
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    return null;
  }
}

let probed: LandlockProbe | undefined;
/** Asks the helper once per process; it restricts a throwaway process to prove enforcement. */
export function probeLandlock(): LandlockProbe {
  if (probed) return probed;
  const helper = helperPath();
  if (!helper) return (probed = { available: false, abi: 0, reason: HELPER_MISSING });
  try {
    const out = JSON.parse(execFileSync(helper, ["--probe"], { encoding: "utf8", timeout: 5_000 })) as {
      abi: number;
      landlock: boolean;
      reason: string;
    };
    probed = { available: out.landlock === true, abi: out.abi, reason: out.reason };
  } catch (error) {
    probed = {
      available: false,
      abi: 0,
      helperBroken: true,
      reason: `the sandbox helper failed to run: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    };
  }
  return probed;
}

const defaultHost = (): SandboxHost => ({ helper: helperPath(), probe: probeLandlock() });

/** The helper can at least reap (`--mode off`): it exists and ran. */
export const helperReaps = (host: SandboxHost): boolean => host.helper !== null && host.probe.helperBroken !== true;

/**
 * The argv that runs `command` under `policy`, or why it must not run. Contract: an explicit mode
 * never returns the bare command; "off" returns it under the helper's reap-only mode when the
 * helper runs here, else bare. `notice` is one line for the user (a replaced TMPDIR).
 * `waitOrphans` asks the helper to wait for what the command leaves (background jobs) rather than
 * kill it when the command ends. The helper checks everything again itself.
 */
export function sandboxArgv(
  policy: SandboxPolicy,
  command: string[],
  host: SandboxHost = defaultHost(),
  options: { waitOrphans?: boolean } = {},
): { argv: string[]; notice?: string } | { refused: string } {
  const wait = options.waitOrphans ? ["--wait-orphans"] : [];
  if (policy.mode === "off")
    return { argv: helperReaps(host) ? [host.helper!, "--mode", "off", ...wait, "--", ...command] : command };
  const refuse = (why: string) => ({ refused: `sandbox ${policy.mode} refused: ${why}` });
  if (!host.helper) return refuse(`${HELPER_MISSING}; run \`npm run build:native\` or use --sandbox off`);
  if (!host.probe.available) return refuse(`Landlock is unavailable (${host.probe.reason})`);
  // Below ABI 4 the helper's seccomp filter alone keeps TCP out (no socket but a Unix one), on
  // the architectures it is built for; the network is off by default, so old kernels must work.
  if (!policy.network && host.probe.abi < 4 && !SECCOMP_NET_ARCHS.has(process.arch))
    return refuse(`network off needs Landlock ABI 4 (TCP rules) but this kernel has ABI ${host.probe.abi}`);
  const argv = [host.helper, "--mode", policy.mode, "--workspace", resolve(policy.workspace)];
  for (const writable of policy.writableRoots) argv.push("--writable", resolve(policy.workspace, writable));
  const temp = policy.mode === "workspace-write" ? commandTempDir(policy.workspace) : null;
  if (temp) argv.push("--tmpdir", temp.dir);
  argv.push("--network", policy.network ? "on" : "off");
  if (policy.mode === "workspace-write") argv.push(...protectArgs(protectedSet(writableRootsOf(policy)), isFile));
  argv.push(...wait, "--", ...command);
  return temp?.warning ? { argv, notice: temp.warning } : { argv };
}

/**
 * Where the network is chosen, in the words of the README and the --network flag: off by default,
 * and what turning it on opens (a test holds the README to it).
 */
export const NETWORK_CHOICE =
  "network: off by default for sandboxed commands; on with --network on or sandbox.network: true in config, or for one command the model runs with network: true once you approve it (with nobody to ask it is refused). With the network on, commands also reach services listening on loopback (127.0.0.1, ::1) and NanoHermes's own daemon port";

/** Where the helper's seccomp network filter is built (NATIVE_ARCH in nh-sandbox.c). */
const SECCOMP_NET_ARCHS = new Set(["x64", "arm64"]);

/** What root keeps under the helper (src/sandbox/native/caps.h); every other capability is dropped. */
export const KEPT_CAPABILITIES = ["CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_FSETID"];

/**
 * Every known gap, in the words the README's "not covered" list uses (a test holds them equal).
 * Contract: `sandbox status` prints each that applies on this machine.
 */
export const GAPS = {
  metadata:
    "Landlock does not restrict metadata: chmod, chown, timestamps (touch of an existing file), extended attributes and file flags other than immutable and append-only (chattr +A, +d, ...) of files outside the writable roots can still change",
  unixSockets:
    "with the network on, commands can connect to existing Unix sockets such as /var/run/docker.sock, an ssh-agent socket or NanoHermes's own daemon socket, and a service reached that way (docker, systemd-run, at, the daemon) can start processes outside the sandbox that are not reaped",
  noHelperReaping:
    "without the helper (not built, or failing to run), processes a command started in another process group or session (nohup, setsid, double forks) are not reaped: only its process group is killed",
  offKillsHelper:
    "with the sandbox off (and below Landlock ABI 6), a command can kill the helper itself, and what it started in another session then survives",
  helperKilled:
    "if the helper itself is killed with SIGKILL (the OOM killer, or NanoHermes when it has not ended 2 s after SIGTERM), the command dies with it but what the command started in another session survives",
  compatSockets:
    "32-bit programs cannot use sockets at all with the network off (their socketcall cannot be filtered by argument)",
  sharedIpc:
    "where no mount namespace can be made, commands share the System V IPC namespace (shared memory, semaphores, message queues) of your other processes",
  noProcessLimit:
    "as root without a writable pids cgroup (cgroup v1 pids hierarchy), a command's processes are not limited (root is exempt from RLIMIT_NPROC): a fork bomb slows the host until its command is stopped",
} as const;

const REAPING =
  "reaping: when a foreground command ends (or times out, or is stopped), every process it started ends with it, also those that left its process group or session (nohup, setsid, double forks); a background job's processes end with the job (task_kill, the session's end, exit); in every mode, off included";

const isFile = (path: string): boolean => {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
};

export interface ProtectProbe {
  /** The helper can enter a private mount namespace, so its read-only binds hold. */
  mountNamespace: boolean;
  reason: string;
}

const protectProbes = new Map<string, ProtectProbe>();
/** Whether the helper can make the mount namespace its read-only binds need (asked once per helper). */
export function probeProtect(helper: string | null = helperPath()): ProtectProbe {
  if (!helper) return { mountNamespace: false, reason: HELPER_MISSING };
  let probe = protectProbes.get(helper);
  if (probe) return probe;
  try {
    const out = JSON.parse(
      execFileSync(helper, ["--probe-protect"], { encoding: "utf8", timeout: 5_000 }),
    ) as ProtectProbe;
    probe = { mountNamespace: out.mountNamespace === true, reason: out.reason };
  } catch (error) {
    probe = {
      mountNamespace: false,
      reason: `the sandbox helper failed to run: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    };
  }
  protectProbes.set(helper, probe);
  return probe;
}

/** What protected paths leave open; the README's "not covered" says the same, word for word. */
export const PROTECT_NOT_COVERED =
  "where no mount namespace can be made, every protected path can be changed by a command while it runs (the change is reverted when the command, or for a background job the job, ends, not before a git run in another terminal; git run by commands meanwhile runs none of the repository's hooks, fsmonitor, pager or external diff, but its clean and smudge filters still run); a protected path whose folder does not exist either (~/.config/git without ~/.config) gets no placeholder and is only checked after the command; placeholders stay while any command of the workspace runs (other programs see an empty file or folder there, or a commondir of .), and one left by a helper run without NanoHermes, or killed outright, stays until a command there ends (killed between making and marking it, it stays as an empty file or folder); a writable root with no repository can get a .git while a command runs (so that git init works; the check after neutralises it); a protected path that is a symlink can be re-pointed while a command runs (the check after puts it back); a folder swapped for a symlink at the moment of the check is skipped, not restored; a folder other than a writable root that a command turns into a git directory (HEAD, config, objects) is not checked; a nested repository that is not staged as a submodule is not checked (git enters it only when run inside it); an index over 64 MB is not read for submodules; other places under $HOME that run code later (~/.local/bin, ~/.config/autostart, systemd user units, crontabs) are not protected";

/** The `sandbox status` line on protected paths inside writable roots: which layer holds here. */
export function protectionLine(probe: ProtectProbe): string {
  const what =
    "protected paths (.git/config, .git/hooks, .git/info, .git/modules, .git/worktrees, .git/commondir of each repository and submodule, .nanohermes/, and shell start-up files, ~/.ssh, ~/.gitconfig, ~/.npmrc, ~/.nanohermes where they fall inside a writable root)";
  const check =
    "after every command NanoHermes reverts any change to them and neutralises a new .git (config keys that run programs, hooks), with a notice to you and the model";
  return probe.mountNamespace
    ? `${what}: read-only inside the sandbox through ${probe.reason}, with .git bound in place so it cannot be renamed away, and those that do not exist yet held by a read-only placeholder while a command runs (removed after); also ${check}`
    : `${what}: no mount namespace here (${probe.reason}), so commands can change them while they run; ${check}; ${GIT_SWITCHED_OFF}`;
}

/**
 * What the helper does to git where it cannot make the namespace (neutralise_git_env in
 * nh-sandbox.c): the words of `sandbox status` and of the one-line notice.
 */
export const GIT_SWITCHED_OFF =
  "git run by commands (and by the git_commit tool) runs with the repository's programs switched off: core.hooksPath=/dev/null, core.fsmonitor=false, core.pager=cat and no diff.external, through GIT_CONFIG_COUNT, so no hook runs in a commit made there";

/**
 * The one line said once, at the first sandboxed command, where the binds cannot hold (issue
 * 26.2): the words of `sandbox status` (protectionLine), shortened.
 */
export const noNamespaceNotice = (probe: ProtectProbe): string =>
  `protected paths: no mount namespace here (${probe.reason}), so commands can change them while they run; after every command NanoHermes reverts any change to them, and git in commands runs without the repository's hooks and fsmonitor (sandbox status says more)`;

/** Whether commands get their own IPC namespace (it comes with the mount namespace). */
export const isolationLine = (probe: ProtectProbe): string =>
  probe.mountNamespace
    ? "IPC: a private IPC namespace (System V shared memory, semaphores and message queues of other processes are out of reach)"
    : `IPC: ${GAPS.sharedIpc}`;

/** Where the helper can cap a command's processes (src/sandbox/native/reach.h). */
export function processLimitLine(): string {
  if (process.geteuid?.() !== 0)
    return `process limit: RLIMIT_NPROC ${16 * PROCESS_LIMIT} for your user (counts all your processes)`;
  let cgroup = "";
  try {
    cgroup = readFileSync("/proc/self/cgroup", "utf8");
  } catch {
    // no /proc
  }
  const pids = /^\d+:pids:(.*)$/m.exec(cgroup);
  const writable = pids && isWritableDir(`/sys/fs/cgroup/pids${pids[1]}`);
  return writable
    ? `process limit: ${PROCESS_LIMIT} processes per command (a pids cgroup of its own)`
    : `process limit: ${GAPS.noProcessLimit}`;
}

/** The limit the helper sets (PROCESS_LIMIT in reach.h). */
const PROCESS_LIMIT = 2048;

const isWritableDir = (dir: string): boolean => {
  try {
    accessSync(dir, constants.W_OK);
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
};

/** Lines for `nanohermes sandbox status`: what each mode enforces on this machine, and what not. */
export function describeSandbox(host: SandboxHost = defaultHost(), workspace = process.cwd()): string[] {
  const { probe } = host;
  const reaping = helperReaps(host) ? REAPING : `reaping: ${GAPS.noHelperReaping}`;
  if (!host.helper || !probe.available) {
    return [
      `Landlock: unavailable (${probe.reason})`,
      "--sandbox read-only and --sandbox workspace-write refuse to run commands here; the default auto runs them unsandboxed: one-shot and tool runs say so in one line on stderr, the UI in its title bar",
      reaping,
      "not covered:",
      ...(helperReaps(host)
        ? [`  - ${GAPS.offKillsHelper}`, `  - ${GAPS.helperKilled}`]
        : [`  - ${GAPS.noHelperReaping}`]),
    ];
  }
  const abi = probe.abi;
  const temp = commandTempDir(workspace);
  const lines = [
    `Landlock: ABI ${abi} (helper ${host.helper})`,
    "read-only: commands read and run anything; nothing is created, written, truncated, renamed, linked or removed anywhere (writing to /dev/null and the terminal is allowed)",
    `workspace-write: as read-only, plus full write access beneath the workspace, the temp directory (${temp.dir}) and the configured writable roots; device nodes can never be created`,
    "temp directory: TMPDIR is made writable unless it is /, the home folder or a parent of it, or a parent of the workspace (/tmp itself excepted); then a private temp folder is used and a warning says so",
  ];
  if (temp.warning) lines.push(`  ${temp.warning}`);
  lines.push(
    abi >= 4
      ? "network off: TCP connect and bind are denied (Landlock), and a seccomp filter refuses every socket but Unix stream and seqpacket ones (no UDP, DNS, ICMP, raw, packet, netlink or vsock) and every connect(); pipes and socketpairs work"
      : SECCOMP_NET_ARCHS.has(process.arch)
        ? `network off: a seccomp filter refuses every socket but Unix stream and seqpacket ones (so no TCP, UDP, DNS, ICMP, raw, packet, netlink or vsock) and every connect(); Landlock's TCP rules need ABI 4, this kernel has ${abi}`
        : `network off: unavailable (needs ABI 4, this kernel has ${abi}); --network off refuses to run commands`,
    NETWORK_CHOICE,
    abi >= 6
      ? "scoping: signals and abstract Unix sockets cannot reach processes outside the sandbox, and a command cannot signal or trace the helper"
      : "scoping: unavailable (needs ABI 6); sandboxed commands can signal and connect to the user's other processes, the helper included",
  );
  if (abi < 2) lines.push("renames and links between directories always fail (needs ABI 2)");
  if (abi < 3) lines.push("truncating an existing file is not restricted (needs ABI 3)");
  if (abi < 5) lines.push("ioctl on devices is not restricted (needs ABI 5)");
  lines.push(
    reaping,
    `capabilities: root keeps only ${KEPT_CAPABILITIES.join(", ")}; every other one is dropped from all sets, the bounding set included (no CAP_DAC_READ_SEARCH, so no open_by_handle_at; no CAP_NET_RAW even with the network on, so no raw or packet sockets: ping works only through the unprivileged ICMP socket the host's net.ipv4.ping_group_range allows)`,
    "always: no_new_privs; file descriptors beyond stdin, stdout and stderr closed; io_uring and open_by_handle_at refused; TIOCSTI terminal injection blocked; a session keyring of its own; oom_score_adj 1000 (the OOM killer takes commands before NanoHermes)",
    `${isolationLine(host.protect ?? probeProtect(host.helper))}; ${processLimitLine()}`,
    protectionLine(host.protect ?? probeProtect(host.helper)),
    "not covered:",
    `  - ${GAPS.metadata}`,
    `  - ${GAPS.unixSockets}`,
    `  - ${GAPS.offKillsHelper}`,
    `  - ${GAPS.helperKilled}`,
    `  - ${GAPS.compatSockets}`,
    `  - protected paths: ${PROTECT_NOT_COVERED}`,
  );
  return lines;
}

export const sandboxStatusText = (): string => describeSandbox().join("\n");

/**
 * `nanohermes sandbox run`: runs one command under the helper with the terminal inherited.
 * Contract: resolves to the command's exit code (128 + signal number when killed), 126 after
 * printing the refusal, 127 when the program cannot be started.
 */
export function runSandboxCommand(args: {
  mode: SandboxMode;
  network: boolean;
  workspace: string;
  writable: string[];
  command: string[];
}): Promise<number> {
  const result = sandboxArgv(
    { mode: args.mode, workspace: args.workspace, writableRoots: args.writable, network: args.network },
    args.command,
  );
  if ("refused" in result) {
    process.stderr.write(`nanohermes: ${result.refused}\n`);
    return Promise.resolve(126);
  }
  if (result.notice) process.stderr.write(`nanohermes: ${result.notice}\n`);
  const [program, ...rest] = result.argv;
  if (!program) {
    process.stderr.write("nanohermes: sandbox run needs a command after --\n");
    return Promise.resolve(126);
  }
  if (!statSync(args.workspace, { throwIfNoEntry: false })?.isDirectory()) {
    process.stderr.write(`nanohermes: sandbox run: ${args.workspace} is not a directory (-C DIR)\n`);
    return Promise.resolve(126);
  }
  // The same check after the command as run_command gets (the binds may be missing on this host).
  const set =
    args.mode === "workspace-write"
      ? protectedSet(writableRootsOf({ workspace: args.workspace, writableRoots: args.writable }))
      : null;
  let guard: GuardEnd | null = null;
  try {
    guard = set ? beginSharedGuard(set) : null;
  } catch (error) {
    process.stderr.write(`nanohermes: not run: ${(error as Error).message}\n`);
    return Promise.resolve(126);
  }
  const checkAfter = () => {
    const notice = guard?.();
    if (notice) process.stderr.write(`nanohermes: ${notice}\n`);
  };
  return new Promise((done) => {
    // In the workspace (-C DIR), as run_command runs in it: relative paths mean what the policy means.
    const child = spawn(program, rest, { stdio: "inherit", cwd: args.workspace });
    // Ctrl-C reaches the child through the terminal; we stay alive to report its exit code.
    const ignore = () => {};
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on("SIGINT", ignore);
    process.on("SIGTERM", forward);
    process.on("SIGHUP", forward);
    let finished = false;
    const finish = (code: number) => {
      if (finished) return;
      finished = true;
      process.off("SIGINT", ignore);
      process.off("SIGTERM", forward);
      process.off("SIGHUP", forward);
      checkAfter();
      done(code);
    };
    child.on("error", (error) => {
      process.stderr.write(`nanohermes: ${program}: ${error.message}\n`);
      finish(127);
    });
    child.on("exit", (code, signal) => finish(code ?? 128 + (signal ? os.signals[signal] : 0)));
  });
}
