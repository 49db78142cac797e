// What a tool is: a name, a kind, a zod schema for its arguments, its caps and a handler.
import type { ToolKind } from "../protocol/events.js";
import type { InstructionState } from "../config/instruction-changes.js";
import type { WriteBoundary } from "./paths.js";
import type * as z from "../protocol/zod.js";

/** Contract: what a running tool may use. Everything it touches goes through here or its args. */
export interface ToolContext {
  /** Absolute, real path of the workspace; relative paths resolve against it. */
  workspace: string;
  /** The call being run (a subagent's events name it as their parentCallId). */
  callId?: string;
  /** The call's span as a W3C traceparent, while telemetry is on: requests the tool makes continue the trace. */
  traceparent?: string;
  /** Aborted when the user force-stops the turn (second Ctrl-C), the run is torn down, or the call's deadline passes. */
  signal: AbortSignal;
  /** Live output for the user (not the model): becomes tool.output events. */
  output(stream: "stdout" | "stderr", chunk: string): void;
  /** Where file tools may write (default: the workspace, protected paths excluded). */
  boundary?: WriteBoundary;
  /** How commands are confined (default: not at all). */
  sandbox?: CommandSandbox;
  /** State that lives as long as the session: background jobs, the todo plan. */
  session?: SessionTools;
  /** web_fetch / web_search options from config. */
  web?: WebOptions;
  /** The editor's view of files, where a front end has one (ACP); absent: the disk alone. */
  editorFiles?: EditorFiles;
  /**
   * The arguments as they were asked for, when the policy runs a rewritten form of them (a command
   * trusted as read-only runs with git's repository programs switched off): what the tool reports
   * them as, so the model and the user read back the command they gave.
   */
  asAsked?: Record<string, unknown>;
}

/**
 * Contract: files as the editor has them open, unsaved edits included. read_file, edit_file and
 * apply_patch check the file on disk first (it exists, is a regular text file, its size) and take
 * its text from `readText`; null (the editor does not have it, or cannot say) means the disk's text.
 */
export interface EditorFiles {
  readText(absPath: string, signal: AbortSignal): Promise<string | null>;
  /**
   * Present when the editor takes writes: write_file, edit_file and apply_patch hand it the whole
   * new text of a file (at its canonical path) after the write boundary's and the protected paths'
   * checks, instead of writing the disk. Rejects when the editor does not write it. Not cancelled:
   * a write that has started is seen through, so the tool knows whether it happened.
   */
  writeText?(absPath: string, text: string): Promise<void>;
}

export interface WebOptions {
  /** Let web_fetch reach loopback and private addresses (never cloud metadata). */
  allowPrivate?: boolean;
  search?: { backend: "duckduckgo" | "searxng" | "brave"; url?: string };
}

/** A report a tool makes about session state, turned into a bus event by the engine. */
export type ToolReport =
  | { kind: "todo"; items: { content: string; status: "pending" | "in_progress" | "completed" }[] }
  | {
      kind: "background";
      job: {
        id: string;
        command: string;
        state: "running" | "exited" | "killed" | "failed";
        exitCode: number | null;
        lastLine: string;
        startedAt: string;
      };
    };

/**
 * Contract: one per session (task), created by the engine. Tools keep their long-lived state in
 * `store` under their own key, and tell the user about changes through `report`.
 */
export interface SessionTools {
  store: Map<string, unknown>;
  /** The session's id, where there is a session (tools that keep evidence per session use it). */
  sessionId?: string;
  report(report: ToolReport): void;
  /** Called when the session ends: background jobs are killed here. */
  onClose(cleanup: () => void | Promise<void>): void;
}

/** The command sandbox a tool must run commands under. */
export interface CommandOptions {
  waitOrphans?: boolean;
  network?: boolean;
}

export interface CommandSandbox {
  /** "auto" is decided on the first command: workspace-write where Landlock works, else off. */
  mode: "off" | "auto" | "read-only" | "workspace-write";
  network: boolean;
  writableRoots: string[];
  /**
   * Puts the sandbox launcher in front of a command's argv, or says why it cannot. `waitOrphans`
   * (background jobs): the launcher waits for what the command leaves instead of killing it.
   * `network`: this command gets the network even when commands have none (the gate approved it).
   */
  wrap?: (argv: string[], options?: CommandOptions) => { argv: string[] } | { refused: string };
  /**
   * A command changed instruction files (AGENTS.md, CLAUDE.md, skills folders; issue 26.3): the
   * engine warns the user and records it for the next session (config/instruction-changes.ts).
   */
  instructionsChanged?: (changed: string[], after: InstructionState) => void;
}

/** A tool's answer: what the model sees, and a one-line summary for the user. */
export interface ToolOutput {
  forModel: string;
  display?: string;
  /** The call failed in a way the model should see as an error (e.g. a non-zero exit). */
  isError?: boolean;
}

/** Expected failures: the message goes to the model as an error result. Anything else is a bug. */
export class ToolError extends Error {}

/** A ToolError the write boundary or the command sandbox raised: observers get a sandbox.refused event. */
export class SandboxRefusal extends ToolError {
  constructor(
    message: string,
    readonly refusal: "read-only" | "outside-workspace" | "protected" | "unchecked",
  ) {
    super(message);
  }
}

export interface ToolDef<P extends z.ZodMiniObject = z.ZodMiniObject> {
  name: string;
  kind: ToolKind;
  description: string;
  params: P;
  /** How an oversized result is cut: keep the start (reads, listings) or start and end (command output). */
  truncate?: "head" | "head-tail";
  /** Appended to the truncation note so the model knows how to get the rest. */
  moreHint?: string;
  /** One line describing a call, for the transcript and progress output. */
  summarize(args: z.infer<P>): string;
  /** The JSON schema sent to the model when it is not derived from `params` (MCP tools). */
  inputSchema?: Record<string, unknown>;
  /** Set on tools an MCP server provides: the policy asks about them unless trusted or read-only. */
  mcp?: { server: string; tool: string; readOnly: boolean; trusted: boolean };
  /**
   * How long a call may take before the registry stops waiting for it and tells the model (default:
   * by kind, KIND_DEADLINE_MS in deadline.ts). The tool's signal is aborted at the deadline.
   */
  deadlineMs?(args: z.infer<P>): number;
  /**
   * Contract: finds a call that is bound to fail before anyone is asked about it (an edit whose
   * text is not in the file) and throws a ToolError saying why, for the model. It runs before the
   * PreToolUse hooks and the approval question, reads at most, and never changes anything; `run`
   * checks again, since the file may change while the question waits.
   */
  precheck?(args: z.infer<P>, ctx: PrecheckContext): Promise<void>;
  /**
   * Per call, for a tool whose actions differ in weight (cron: `list` reads, `create` leaves work
   * that runs later with nobody watching). "reads" passes the gate like a read tool; "schedules"
   * is asked about under every policy and mode but --yolo, like a dangerous command, and plan mode
   * refuses it; an "always" answer or `--allow tool:NAME` covers the tool, for the task only.
   * Absent: the tool's kind decides.
   */
  effect?(args: z.infer<P>): "reads" | "schedules";
  run(args: z.infer<P>, ctx: ToolContext): Promise<string | ToolOutput>;
}

/** What a pre-check may use: where paths resolve, where writes may go, and the editor's text of files. */
export type PrecheckContext = Pick<ToolContext, "workspace" | "boundary" | "signal" | "editorFiles">;

/** Erases the parameter type so tools of different shapes can live in one list. */
export type AnyTool = ToolDef<z.ZodMiniObject>;

export function defineTool<P extends z.ZodMiniObject>(def: ToolDef<P>): AnyTool {
  return def as unknown as AnyTool;
}
