// Import boundaries of src/, checked by `npm run lint` (scripts/check-boundaries.mjs runs
// dependency-cruiser over JavaScript twins of the sources: `npx depcruise src` alone cannot read
// TypeScript 7 and would cruise nothing).
//
// The layers, bottom up; a folder imports only from its own layer or below:
//   protocol, fs          events, commands, messages, the bus; the gitignore-aware walker
//   config                settings, their schemas and files
//   sandbox < tools < hooks, memory, mcp, skills, cron < session  the services the engine uses
//                         (cron: the schedule ledger, its scheduler, the `cron` commands and the
//                         cron tool; beyond the tool's definition only the daemon and cli.ts load it)
//   agent, remote         the engine; beside it, never importing it, the daemon's client side
//                         (client, /remote tasks, the wire contract the server shares)
//   oneshot, daemon, ui,  the front ends; none imports another (the daemon runs each scheduled
//   acp, mcp-server       run as a task: daemon/cron-runner.ts); acp: the editor agent;
//                         mcp-server: NanoHermes as another agent's tool
//   telemetry             observers of the bus (the telemetry file, OpenTelemetry), started by front ends
//   cli.ts                picks a front end
// A front end may use any lower layer: the UI reads sessions (the task index, search,
// checkpoints) and memory (the /memory dialog) directly, but of the engine only its entry
// (AGENT_ENTRY) and no tools at all.
// version.ts is a constant anyone may read. Patterns leave the extension open (`\\.` not
// `\\.ts$`): the check cruises .js twins of the .ts files.
//
// Every rule says why it exists. A new exception goes in with a comment naming who removes it.
const SERVICES = "(session|tools|sandbox|mcp|memory|skills|hooks|cron)";
/** The front ends: peers on the engine, each loaded by cli.ts for its own subcommand. */
const FRONT_ENDS = "oneshot|daemon|ui|acp|mcp-server";
const ABOVE_SERVICES = `^src/(agent|remote|${FRONT_ENDS})/|^src/cli\\.`;

/**
 * The engine's public entry, the only agent modules the UI may import.
 * tasks.ts: the TaskManager, driven by bus commands only; engine.ts / agent-types.ts: the agent's
 * contract types; extensions.ts: MCP, skills, hooks and AGENTS.md, loaded once per process by
 * every front end; confinement.ts: the sandbox label shown in the title bar, from settings;
 * interrupt.ts: the exit code of a signal, shared with the one-shot front end; workspace-source.ts:
 * the read-only view /status, /diff, /review and custom commands show (git diff, context budget),
 * and workspace-view.ts its type.
 */
const AGENT_ENTRY =
  "^src/agent/(tasks|engine|agent-types|extensions|confinement|interrupt|workspace-source|workspace-view)\\.";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "protocol-imports-nothing",
      comment:
        "The protocol is the data the engine and its front ends share; it depends on nothing of ours, so anything may use it.",
      severity: "error",
      from: { path: "^src/protocol/" },
      to: { path: "^src/", pathNot: ["^src/protocol/", "^src/version\\."] },
    },
    {
      name: "fs-imports-nothing",
      comment:
        "src/fs holds file-system helpers shared by tools and the UI (the walker); kept free of tool errors and settings so the UI can list files without importing tools.",
      severity: "error",
      from: { path: "^src/fs/" },
      to: { path: "^src/", pathNot: "^src/fs/" },
    },
    {
      name: "config-imports-only-protocol",
      comment:
        "Settings are read by everything; a config module importing a feature folder (agent, hooks, mcp) ties every reader to it. Feature schemas live in config/.",
      severity: "error",
      from: { path: "^src/config/" },
      to: { path: "^src/", pathNot: ["^src/(config|protocol|fs)/", "^src/version\\."] },
    },
    {
      name: "services-below-the-engine",
      comment:
        "Sessions, tools, the sandbox, MCP, memory, skills and hooks are what the engine uses; they must not reach up into it or into a front end.",
      severity: "error",
      from: { path: `^src/${SERVICES}/` },
      to: { path: ABOVE_SERVICES },
    },
    {
      name: "sandbox-below-tools",
      comment: "The sandbox classifies and confines; tools call it. Nothing in it needs another service.",
      severity: "error",
      from: { path: "^src/sandbox/" },
      to: { path: `^src/${SERVICES}/`, pathNot: "^src/sandbox/" },
    },
    {
      name: "tools-below-other-services",
      comment:
        "Tools are the shared base of the services (atomic writes, the safe walk, process groups); hooks, memory, MCP, skills and sessions build on them, never the other way (that made a tools <-> hooks cycle).",
      severity: "error",
      from: { path: "^src/tools/" },
      to: { path: `^src/${SERVICES}/`, pathNot: "^src/(tools|sandbox)/" },
    },
    {
      name: "leaf-services-apart",
      comment:
        "Hooks, memory, MCP, skills and cron are separate features over tools; none imports another or session. One exception: skills rank with memory's pure BM25 and tokenizer (issue 30: no duplicate skills, the relevant-skills hint), which import nothing.",
      severity: "error",
      from: { path: "^src/(hooks|memory|mcp|skills|cron)/" },
      to: {
        path: `^src/${SERVICES}/`,
        pathNot: ["^src/(tools|sandbox)/", "^src/$1/", "^src/memory/(bm25|tokenize)\\."],
      },
    },
    {
      name: "engine-below-front-ends",
      comment:
        "The engine must not assume a front end (terminal, daemon, one-shot printer); they drive it through the bus.",
      severity: "error",
      from: { path: "^src/agent/" },
      to: { path: `^src/(remote|${FRONT_ENDS})/|^src/cli\\.` },
    },
    {
      name: "remote-below-front-ends",
      comment:
        "The daemon's client side is used by the UI (/remote, attach) and shares the wire contract with the server; it runs no engine and shows nothing.",
      severity: "error",
      from: { path: "^src/remote/" },
      to: { path: `^src/(agent|${FRONT_ENDS})/|^src/cli\\.` },
    },
    {
      name: "front-ends-apart",
      comment:
        "One-shot, daemon, UI, the ACP agent and the MCP server are peers on the engine; one importing another made the daemon <-> ui cycle. Shared client code goes to remote/, shared engine code to agent/.",
      severity: "error",
      from: { path: `^src/(${FRONT_ENDS})/` },
      to: { path: `^src/(${FRONT_ENDS})/`, pathNot: "^src/$1/" },
    },
    {
      name: "cron-loads-for-the-daemon-and-cron-only",
      comment:
        "Scheduling loads croner and opens SQLite; only the daemon and `nanohermes cron` (through cli.ts's dynamic import) need them. Elsewhere only the cron tool's definition (cron/tool.ts: its name, arguments and description, which loads the rest with its first call) and the UI's read of the ledger after its first frame (cron/status.ts) may be imported: a UI, one-shot or ACP import of the ledger would put it on every start (tests/build/cron-chunk.test.ts checks the bundle).",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/(cron|daemon)/", "^src/cli\\."] },
      to: { path: "^src/cron/", pathNot: "^src/cron/(tool|status)\\." },
    },
    {
      name: "croner-only-in-cron",
      comment:
        "Instants are computed in one place (cron/schedule.ts), so a schedule means the same to the daemon and the commands.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/cron/" },
      to: { path: "(^|/)node_modules/croner/" },
    },
    {
      name: "opentelemetry-only-in-telemetry",
      comment:
        "OpenTelemetry loads only when telemetry is on (issue 32, item 5): its packages are imported by src/telemetry alone, which front ends reach through start.ts's dynamic import.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/telemetry/" },
      to: { path: "(^|/)node_modules/@opentelemetry/" },
    },
    {
      name: "telemetry-reads-the-bus-only",
      comment:
        "Telemetry observes the bus: it needs the protocol, settings and the redactor, never the engine or a service, so every front end can start it the same way.",
      severity: "error",
      from: { path: "^src/telemetry/" },
      to: { path: "^src/", pathNot: ["^src/(telemetry|protocol|config)/", "^src/version\\."] },
    },
    {
      name: "telemetry-under-the-front-ends",
      comment: "Front ends start telemetry; the engine and the services below it are observed, never observing.",
      severity: "error",
      from: { path: "^src/", pathNot: [`^src/(telemetry|${FRONT_ENDS})/`, "^src/cli\\."] },
      to: { path: "^src/telemetry/" },
    },
    {
      name: "only-the-gate-seals",
      comment:
        "Every tool call passes the engine's one gate (agent/gate.ts): the registry runs a call only on a decision sealed by tools/gate-seal.ts. A front end that imported the seal could wave calls past the policy; it supplies an Asker instead. The registry reads the seal to check it.",
      severity: "error",
      from: { pathNot: "^src/(agent/gate|tools/registry)\\." },
      to: { path: "^src/tools/gate-seal\\." },
    },
    {
      name: "nothing-imports-cli",
      comment: "cli.ts is the program's entry; importing it would run it.",
      severity: "error",
      from: {},
      to: { path: "^src/cli\\." },
    },
    {
      name: "only-the-ui-draws",
      comment:
        "The engine must not assume a terminal (DESIGN.md section 3): Ink and React belong to the UI, so the one-shot and daemon front ends never load them.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/ui/" },
      to: { path: "(^|/)node_modules/(ink|ink-[^/]+|react|react-dom)/" },
    },
    {
      name: "ui-logic-before-ink",
      comment:
        "Dialog and pane specs, the controller, key input, state and views are plain data and functions: the first frame is drawn from them before Ink loads (an import of ink cost 670 ms under load), and they are tested without a renderer. Components (src/ui/components, App.tsx) draw them.",
      severity: "error",
      from: { path: "^src/ui/(dialogs|focus|controller|input|state|view)/" },
      to: { path: "(^|/)node_modules/(ink|ink-[^/]+|react|react-dom)/" },
    },
    {
      name: "ui-not-into-tools",
      comment:
        "The UI shows what tools did through events; it does not run tool code. Shared helpers (the walker) live lower, in src/fs.",
      severity: "error",
      from: { path: "^src/ui/" },
      to: { path: "^src/tools/" },
    },
    {
      name: "ui-only-the-engine-entry",
      comment:
        "The UI talks to the engine through the bus and the TaskManager; agent internals (compaction, prompts, model clients) stay private. Allowed list and reasons: AGENT_ENTRY above.",
      severity: "error",
      from: { path: "^src/ui/" },
      to: { path: "^src/agent/", pathNot: AGENT_ENTRY },
    },
    {
      name: "no-cycles-between-folders",
      comment:
        "Folders are the units one reads and moves; a cycle between two means neither can be understood or tested alone.",
      severity: "error",
      scope: "folder",
      from: { path: "^src/[^/]+$" },
      to: { path: "^src/[^/]+$", circular: true },
    },
    {
      name: "no-cycles-between-ui-folders",
      comment:
        "The UI is 30% of the code; its folders (state, view, dialogs, focus, controller, ...) are units too. A cycle among them (UiState in controller/, dialogs taking the whole Controller) made them lazy registries and untestable alone.",
      severity: "error",
      scope: "folder",
      from: { path: "^src/ui/[^/]+$" },
      to: { path: "^src/ui/[^/]+$", circular: true },
    },
    {
      name: "key-layers-through-the-host",
      comment:
        "Dialogs, focus areas and results tabs use the controller through the narrow interfaces of src/ui/controller/host.ts (what they may read and do, the ports they need by name), never the Controller class: a dialog is then read, and tested with a fake host, without the 300 lines of key routing behind it (issue 33).",
      severity: "error",
      from: { path: "^src/ui/(dialogs|focus|tabs)/" },
      to: { path: "^src/ui/controller/controller\\." },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Packages stay in the graph (so only-the-ui-draws sees Ink) but are not cruised into; named
    // by their node_modules path even where node_modules is a symlink (git worktrees).
    preserveSymlinks: true,
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    enhancedResolveOptions: {
      extensions: [".js", ".json"],
      exportsFields: ["exports"],
      conditionNames: ["import", "node", "default"],
    },
    metrics: true,
  },
};
