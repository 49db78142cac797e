// What the user adds to the agent: MCP servers, skills, hooks and AGENTS.md. Loaded once per
// process and shared by every task; MCP code is only imported when servers are configured.
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { log } from "../config/log.js";
import { logPath } from "../config/paths.js";
import type { Settings } from "../config/schema.js";
import type { HookRunner } from "../hooks/hooks.js";
import type { McpManager, McpServerStatus } from "../mcp/manager.js";
import type { MemoryStore } from "../memory/store.js";
import type { BusEvent } from "../protocol/events.js";
import type { SessionIndex } from "../session/search.js";
import type { Skill } from "../skills/skills.js";
import type { AnyTool } from "../tools/define.js";
import { SkillEvidence } from "./skill-evidence.js";
import type { SkillState } from "./skill-hooks.js";
import { knownContextWindow } from "./providers/models.js";
import type { ToolSource } from "../tools/registry.js";
import { writableRootsOf } from "../sandbox/writable-roots.js";
import { VERSION } from "../version.js";

export interface Extensions {
  /** Tools beside the built-ins that exist for the whole run (skill, the mcp_* helpers). */
  tools: AnyTool[];
  /** Tools that come and go (MCP server tools). */
  sources: ToolSource[];
  skills: Skill[];
  hooks: HookRunner | null;
  mcp: McpManager | null;
  /** ~/.nanohermes/memory.json, unless memory is off. */
  memory: MemoryStore | null;
  /** Skills that learn from work (hints, evidence, review): null when there are no skills and skill_manage is off. */
  skillState: SkillState | null;
  /** The parts of the system prompt they contribute: stable for the session. */
  prompt: { skills: string; agentsMd: string; mcpServers: string[] };
  /** Problems found while loading (bad skill files, unusable servers), shown once as notices. */
  problems: string[];
  mcpStatuses(): McpServerStatus[];
  close(): Promise<void>;
}

export const noExtensions = (): Extensions => ({
  tools: [],
  sources: [],
  skills: [],
  hooks: null,
  mcp: null,
  memory: null,
  skillState: null,
  prompt: { skills: "", agentsMd: "", mcpServers: [] },
  problems: [],
  mcpStatuses: () => [],
  close: async () => {},
});

export interface ExtensionOptions {
  /** Global events (MCP state) go here; their taskId is "". */
  emit(event: BusEvent): void;
  env?: NodeJS.ProcessEnv;
  userHome?: string;
}

/**
 * Contract: never throws for a bad skill, server or AGENTS.md (they become `problems`); MCP
 * servers start connecting in the background and this returns before any of them is ready.
 */
export async function loadExtensions(settings: Settings, opts: ExtensionOptions): Promise<Extensions> {
  // Loaded here, after the UI's first frame, not with the program.
  // What is not configured is not loaded: a one-shot run pays only for what it uses.
  const { hookSpecs } = await import("../config/hooks.js");
  const specs = hookSpecs(settings.hooks);
  const [
    { discoverSkills, EXTERNAL_SKILL_DIRS, skillsPromptSection },
    { skillTool },
    manageModule,
    { loadAgentsMd },
    { sessionSearchTool },
    hooksModule,
    memoryModules,
    { cronTool },
  ] = await Promise.all([
    import("../skills/skills.js"),
    import("../skills/skill-tool.js"),
    settings.skills.manage ? import("../skills/skill-manage.js") : null,
    import("./agents-md.js"),
    import("../session/search-tool.js"),
    specs.length > 0 ? Promise.all([import("../hooks/hooks.js"), import("../tools/process-group.js")]) : null,
    settings.memory.enabled ? Promise.all([import("../memory/store.js"), import("../memory/tools.js")]) : null,
    // The definition only: the ledger and croner load with the tool's first call.
    import("../cron/tool.js"),
  ]);
  const env = opts.env ?? process.env;
  const problems: string[] = [];
  // Instruction files a command changed wait until the user takes them back (issue 26.3): --trust
  // (or the UI's trust question) releases them; until then the workspace's skills folder is skipped.
  const { heldForSession } = await import("../config/instruction-changes.js");
  const held = heldForSession(settings.home, settings.workspace, settings.trustFlag === true);
  const heldWorkspace = EXTERNAL_SKILL_DIRS.filter((d) => held.includes(d));
  for (const dir of heldWorkspace)
    problems.push(
      `${join(settings.workspace, ...dir.split("/"))} was changed by a command, not by you; its skills are left out until you read them and take them back: answer y to the trust question, or rerun once with --trust`,
    );
  const roots = {
    workspace: settings.workspace,
    home: settings.home,
    userHome: opts.userHome ?? homedir(),
    ...(heldWorkspace.length ? { heldWorkspace } : {}),
  };
  const { skills, problems: skillProblems } = discoverSkills(roots);
  problems.push(...skillProblems);
  // The live list: read again after skill_manage changes one (the prompt's index stays as it was).
  let live = skills;
  const evidence = new SkillEvidence(join(settings.home, "sessions.db"));
  const skillState: SkillState | null =
    skills.length > 0 || manageModule
      ? { roots, live: () => live, refresh: () => void (live = discoverSkills(roots).skills), evidence }
      : null;
  const agents = settings.agentsMd
    ? loadAgentsMd({ workspace: settings.workspace, home: settings.home, trusted: settings.trustFlag === true })
    : { text: "", files: [], warnings: [] };
  problems.push(...agents.warnings);
  const hooks = hooksModule
    ? new hooksModule[0].HookRunner(specs, {
        workspace: settings.workspace,
        env: hooksModule[1].commandEnv(env),
        roots: writableRootsOf({ workspace: settings.workspace, writableRoots: settings.sandbox.writableRoots }),
      })
    : null;

  const tools: AnyTool[] =
    skills.length > 0
      ? [
          skillTool(() => live, {
            onLoaded: (skill, sessionId) =>
              evidence.add({ skill, event: "loaded", ...(sessionId ? { sessionId } : {}) }),
          }),
        ]
      : [];
  if (manageModule && skillState)
    tools.push(
      manageModule.skillManageTool({
        roots,
        record: (e) => evidence.add(e),
        changed: () => skillState.refresh(),
      }),
    );
  // Search across sessions: the index (SQLite, loaded on the first search) is opened once.
  let index: Promise<SessionIndex> | null = null;
  const openIndex = async () =>
    (await import("../session/search.js")).SessionIndex.open(join(settings.home, "sessions.db"));
  tools.push(sessionSearchTool(() => (index ??= openIndex()), settings.sessionDir));
  // Scheduled jobs on the daemon; a scheduled run's own task is built without it (daemon/cron-runner.ts).
  tools.push(cronTool({ home: settings.home }));
  const memory = memoryModules ? new memoryModules[0].MemoryStore(join(settings.home, "memory.json")) : null;
  if (memory && memoryModules) tools.push(...memoryModules[1].memoryTools(memory, { workspace: settings.workspace }));
  const sources: ToolSource[] = [];
  let mcp: McpManager | null = null;
  const serverNames = Object.keys(settings.mcpServers);
  if (serverNames.length > 0) {
    const [{ resolveServers }, { McpManager: Manager }, { mcpHelperTools, mcpToolSource }] = await Promise.all([
      import("../config/mcp.js"),
      import("../mcp/manager.js"),
      import("../mcp/tools.js"),
    ]);
    const resolved = resolveServers(settings.mcpServers, { workspace: settings.workspace, env });
    problems.push(...resolved.problems);
    if (resolved.specs.length > 0) {
      mcp = new Manager(resolved.specs, {
        workspace: settings.workspace,
        roots: writableRootsOf({ workspace: settings.workspace, writableRoots: settings.sandbox.writableRoots }),
        logDir: dirname(logPath(settings.home)),
        version: VERSION,
        onChange: (servers) => opts.emit({ type: "mcp.updated", taskId: "", servers }),
      });
      tools.push(...mcpHelperTools(mcp));
      sources.push(mcpToolSource(mcp));
      mcp.start();
    }
  }
  const manager = mcp;
  for (const problem of problems) log("warn", problem);
  // Skill proposals an earlier run left waiting: announced (global) for the UI's Skills tab; their
  // code loads only when there are some.
  if (settings.skills.manage && hasProposals(settings.home))
    void import("./skill-proposal-commands.js").then(({ announceProposals }) =>
      announceProposals(settings.home, opts.emit),
    );
  return {
    tools,
    sources,
    skills,
    hooks,
    mcp: manager,
    memory,
    skillState,
    prompt: {
      // About 2% of the context window (4 characters a token); the hint line names the rest when they matter.
      skills: skillsPromptSection(
        skills,
        Math.floor(
          (settings.contextWindow ?? knownContextWindow(settings.model, settings.models) ?? 128_000) * 4 * 0.02,
        ),
      ),
      agentsMd: agents.text,
      mcpServers: manager ? manager.serverNames() : [],
    },
    problems,
    mcpStatuses: () => manager?.statuses() ?? [],
    close: async () => {
      await manager?.close();
      await evidence.close();
      if (index) (await index.catch(() => null))?.close();
    },
  };
}

/** `/mcp restart [SERVER]`: restarts one configured server or all; why not is said through `say`. */
export async function restartMcp(
  ext: Extensions,
  server: string | undefined,
  say: (level: "warn" | "error", text: string) => void,
): Promise<void> {
  if (!ext.mcp) return say("warn", "no MCP servers are configured (mcpServers in config.json, or --mcp FILE)");
  if (server && !ext.mcp.serverNames().includes(server))
    return say("error", `no MCP server "${server}" (servers: ${ext.mcp.serverNames().join(", ")})`);
  await ext.mcp.restart(server);
}

/** Whether skill proposals wait for an answer (~/.nanohermes/skills/.proposals/*.json). */
function hasProposals(home: string): boolean {
  try {
    return readdirSync(join(home, "skills", ".proposals")).some((name) => name.endsWith(".json"));
  } catch {
    return false;
  }
}
