// Drives `nanohermes acp` as an editor would: the ACP SDK's client app over the child's real
// stdio pipes, every session/update recorded in arrival order (with the answers interleaved).
import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { CLI } from "./cli.js";
import { waitFor } from "./wait.js";

export type PermissionAnswer = (
  request: acp.RequestPermissionRequest,
  signal: AbortSignal,
) => Promise<acp.RequestPermissionResponse>;

export interface AcpChild {
  child: ChildProcess;
  agent: acp.ClientContext;
  /** Updates, and markers the test adds ("answered session/new"), in the order they happened. */
  log: ({ kind: "update"; sessionId: string; update: acp.SessionUpdate } | { kind: "mark"; text: string })[];
  permissions: acp.RequestPermissionRequest[];
  /** The editor's buffers by absolute path, for fs/read_text_file; every read is recorded. */
  buffers: Map<string, string>;
  reads: string[];
  /** Every fs/write_text_file, in order; each replaces the buffer (nothing is saved to disk). */
  writes: { path: string; content: string }[];
  /** What the client answers to session/request_permission (replaceable between prompts). */
  answer: PermissionAnswer;
  stderr: () => string;
  updates(sessionId: string): acp.SessionUpdate[];
  mark(text: string): void;
  stop(): Promise<void>;
}

export const select = (optionId: string): acp.RequestPermissionResponse => ({
  outcome: { outcome: "selected", optionId },
});

/** The option of `kind` the request offers (the test answers by kind, as a user picks a button). */
export function optionOf(request: acp.RequestPermissionRequest, kind: acp.PermissionOptionKind): string {
  const option = request.options.find((o) => o.kind === kind);
  if (!option) throw new Error(`no ${kind} option in ${JSON.stringify(request.options)}`);
  return option.optionId;
}

export function startAcp(env: Record<string, string | undefined>, args: string[] = []): AcpChild {
  const child = spawn(process.execPath, [CLI, "acp", ...args], {
    env: env as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const self: AcpChild = {
    child,
    agent: null as unknown as acp.ClientContext,
    log: [],
    permissions: [],
    buffers: new Map(),
    reads: [],
    writes: [],
    answer: async () => ({ outcome: { outcome: "cancelled" } }),
    stderr: () => stderr,
    updates: (sessionId) =>
      self.log.flatMap((e) => (e.kind === "update" && e.sessionId === sessionId ? [e.update] : [])),
    mark: (text) => self.log.push({ kind: "mark", text }),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.stdin?.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
  const app = acp
    .client({ name: "test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      self.log.push({ kind: "update", sessionId: params.sessionId, update: params.update });
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params, signal }) => {
      self.permissions.push(params);
      return self.answer(params, signal);
    })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
      self.reads.push(params.path);
      const text = self.buffers.get(params.path);
      if (text === undefined) throw acp.RequestError.resourceNotFound(params.path);
      return { content: text };
    })
    .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
      self.writes.push({ path: params.path, content: params.content });
      self.buffers.set(params.path, params.content);
      return {};
    });
  const connection = app.connect(
    acp.ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    ),
  );
  self.agent = connection.agent;
  return self;
}

/** Answers initialize as an editor offering fs/read_text_file (`readsFiles`) and fs/write_text_file (`writesFiles`). */
export async function initialize(
  c: AcpChild,
  readsFiles = false,
  writesFiles = false,
): Promise<acp.InitializeResponse> {
  return c.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: readsFiles, writeTextFile: writesFiles }, terminal: false },
    clientInfo: { name: "test-editor", version: "1" },
  });
}

/** Resolves once `predicate` holds for the log (polled; the updates arrive on the child's pipe). */
export async function until(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  await waitFor(predicate, { what, timeoutMs });
}
