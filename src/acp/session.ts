// One ACP session: a task of its own TaskManager (the engine's gate, asker and turn loop, driven by
// bus commands), its events sent to the client as session updates, the gate's questions asked as
// session/request_permission, and one prompt at a time.
import { promises as fs } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type {
  ContentBlock,
  RequestPermissionRequest,
  RequestPermissionResponse,
  SessionUpdate,
  StopReason,
} from "@agentclientprotocol/sdk";
import type { Agent } from "../agent/agent.js";
import type { Extensions } from "../agent/extensions.js";
import type { ModelClient } from "../agent/model-client.js";
import type { EditorFiles } from "../tools/define.js";
import { modelInfo } from "../agent/providers/models.js";
import { TaskManager } from "../agent/tasks.js";
import { observe, type Observers } from "../telemetry/observers.js";
import { loadCustomCommands, type CustomCommand } from "../config/custom-commands.js";
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";
import { isTrusted } from "../config/trust.js";
import { Bus } from "../protocol/bus.js";
import type { ApprovalPolicy, BusEvent, EventOf, PermissionMode } from "../protocol/events.js";
import { SessionStateError, TurnError } from "./errors.js";
import { availableCommands, parseSlash, type SlashAction } from "./commands.js";
import { configOptions, modeState, type SessionChoices } from "./options.js";
import { permissionRequest, rejectKey, replyFor } from "./permission.js";
import { turnInput } from "./prompt-content.js";
import { UpdateTranslator, acpKind, replayUpdates } from "./updates.js";

const userHome = (): string | null => {
  try {
    return homedir();
  } catch {
    return null;
  }
};

/** What a session needs of the connection: send an update, ask a question. */
export interface ClientPort {
  update(sessionId: string, update: SessionUpdate): void;
  /** Aborting `signal` withdraws the question (the turn stopped). */
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>;
  /** The client shows `notice` updates. */
  notices: boolean;
  /** The client reads files for us (fs/read_text_file): its buffers, unsaved edits included. */
  readsFiles: boolean;
  /** The file as the client has it; rejects when it cannot say. */
  readTextFile(sessionId: string, path: string, signal: AbortSignal): Promise<string>;
  /** The client writes files for us (fs/write_text_file): into its buffers, which it saves as it does. */
  writesFiles: boolean;
  /** Hands the client a file's whole new text; rejects when it did not write it. */
  writeTextFile(sessionId: string, path: string, content: string): Promise<void>;
}

export interface AcpSessionOptions {
  id: string;
  sessionFile: string;
  settings: Settings;
  extensions: Promise<Extensions>;
  client: ClientPort;
  modelClient?: ModelClient;
  /** OpenTelemetry and the telemetry file, watching this session's bus (issue 32). */
  observers?: Observers | null;
}

export class AcpSession {
  readonly id: string;
  readonly settings: Settings;
  private readonly bus: Bus;
  private readonly manager: TaskManager;
  private readonly translator: UpdateTranslator;
  private readonly opts: AcpSessionOptions;
  /** Questions out at the client, by request id: aborted when the gate withdraws them. */
  private readonly asking = new Map<string, AbortController>();
  /** What "reject always" answers refuse without asking again, for this session. */
  private readonly rejected = new Set<string>();
  private turn: { completed: EventOf<"turn.completed"> | null; failure: string | null } | null = null;
  private busy = false;
  private cancelled = false;
  private closed = false;
  private model: string;

  constructor(opts: AcpSessionOptions) {
    this.opts = opts;
    this.id = opts.id;
    this.settings = opts.settings;
    this.model = opts.settings.model;
    this.bus = new Bus({ onHandlerError: (error) => log("error", "acp: bus handler threw", error) });
    this.manager = new TaskManager({
      ...observe(opts.observers ?? null, this.bus),
      settings: opts.settings,
      bus: this.bus,
      // The client is asked while the session is open; a closed one refuses what would ask.
      interactive: () => !this.closed,
      approval: opts.settings.approval ?? "on-request",
      mode: opts.settings.mode,
      extensions: opts.extensions,
      ...(opts.modelClient ? { client: opts.modelClient } : {}),
      ...(opts.client.readsFiles || opts.client.writesFiles ? { editorFiles: this.editorFiles(opts.client) } : {}),
    });
    this.translator = new UpdateTranslator({
      workspace: opts.settings.workspace,
      mode: opts.settings.mode,
      contextWindow: () => modelInfo(this.model, opts.settings.models).contextWindow,
      notices: opts.client.notices,
    });
    this.manager.add(this.id, { sessionFile: opts.sessionFile });
    this.bus.subscribe((event) => this.onEvent(event));
  }

  /**
   * The file tools' view of the editor: the disk's checks and the write boundary come first, then
   * the text is read from (fs/read_text_file) or handed to (fs/write_text_file) the editor, each
   * only where the client offers it; otherwise the disk.
   */
  private editorFiles(client: ClientPort): EditorFiles {
    return {
      readText: client.readsFiles ? (abs, signal) => client.readTextFile(this.id, abs, signal) : async () => null,
      ...(client.writesFiles
        ? { writeText: (abs: string, text: string) => client.writeTextFile(this.id, abs, text) }
        : {}),
    };
  }

  /** Loads the session file (taking its lock); rejects when another run holds it. */
  open(): Promise<Agent> {
    return this.manager.agentFor(this.id);
  }

  choices(): SessionChoices {
    const snapshot = this.manager.snapshotOf(this.id);
    return {
      mode: snapshot?.mode ?? this.settings.mode,
      model: snapshot?.model ?? this.model,
      approval: snapshot?.approval ?? this.settings.approval ?? "on-request",
      models: Object.keys(this.settings.models ?? {}),
    };
  }

  get modes() {
    return modeState(this.choices().mode);
  }

  get configOptions() {
    return configOptions(this.choices());
  }

  /** The saved conversation as updates (session/load). */
  async replay(): Promise<void> {
    const agent = await this.open();
    for (const update of replayUpdates(agent.loadedView().transcript, this.settings.workspace))
      this.opts.client.update(this.id, update);
  }

  /** The slash commands, skills included, once extensions are loaded. */
  async announceCommands(): Promise<void> {
    const ext = await this.opts.extensions;
    this.opts.client.update(this.id, {
      sessionUpdate: "available_commands_update",
      availableCommands: availableCommands(this.customCommands(), ext.skills),
    });
  }

  private customCommands(): CustomCommand[] {
    return loadCustomCommands({
      workspace: this.settings.workspace,
      home: this.settings.home,
      userHome: userHome(),
      trusted: isTrusted(this.settings.home, this.settings.workspace),
    });
  }

  private onEvent(event: BusEvent): void {
    if (event.taskId !== this.id) return;
    if (event.type === "approval.requested") void this.ask(event);
    if (event.type === "approval.resolved" && event.decision === "cancelled") this.asking.get(event.requestId)?.abort();
    if (event.type === "turn.completed" && event.agentId === undefined && this.turn) this.turn.completed ??= event;
    if (event.type === "notice" && event.level === "error" && this.turn) this.turn.failure ??= event.text;
    for (const update of this.translator.translate(event)) this.opts.client.update(this.id, update);
  }

  /** The gate's question to the client; its answer (or its silence, once the turn stops) goes back as approval.reply. */
  private async ask(q: EventOf<"approval.requested">): Promise<void> {
    const reply = (decision: "once" | "always" | "deny", extra: { note?: string; scope?: "task" | "workspace" } = {}) =>
      this.bus.send({ type: "approval.reply", taskId: this.id, requestId: q.requestId, decision, ...extra });
    if (this.rejected.has(rejectKey(q)))
      return reply("deny", { note: "the user chose to reject such calls for this session" });
    const announce = this.translator.pending(q.callId, q.title, acpKind(q.tool, q.kind), q.detail);
    if (announce) this.opts.client.update(this.id, announce);
    const withdrawn = new AbortController();
    this.asking.set(q.requestId, withdrawn);
    let response: RequestPermissionResponse;
    try {
      response = await this.opts.client.requestPermission(permissionRequest(this.id, q), withdrawn.signal);
    } catch (error) {
      if (!withdrawn.signal.aborted) log("warn", "acp: a permission request failed", error);
      response = { outcome: { outcome: "cancelled" } };
    } finally {
      this.asking.delete(q.requestId);
    }
    // Withdrawn: the gate already has its denial; a late answer changes nothing.
    if (withdrawn.signal.aborted) return;
    const answer = replyFor(response);
    if (answer.rejectAlways) this.rejected.add(rejectKey(q));
    reply(answer.decision, {
      ...(answer.note ? { note: answer.note } : {}),
      ...(answer.scope ? { scope: answer.scope } : {}),
    });
  }

  /**
   * Runs one prompt to its end. Contract: rejects with SessionStateError while another prompt runs,
   * PromptContentError for content we do not take, TurnError when the turn failed.
   */
  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.busy || this.manager.isRunning(this.id))
      throw new SessionStateError(`a prompt is already running in session ${this.id}`);
    this.busy = true;
    this.cancelled = false;
    const uploads = join(this.settings.home, "acp-uploads", this.id);
    let images: string[] = [];
    try {
      const input = await turnInput(blocks, uploads);
      images = input.images;
      const ext = await this.opts.extensions;
      const slash = images.length === 0 ? parseSlash(input.text, this.customCommands(), ext.skills) : null;
      if (slash && slash.kind !== "prompt") return await this.sessionCommand(slash);
      await this.open();
      if (this.cancelled) return "cancelled";
      const text = slash?.kind === "prompt" ? slash.text : input.text;
      const model = slash?.kind === "prompt" ? slash.model : undefined;
      const turn: NonNullable<AcpSession["turn"]> = { completed: null, failure: null };
      this.turn = turn;
      this.bus.send({ type: "user.submit", taskId: this.id, text, images, ...(model ? { model } : {}) });
      const running = this.manager.turn(this.id);
      if (!running) throw new TurnError(turn.failure ?? "the turn did not start");
      await running;
      const done = turn.completed as EventOf<"turn.completed"> | null;
      if (!done) throw new TurnError(turn.failure ?? "the turn ended without a result");
      switch (done.reason) {
        case "completed":
          return "end_turn";
        case "interrupted":
          return "cancelled";
        case "max_iterations":
          return "max_turn_requests";
        case "error":
          throw new TurnError(done.error ?? "the turn failed");
        default:
          return done.reason satisfies never;
      }
    } finally {
      this.turn = null;
      this.busy = false;
      await Promise.all(images.map((f) => fs.rm(f, { force: true })));
    }
  }

  /** /compact, /undo, /clear: done by the engine between turns, reported as one message. */
  private async sessionCommand(action: Exclude<SlashAction, { kind: "prompt" }>): Promise<StopReason> {
    const agent = await this.open();
    const say = (text: string) =>
      this.opts.client.update(this.id, { sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
    if (action.kind === "compact") {
      const result = await agent.compactHistory({ forced: true, ...(action.focus ? { focus: action.focus } : {}) });
      if (result === "done") await agent.save();
      say(result === "done" ? "Older messages were folded into a summary." : "Nothing to compact.");
      return "end_turn";
    }
    const loaded = new Promise<void>((resolve) => {
      const off = this.bus.subscribe((event) => {
        if (event.taskId === this.id && event.type === "session.loaded") {
          off();
          resolve();
        }
      });
    });
    this.bus.send(
      action.kind === "undo"
        ? { type: "session.undo", taskId: this.id, n: action.n }
        : { type: "session.clear", taskId: this.id },
    );
    await loaded;
    say(action.kind === "undo" ? `Dropped the last ${action.n === 1 ? "turn" : `${action.n} turns`}.` : "Cleared.");
    return "end_turn";
  }

  /** session/cancel: the turn stops at its next step boundary (Ctrl-C's contract); open questions are withdrawn. */
  cancel(): void {
    if (!this.busy) return;
    this.cancelled = true;
    this.bus.send({ type: "turn.interrupt", taskId: this.id });
  }

  setMode(mode: PermissionMode): void {
    this.bus.send({ type: "config.update", taskId: this.id, mode });
  }

  setApproval(approval: ApprovalPolicy): void {
    this.bus.send({ type: "config.update", taskId: this.id, approval });
  }

  setModel(model: string): void {
    this.model = model;
    this.bus.send({ type: "config.update", taskId: this.id, model });
  }

  get running(): boolean {
    return this.busy;
  }

  /** Stops the turn (its commands killed), saves the session and lets its file go. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const withdrawn of this.asking.values()) withdrawn.abort();
    await this.manager.shutdown();
  }
}
