// Wires an Agent for a task: settings, tools, model client, system prompt and session file.
// Every front end (one-shot, TUI, daemon) builds its agents here.
import type { Settings } from "../config/schema.js";
import type { BusEvent, PermissionMode } from "../protocol/events.js";
import { loadSession, newSession, newSessionId, sessionFileFor, type LoadedSession } from "../session/store.js";
import { lockSession, probeWritable } from "../session/session-lock.js";
import { sweepTempFiles } from "../session/temp-sweep.js";
import { repairToolPairs } from "../session/repair.js";
import { builtinTools } from "../tools/index.js";
import { ToolRegistry } from "../tools/registry.js";
import { Agent } from "./agent.js";
import type { ModelClient } from "./model-client.js";
import { createProviderClient, fallbackRoutes } from "./providers/client.js";
import { buildSystemPrompt } from "./prompt.js";
import { commandSandbox, writeBoundary } from "./confinement.js";
import { noExtensions, type Extensions } from "./extensions.js";
import { contextBudget } from "./compaction.js";
import { knownContextWindow } from "./providers/models.js";
import { dirname, join } from "node:path";
import type { ChildAgent, SpawnRequest } from "./subagents.js";
import { lazyCheckpoints } from "./checkpointing.js";
import type { AnyTool, EditorFiles } from "../tools/define.js";
import type { ToolSource } from "../tools/registry.js";
import { Gate, gateState, UNATTENDED_APPROVAL, type Asker, type GateState } from "./gate.js";

/** A child's system prompt: the usual one, then its role. */
function childPrompt(base: string, request: SpawnRequest): string {
  return [
    base,
    "",
    "# Your role",
    `You are the subagent "${request.name}" (${request.agentId}), started by another agent to do one task. The user does not see your messages: only your final answer goes back to the agent that delegated to you, so end with a complete, self-contained answer.`,
    "",
    request.def.prompt,
  ].join("\n");
}

/** Only the tools `pick` allows from a dynamic source (MCP). */
function filteredSource(source: ToolSource, pick: (tool: AnyTool) => boolean): ToolSource {
  return { version: source.version, tools: () => source.tools().filter(pick) };
}

export interface EngineOptions {
  settings: Settings;
  taskId: string;
  emit(event: BusEvent): void;
  /** Resume/save here; default: a new file in the session folder. */
  sessionFile?: string;
  client?: ModelClient;
  mode?: PermissionMode;
  /**
   * What the gate reads at every call (the task manager passes its task, so mode and policy
   * changes apply at once). Default: the settings' policy (else never), mode and saved rules.
   */
  gateState?: GateState;
  /** Someone to ask when a call needs approval; without one, such a call is refused. */
  asker?: Asker | null;
  takeSteering?: () => string[];
  /** The editor's view of files (an ACP client's fs/read_text_file): read_file's text comes from it. */
  editorFiles?: EditorFiles;
  /** MCP servers, skills, hooks and AGENTS.md, shared by every task of the process. */
  extensions?: Extensions;
  /** A call's span as a traceparent while telemetry is on (src/telemetry/): for the task and its subagents. */
  traceparent?: (callId: string) => string | undefined;
}

export async function createAgent(options: EngineOptions): Promise<Agent> {
  const { settings, taskId, emit } = options;
  const ext = options.extensions ?? noExtensions();
  const config = settings.subagents;
  // Children are built by the same parts as their parent (client, sandbox, policy, hooks).
  let spawn: (request: SpawnRequest) => ChildAgent = () => {
    throw new Error("subagents are not ready");
  };
  // Subagents, checkpoints and memory load with the first agent, not with the program.
  const wantsSubagents = config !== undefined && Object.keys(config.agents).length > 0;
  const [subagentsModule, memoryModule, skillsModule] = await Promise.all([
    wantsSubagents ? import("./subagents.js") : null,
    ext.memory ? import("./memory-hooks.js") : null,
    ext.skillState ? import("./skill-hooks.js") : null,
  ]);
  const subagents =
    subagentsModule && config
      ? new subagentsModule.Subagents({ config, taskId, emit, spawn: (request) => spawn(request) })
      : null;
  const tools = new ToolRegistry([...builtinTools(), ...ext.tools, ...(subagents?.tools(0) ?? [])], ext.sources);
  const opened = await openSession(
    settings,
    options.sessionFile ?? sessionFileFor(settings.sessionDir, newSessionId()),
  );
  const { loaded, sessionFile } = opened;
  if (loaded.warning) emit({ type: "notice", taskId, level: "warn", text: loaded.warning });
  // A history with a call and no result (or a result and no call) is refused by providers whole.
  const repaired = repairToolPairs(loaded.data.messages);
  if (repaired.added + repaired.dropped > 0) {
    emit({
      type: "notice",
      taskId,
      level: "warn",
      text: `the session's history was repaired: ${repaired.added} tool call(s) without a result got an [interrupted] result, ${repaired.dropped} result(s) without a call were dropped`,
    });
  }
  const sandbox = commandSandbox(settings, (text) => {
    emit({ type: "sandbox.notice", taskId, text });
    emit({ type: "notice", taskId, level: "warn", text });
  });
  // Every call of this agent and its children passes this one gate, whichever front end runs it.
  const gate = new Gate({
    settings,
    state: options.gateState ?? gateState(settings, UNATTENDED_APPROVAL),
    asker: options.asker ?? null,
    taskId,
    emit,
  });
  const checkpoints = lazyCheckpoints({
    dir: join(settings.home, "checkpoints", loaded.data.id),
    roots: [settings.workspace, ...settings.sandbox.writableRoots],
  });
  const client = options.client ?? createProviderClient(settings);
  // Settings from the loader always carry the list (--fallback-model first); hand-made ones may not.
  const fallbacks = settings.fallback ? fallbackRoutes(settings) : undefined;
  const agent = new Agent({
    taskId,
    settings,
    client,
    ...(fallbacks ? { fallbacks } : {}),
    tools,
    emit,
    session: loaded.data,
    sessionFile,
    systemPrompt: systemPromptFor(settings, options.mode ?? "default", ext),
    gate,
    ...(options.takeSteering ? { takeSteering: options.takeSteering } : {}),
    sandbox,
    boundary: writeBoundary(settings),
    web: settings.web,
    ...(options.editorFiles ? { editorFiles: options.editorFiles } : {}),
    hooks: ext.hooks,
    ...(options.traceparent ? { traceparent: options.traceparent } : {}),
    contextBudget: contextBudget(settings.contextWindow ?? knownContextWindow(settings.model, settings.models)),
    checkpoints,
    ...(ext.skillState && skillsModule
      ? {
          skills: skillsModule.skillHooks({
            state: ext.skillState,
            settings: settings.skills,
            client,
            reviewModel: () => settings.skills.reviewModel ?? agent.model,
            taskId,
            emit,
          }),
        }
      : {}),
    ...(ext.memory && memoryModule
      ? {
          memory: memoryModule.memoryHooks({
            store: ext.memory,
            client,
            model: () => agent.model,
            topK: settings.memory.topK,
            distill: settings.memory.distill,
            workspace: settings.workspace,
            emit,
          }),
        }
      : {}),
  });
  if (subagents) {
    agent.subagents = subagents;
    agent.onStop((stop) => subagents.stop(undefined, stop));
    spawn = (request) => {
      const allowed = request.def.allowed_tools ? new Set(request.def.allowed_tools) : null;
      const pick = (tool: AnyTool) => !allowed || allowed.has(tool.name);
      const childTools = new ToolRegistry(
        [...builtinTools(), ...ext.tools, ...subagents.tools(request.depth)].filter(pick),
        ext.sources.map((source) => filteredSource(source, pick)),
      );
      const model = request.def.model ?? agent.model;
      const who = { agentId: request.agentId, name: request.name, waiting: request.waiting };
      return new Agent({
        taskId,
        agentId: request.agentId,
        settings: { ...settings, model, maxIterations: request.def.max_iterations ?? settings.maxIterations },
        client,
        ...(fallbacks ? { fallbacks } : {}),
        tools: childTools,
        emit: (raw) => {
          // Observers tie a child's events to the task and the call that delegated (issue 32).
          const event: BusEvent = {
            ...raw,
            parentTaskId: taskId,
            ...(request.parentCallId ? { parentCallId: request.parentCallId } : {}),
          };
          request.observe(event);
          emit(event);
        },
        session: newSession(settings.workspace, model),
        sessionFile: null,
        systemPrompt: childPrompt(
          systemPromptFor(settings, options.mode ?? "default", ext, childTools.names()),
          request,
        ),
        // The parent's gate, its questions labelled with the child that asks.
        gate: { authorize: (tool, args, call) => gate.authorize(tool, args, call, who) },
        sandbox,
        boundary: writeBoundary(settings),
        web: settings.web,
        ...(options.editorFiles ? { editorFiles: options.editorFiles } : {}),
        hooks: ext.hooks,
        ...(options.traceparent ? { traceparent: options.traceparent } : {}),
        ...(options.traceparent ? { traceparent: options.traceparent } : {}),
        checkpoints,
        checkpointTurn: () => agent.turnOrdinal(),
      });
    };
  }
  // Last: a cleanup registered later (background jobs) still runs before the session is let go.
  agent.sessionTools.onClose(() => opened.workspaceSweep);
  agent.sessionTools.onClose(opened.release);
  // A resumed session's earlier file changes, for the per-turn view and /rewind.
  if (loaded.resumed) void agent.reportCheckpoints();
  emit({
    type: "session.started",
    taskId,
    sessionId: loaded.data.id,
    sessionFile,
    workspace: settings.workspace,
    model: settings.model,
    resumed: loaded.resumed,
    messages: agent.messages.length,
  });
  return agent;
}

/**
 * Takes the session's lock, reads it, and clears temp files a killed run left. A file this
 * version must not overwrite (see loadSession's `frozen`) is read, left alone, and the session
 * goes on in a new file, with a warning that says where; so does one that cannot be read at all.
 * Contract: rejects (SessionBusyError, SessionUnwritableError) with no lock held.
 */
async function openSession(
  settings: Settings,
  requested: string,
): Promise<{
  loaded: LoadedSession;
  sessionFile: string;
  release: () => Promise<void>;
  workspaceSweep: Promise<void>;
}> {
  let sessionFile = requested;
  let release = await lockSession(sessionFile);
  try {
    let loaded = await loadSession(sessionFile, settings.workspace, settings.model);
    if (loaded.frozen) {
      const forked = await forkRefused(settings, requested, loaded, release);
      ({ loaded, sessionFile, release } = forked);
    }
    // A folder that cannot take a file (full, over quota) is found now, before a model call is spent.
    await probeWritable(dirname(sessionFile));
    await sweepTempFiles(
      [settings.home, settings.sessionDir, dirname(sessionFile)],
      [join(settings.home, "checkpoints", loaded.data.id)],
    );
    // The workspace may be large: its sweep goes on in the background and close() waits for it.
    const workspaceSweep = sweepTempFiles([], [settings.workspace]).then(() => {});
    return { loaded, sessionFile, release, workspaceSweep };
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * A session file that must not be written over (`loaded.frozen`): the run goes on in the fork made
 * the first time it was refused (recorded in src/session/forks.ts) when that fork is still there
 * and usable, else in a new fork, which is recorded. Holds the fork's lock and lets go of the
 * refused file's. Contract: rejects (SessionBusyError when the fork is in use) with the refused
 * file's lock still held, for the caller to release.
 */
async function forkRefused(
  settings: Settings,
  requested: string,
  refused: LoadedSession,
  releaseRefused: () => Promise<void>,
): Promise<{ loaded: LoadedSession; sessionFile: string; release: () => Promise<void> }> {
  const why = `session ${requested} is not overwritten: ${refused.frozen}`;
  const say = (loaded: LoadedSession, note: string) => {
    loaded.warning = loaded.warning ? `${loaded.warning}; ${note}` : note;
  };
  // Loaded here only: a refused file is rare.
  const { recordedFork, recordFork } = await import("../session/forks.js");
  const earlier = await recordedFork(settings.sessionDir, requested);
  if (earlier) {
    const release = await lockSession(earlier);
    const loaded = await loadSession(earlier, settings.workspace, settings.model).catch(() => null);
    if (loaded && !loaded.frozen && loaded.resumed) {
      await releaseRefused();
      say(loaded, `${why}. This run goes on in ${earlier}, where it was saved when first refused`);
      return { loaded, sessionFile: earlier, release };
    }
    await release();
  }
  const id = newSessionId();
  const fork = sessionFileFor(settings.sessionDir, id);
  const release = await lockSession(fork);
  await releaseRefused();
  refused.data.id = id;
  const read = refused.data.messages.length;
  say(refused, `${why}. ${read > 0 ? `Read ${read} message(s) of it; this` : "This"} run is saved as ${fork}`);
  // Remembered, so the next load of the same file goes on here rather than in one more fork.
  await recordFork(settings.sessionDir, requested, fork).catch((error: unknown) =>
    say(refused, `where it went cannot be remembered (${(error as Error).message}): the next run on it forks again`),
  );
  return { loaded: refused, sessionFile: fork, release };
}

/** The system prompt for a task in `mode` (rebuilt when the mode changes). */
export function systemPromptFor(
  settings: Settings,
  mode: PermissionMode,
  ext: Extensions = noExtensions(),
  toolNames?: string[],
): string {
  return buildSystemPrompt({
    workspace: settings.workspace,
    toolNames: toolNames ?? [...builtinTools(), ...ext.tools].map((t) => t.name),
    mode,
    skills: ext.prompt.skills,
    agentsMd: ext.prompt.agentsMd,
    mcpServers: ext.prompt.mcpServers,
  });
}
