// Command-line flags as data: one table drives the parser and `--help`, so they cannot drift.
import { parseArgs } from "node:util";
import { apiModes, thinkingLevels } from "./levels.js";
import { providerNames } from "./providers.js";

export interface FlagSpec {
  name: string;
  short?: string;
  type: "string" | "boolean";
  /** Placeholder shown in --help for string flags. */
  value?: string;
  multiple?: boolean;
  doc: string;
  group: "run" | "model" | "safety" | "output" | "session" | "daemon" | "other";
}

export const flagSpecs: FlagSpec[] = [
  {
    name: "prompt",
    short: "p",
    type: "string",
    value: "TEXT",
    group: "run",
    doc: "Run one turn with TEXT and exit (one-shot). Without -p, a prompt piped on stdin is used.",
  },
  {
    name: "image",
    short: "i",
    type: "string",
    value: "FILE",
    multiple: true,
    group: "run",
    doc: "Attach an image to the prompt (repeatable, at most 4; resized to 1024 px).",
  },
  {
    name: "cwd",
    short: "C",
    type: "string",
    value: "DIR",
    group: "run",
    doc: "Workspace directory (default: the current directory).",
  },
  {
    name: "mcp",
    type: "string",
    value: "FILE",
    multiple: true,
    group: "run",
    doc: 'MCP servers from FILE ({"mcpServers": {...}} as in Claude Desktop; repeatable).',
  },
  {
    name: "subagents",
    type: "string",
    value: "FILE",
    group: "run",
    doc: 'Subagents the model may delegate to ({"agents": {NAME: {"prompt": ...}}}).',
  },
  {
    name: "no-memory",
    type: "boolean",
    group: "run",
    doc: "No long-term memory this run: nothing retrieved, nothing saved (env NANOHERMES_NO_MEMORY=1).",
  },
  { name: "no-agents-md", type: "boolean", group: "run", doc: "Leave AGENTS.md out of the system prompt." },
  {
    name: "max-iterations",
    type: "string",
    value: "N",
    group: "run",
    doc: "Model round trips allowed per turn (default 90).",
  },
  {
    name: "provider",
    type: "string",
    value: "NAME",
    group: "model",
    doc: `Provider preset: ${providerNames.join(" | ")} (env NANOHERMES_PROVIDER).`,
  },
  {
    name: "model",
    short: "m",
    type: "string",
    value: "NAME",
    group: "model",
    doc: "Model name (env NANOHERMES_MODEL; default gpt-5).",
  },
  {
    name: "fallback-model",
    type: "string",
    value: "NAME",
    group: "model",
    doc: "Model tried once when retries run out (env NANOHERMES_FALLBACK_MODEL).",
  },
  {
    name: "base-url",
    type: "string",
    value: "URL",
    group: "model",
    doc: "OpenAI-compatible endpoint (env OPENAI_BASE_URL).",
  },
  {
    name: "api",
    type: "string",
    value: "MODE",
    group: "model",
    doc: `Wire format: ${apiModes.join(" | ")} (default: the provider's, else from the base URL, else chat).`,
  },
  {
    name: "max-retries",
    type: "string",
    value: "N",
    group: "model",
    doc: "Retries on 429/500/502/503/504 and network errors (default 2).",
  },
  {
    name: "retry-base-ms",
    type: "string",
    value: "MS",
    group: "model",
    doc: "Backoff base: base * 2^(attempt-1), capped at 30 s (default 500).",
  },
  {
    name: "thinking",
    type: "string",
    value: "LEVEL",
    group: "model",
    doc: `Send reasoning_effort: ${thinkingLevels.join("|")}; a bare --thinking means high.`,
  },
  { name: "no-stream", type: "boolean", group: "model", doc: "Ask for whole replies instead of streamed ones." },
  {
    name: "approval",
    type: "string",
    value: "POLICY",
    group: "safety",
    doc: "Approval policy: never | on-request | untrusted (UI default on-request; one-shot default never).",
  },
  {
    name: "yes",
    short: "y",
    type: "boolean",
    group: "safety",
    doc: "Approval policy never: run every call without asking (dangerous commands still ask).",
  },
  {
    name: "yolo",
    type: "boolean",
    group: "safety",
    doc: "Like -y, and dangerous commands run without asking too (the blocklist still refuses).",
  },
  {
    name: "allow",
    type: "string",
    value: "PATTERN",
    multiple: true,
    group: "safety",
    doc: 'Pre-approve calls that would ask (repeatable): a command prefix ("npm test"), command:EXACT, edits, tool:NAME.',
  },
  {
    name: "mode",
    type: "string",
    value: "MODE",
    group: "safety",
    doc: "Permission mode: default | accept-edits | plan | goal | debug.",
  },
  {
    name: "sandbox",
    type: "string",
    value: "MODE",
    group: "safety",
    doc: "Command sandbox: auto (default) | off | read-only | workspace-write.",
  },
  {
    name: "network",
    type: "string",
    value: "on|off",
    group: "safety",
    doc: "Network for sandboxed commands (default off; on also reaches loopback services and the daemon's port).",
  },
  {
    name: "writable",
    type: "string",
    value: "DIR",
    multiple: true,
    group: "safety",
    doc: "Extra writable root for commands and file tools (repeatable).",
  },
  {
    name: "trust",
    type: "boolean",
    group: "safety",
    doc: "Honour this workspace's .nanohermes/config.json in full (endpoint, policy, sandbox), and take back an AGENTS.md a command changed.",
  },
  {
    name: "json",
    type: "boolean",
    group: "output",
    doc: "Print one JSON object when the turn ends: response, session, usage, reason.",
  },
  {
    name: "stream-json",
    type: "boolean",
    group: "output",
    doc: "Print every bus event as one JSON line (NDJSON), as documented in docs/events.md.",
  },
  {
    name: "telemetry-file",
    type: "string",
    value: "FILE",
    group: "output",
    doc: "Append every bus event, after an observer.started line, to FILE as JSON lines (docs/events.md), for offline analysis.",
  },
  {
    name: "verbose",
    type: "boolean",
    group: "output",
    doc: "Show tool activity on stderr even when stderr is not a terminal.",
  },
  { name: "quiet", short: "q", type: "boolean", group: "output", doc: "Show no tool activity or retries on stderr." },
  {
    name: "session",
    type: "string",
    value: "FILE",
    group: "session",
    doc: "Session file to resume and save to (default: a new file in ~/.nanohermes/sessions/).",
  },
  {
    name: "resume",
    short: "r",
    type: "string",
    value: "[ID]",
    group: "session",
    doc: "Pick up session ID (an id, a unique part of one, or a file); alone, choose from a list in the UI.",
  },
  {
    name: "continue",
    short: "c",
    type: "boolean",
    group: "session",
    doc: "Pick up the newest session of this workspace.",
  },
  {
    name: "daemon",
    type: "boolean",
    group: "daemon",
    doc: 'Serve sessions over HTTP (POST / with {"prompt"}, GET /health, /v1/...); see docs/daemon.md.',
  },
  {
    name: "daemon-port",
    type: "string",
    value: "N",
    group: "daemon",
    doc: "The daemon's TCP port (default 8787; 0 picks a free one).",
  },
  {
    name: "daemon-host",
    type: "string",
    value: "HOST",
    group: "daemon",
    doc: "Address to bind (default 127.0.0.1; others need a token).",
  },
  {
    name: "daemon-token-file",
    type: "string",
    value: "FILE",
    group: "daemon",
    doc: "Bearer token required on TCP requests (env NANOHERMES_DAEMON_TOKEN).",
  },
  {
    name: "daemon-socket",
    type: "string",
    value: "PATH",
    group: "daemon",
    doc: "Unix socket (mode 600) for `attach` (default ~/.nanohermes/daemon.sock; off for none).",
  },
  {
    name: "database-url",
    type: "string",
    value: "URL",
    group: "daemon",
    doc: "postgres://… shared by a team of daemons: sessions, turns, events and schedules (env DATABASE_URL); see docs/team.md.",
  },
  {
    name: "session-dir",
    type: "string",
    value: "DIR",
    group: "daemon",
    doc: "The daemon's session folder (default ~/.nanohermes/daemon-sessions).",
  },
  {
    name: "screen-reader",
    type: "boolean",
    group: "output",
    doc: "A linear UI for screen readers: one pane at a time, plain words, no animation (env NANOHERMES_SCREEN_READER=1).",
  },
  { name: "format", type: "string", value: "FMT", group: "other", doc: "With `export`: the format (sharegpt)." },
  {
    name: "split",
    type: "string",
    value: "turn|session",
    group: "other",
    doc: "With `export`: one record per turn (default) or per session.",
  },
  {
    name: "output",
    short: "o",
    type: "string",
    value: "FILE",
    group: "other",
    doc: "With `export`: write to FILE instead of stdout.",
  },
  {
    name: "all",
    type: "boolean",
    group: "other",
    doc: "With `export`: every session; with `sessions`: every workspace.",
  },
  {
    name: "schedule",
    type: "string",
    value: "EXPR",
    group: "other",
    doc: "With `cron add` / `cron update`: 5-field cron, 6 fields with seconds first, or @every 30m.",
  },
  {
    name: "missed",
    type: "string",
    value: "skip|once|all",
    group: "other",
    doc: "With `cron add` / `cron update`: what to do with runs missed while the daemon was down (default once for hourly and slower, else skip).",
  },
  {
    name: "tz",
    type: "string",
    value: "ZONE",
    group: "other",
    doc: "With `cron add` / `cron update`: the schedule's time zone (default this machine's).",
  },
  {
    name: "dry-run",
    type: "boolean",
    group: "other",
    doc: "With `skills curate`: say what the curator would change and change nothing.",
  },
  {
    name: "consolidate",
    type: "boolean",
    group: "other",
    doc: "With `skills curate`: also ask the review model to group overlapping agent skills; each merge becomes proposals (a rewrite and archives) to accept or drop, never a change.",
  },
  {
    name: "schema",
    type: "boolean",
    group: "other",
    doc: "With `tool NAME`: print the tool's JSON schema instead of running it.",
  },
  {
    name: "config",
    type: "string",
    value: "FILE",
    group: "other",
    doc: "Read this config file instead of ~/.nanohermes/config.json.",
  },
  { name: "help", short: "h", type: "boolean", group: "other", doc: "Show this help." },
  { name: "version", short: "v", type: "boolean", group: "other", doc: "Print the version." },
];

export type Flags = {
  positionals: string[];
  values: Record<string, string | boolean | string[] | undefined>;
};

export class UsageError extends Error {}

/**
 * `--thinking` may stand alone (meaning high) and so may `--resume` (meaning: choose); parseArgs
 * wants a value, so supply it.
 */
function normaliseThinking(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--resume" || arg === "-r") {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith("-")) {
        out.push(`--resume=${next}`);
        i++;
      } else out.push("--resume=");
    } else if (arg === "--thinking") {
      const next = argv[i + 1];
      if (next !== undefined && (thinkingLevels as readonly string[]).includes(next)) {
        out.push(`--thinking=${next}`);
        i++;
      } else out.push("--thinking=high");
    } else out.push(arg);
  }
  return out;
}

export function parseFlags(argv: string[]): Flags {
  const options: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = {};
  for (const spec of flagSpecs) {
    options[spec.name] = {
      type: spec.type,
      ...(spec.short ? { short: spec.short } : {}),
      ...(spec.multiple ? { multiple: true } : {}),
    };
  }
  try {
    const parsed = parseArgs({ args: normaliseThinking(argv), options, allowPositionals: true, strict: true });
    return { positionals: parsed.positionals, values: parsed.values as Flags["values"] };
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new UsageError(`${message} (see nanohermes --help)`);
  }
}

/** Parses an integer flag; a clear usage error otherwise. */
export function intFlag(flags: Flags, name: string, min: number, max: number): number | undefined {
  const raw = flags.values[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`--${name} expects an integer from ${min} to ${max}, got "${String(raw)}"`);
  }
  return value;
}

/** --help is laid out for this width: nothing in it is wider, whatever the terminal. */
export const HELP_WIDTH = 80;

/** Words of `text` in lines of at most `width` columns (a longer word stays whole on its own line). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * `left` in a column `at` wide and `right` wrapped beside it; a `left` that does not fit puts
 * `right` on the lines below, so the columns never run into each other.
 */
function columns(left: string, right: string, at: number): string[] {
  const body = wrapWords(right, HELP_WIDTH - at);
  const pad = " ".repeat(at);
  if (left.length + 2 > at) return [left, ...body.map((l) => pad + l)];
  return body.map((l, i) => (i === 0 ? left.padEnd(at) : pad) + l);
}

/** Subcommands, one row each: what to type, what it does. */
const subcommands: [string, string][] = [
  ['nanohermes -p "fix the failing test"', "run one turn and print the answer"],
  ['echo "explain src/" | nanohermes', "the prompt may come on stdin"],
  ["nanohermes tool [NAME 'JSON-ARGS']", "list the built-in tools, or run one (--schema: its JSON schema)"],
  [
    "nanohermes skills [list|show|proposals|accept|reject|curate|rollback]",
    "skills, proposals to accept or reject, the curator (--dry-run), undo",
  ],
  ["nanohermes mcp [--json]", "connect to the configured MCP servers and list them"],
  ["nanohermes models [--provider P]", "the provider's models with context window and prices"],
  ["nanohermes sessions [WORDS] [--all]", "this workspace's sessions, or those that mention WORDS"],
  ["nanohermes export --session ID|--all", "trajectories as ShareGPT JSONL (--output FILE, --split)"],
  ["nanohermes policy check -- COMMAND", "what the approval policy would do with COMMAND (--json, --approval P)"],
  [
    "nanohermes sandbox status|run",
    "what the command sandbox enforces here; run a command under it (sandbox run --help)",
  ],
  ["nanohermes doctor", "check the terminal: colours, keys, clipboard, tmux"],
  ["nanohermes --daemon [--daemon-port N]", "serve sessions over HTTP (docs/daemon.md)"],
  [
    "nanohermes cron add|update|list|runs|run|pause|resume|remove|inbox",
    "scheduled runs on the daemon (README: Scheduled runs)",
  ],
  ["nanohermes attach [URL]", "open the UI on a daemon's sessions (default: the local socket)"],
  ["nanohermes acp", "an Agent Client Protocol agent on stdin/stdout, for editors (Zed, JetBrains, Neovim)"],
  ["nanohermes mcp-server", "an MCP server on stdin/stdout: NanoHermes as a tool of another agent"],
];

export function helpText(version: string): string {
  const groups: [FlagSpec["group"], string][] = [
    ["run", "Running"],
    ["model", "Model"],
    ["safety", "Safety"],
    ["output", "Output (one-shot)"],
    ["session", "Session"],
    ["daemon", "Daemon"],
    ["other", "Other"],
  ];
  const lines = [
    `nanohermes ${version}: a coding agent for the terminal (alias nh)`,
    "",
    "Usage:",
    "  nanohermes                              the full-screen UI",
  ];
  for (const [cmd, doc] of subcommands) lines.push(...columns(`  ${cmd}`, doc, 42));
  for (const [group, title] of groups) {
    lines.push("", `${title}:`);
    for (const spec of flagSpecs.filter((s) => s.group === group)) {
      const names = `${spec.short ? `-${spec.short}, ` : "    "}--${spec.name}${spec.value ? ` ${spec.value}` : ""}`;
      lines.push(...columns(`  ${names}`, spec.doc, 28));
    }
  }
  lines.push("", "Environment:");
  for (const [name, doc] of [
    ["OPENAI_API_KEY", "API key (or the provider's variable, e.g. ANTHROPIC_API_KEY, or apiKeyEnv in config.json)"],
    ["NANOHERMES_PROVIDER", "provider preset, like --provider"],
    ["OPENAI_BASE_URL", "endpoint, like --base-url"],
    ["NANOHERMES_MODEL", "model, like --model"],
    ["NANOHERMES_FALLBACK_MODEL", "fallback model, like --fallback-model"],
    ["NANOHERMES_HOME", "settings folder (default ~/.nanohermes)"],
    ["NANOHERMES_NO_MEMORY", "1: like --no-memory"],
  ] as const)
    lines.push(...columns(`  ${name}`, doc, 28));
  lines.push(
    "",
    ...wrapWords(
      "Files: ~/.nanohermes/config.json, <workspace>/.nanohermes/config.json, ~/.nanohermes/sessions/, commands in .nanohermes/commands/ and ~/.nanohermes/commands/.",
      HELP_WIDTH,
    ),
    ...wrapWords(
      "Precedence: flags, then environment, then the workspace config, then the user config, then defaults.",
      HELP_WIDTH,
    ),
    "Exit codes: 0 done, 1 failed, 2 usage or config error, 130 stopped by Ctrl-C.",
  );
  return lines.join("\n");
}
