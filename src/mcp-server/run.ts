// `nanohermes mcp-server`: NanoHermes as a tool of another agent (Claude Code, Codex, any MCP
// client), an MCP server on stdin/stdout with nanohermes_run / _reply / _status / _cancel. Progress
// goes out as MCP progress notifications; a question the gate would ask is put to the client by
// elicitation where it offers it, else refused. stdout carries the protocol only.
import { Transform, type Writable } from "node:stream";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Answer, Asker, Question } from "../agent/gate.js";
import type { ModelClient } from "../agent/model-client.js";
import type { Flags } from "../config/flags.js";
import { startObservers, type Observers } from "../telemetry/observers.js";
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";
import { approvalPolicies } from "../protocol/enums.js";
import * as z from "../protocol/zod.js";
import { VERSION } from "../version.js";
import { type RunOptions, Threads, type TurnResult } from "./threads.js";
import { setLockRole } from "../session/session-lock.js";

export interface McpServerIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Warnings and a refused start (stdout carries the protocol). */
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

const turnShape = {
  threadId: z.string(),
  response: z.string(),
  reason: z.enum(["completed", "interrupted", "max_iterations", "error"]),
  error: z.optional(z.string()),
  changedFiles: z.array(z.string()),
  usage: z.object({ prompt: z.number(), completion: z.number() }),
};

const turnResult = (r: TurnResult) => ({
  content: [{ type: "text" as const, text: r.response || (r.error ? `(${r.reason}: ${r.error})` : `(${r.reason})`) }],
  structuredContent: { ...r },
  ...(r.reason === "error" ? { isError: true } : {}),
});

/**
 * Lines that are not JSON get a JSON-RPC parse error (-32700) here; the SDK's transport would only
 * drop them, leaving the client waiting. Each write is one whole line, as the transport's are.
 */
function parseGuard(stdout: NodeJS.WritableStream): Transform {
  let rest = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = (rest + chunk.toString("utf8")).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        if (line.trim() === "") continue;
        try {
          JSON.parse(line);
          this.push(`${line}\n`);
        } catch {
          stdout.write(
            `${JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } })}\n`,
          );
        }
      }
      done();
    },
  });
}

/** The gate's question as an elicitation form: one choice. */
async function elicit(server: McpServer, q: Question): Promise<Answer> {
  const result = await server.server.elicitInput({
    mode: "form",
    message: `NanoHermes asks: ${q.title}\n${q.reason}\n\n${q.detail}`,
    requestedSchema: {
      type: "object",
      properties: {
        decision: {
          type: "string",
          title: "Allow this call?",
          enum: ["allow once", "allow for this thread", "deny"],
        },
      },
      required: ["decision"],
    },
  });
  const decision = result.action === "accept" ? result.content?.decision : undefined;
  if (decision === "allow once") return { decision: "once" };
  if (decision === "allow for this thread") return { decision: "always", scope: "task" };
  return { decision: "deny", reason: "the user denied this call" };
}

/** Serves one MCP client on `io` until its input ends; resolves with the exit code. */
export async function runMcpServer(
  settings: Settings,
  flags: Flags,
  io: McpServerIO,
  modelClient?: ModelClient,
): Promise<number> {
  setLockRole("mcp-server");
  const server = new McpServer({ name: "nanohermes", version: VERSION }, { capabilities: { logging: {} } });
  const asker: Asker = {
    present: () => Boolean(server.server.getClientCapabilities()?.elicitation),
    ask: (q) => elicit(server, q),
  };
  // Observers (issue 32): OpenTelemetry and --telemetry-file, for every thread's events.
  let observers: Observers;
  try {
    observers = await startObservers(settings, flags, io.env, "", (text) => io.stderr.write(`warning: ${text}\n`));
  } catch (error) {
    io.stderr.write(`nanohermes mcp-server: ${(error as Error).message}\n`);
    return 2;
  }
  const threads = new Threads({ flags, env: io.env, asker, observers, ...(modelClient ? { modelClient } : {}) });

  /** Progress lines for a call that asked for them (it sent a progressToken). */
  const progressOf = (extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => {
    const token = extra._meta?.progressToken;
    let n = 0;
    return (message: string) => {
      if (token === undefined) return;
      n++;
      void extra
        .sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: n, message } })
        .catch(() => {});
    };
  };

  server.registerTool(
    "nanohermes_run",
    {
      title: "Run NanoHermes",
      description:
        "Start a NanoHermes coding-agent thread in `cwd` and run one turn of `prompt`. Returns the answer, the thread id (for nanohermes_reply), the files the turn changed and the tokens used. File edits need sandbox 'workspace-write' (default 'read-only'); calls that would need approval are refused unless `approval` allows them (never: run what the policy allows; the blocklist always holds).",
      inputSchema: {
        prompt: z.string().check(z.minLength(1)),
        cwd: z.optional(z.string()).check(z.describe("The workspace (default: the server's folder).")),
        model: z.optional(z.string().check(z.minLength(1))),
        approval: z.optional(z.enum(approvalPolicies)),
        sandbox: z
          .optional(z.enum(["read-only", "workspace-write"]))
          .check(
            z.describe(
              "read-only (default): no file is written; workspace-write: edits and commands may write the workspace.",
            ),
          ),
      },
      outputSchema: turnShape,
    },
    async (args, extra) => {
      const run: RunOptions = {
        cwd: args.cwd ?? settings.workspace,
        ...(args.model ? { model: args.model } : {}),
        ...(args.approval ? { approval: args.approval } : {}),
        ...(args.sandbox ? { sandbox: args.sandbox } : {}),
      };
      const id = threads.create(run);
      const progress = progressOf(extra);
      progress(`thread ${id} started`);
      return turnResult(await threads.turn(id, args.prompt, progress, extra.signal));
    },
  );

  server.registerTool(
    "nanohermes_reply",
    {
      title: "Reply in a NanoHermes thread",
      description: "Run the next turn of a thread nanohermes_run started, with the conversation so far.",
      inputSchema: { threadId: z.string(), prompt: z.string().check(z.minLength(1)) },
      outputSchema: turnShape,
    },
    async (args, extra) => turnResult(await threads.turn(args.threadId, args.prompt, progressOf(extra), extra.signal)),
  );

  server.registerTool(
    "nanohermes_status",
    {
      title: "NanoHermes thread status",
      description: "Whether the thread runs a turn now, its workspace, model, policy, turns, last answer and tokens.",
      inputSchema: { threadId: z.string() },
    },
    async (args) => {
      const status = threads.status(args.threadId);
      return { content: [{ type: "text", text: JSON.stringify(status) }], structuredContent: { ...status } };
    },
  );

  server.registerTool(
    "nanohermes_cancel",
    {
      title: "Cancel a NanoHermes turn",
      description: "Stop the thread's running turn at its next step boundary (running commands are let finish).",
      inputSchema: { threadId: z.string() },
    },
    async (args) => {
      const cancelled = threads.cancel(args.threadId);
      return {
        content: [{ type: "text", text: cancelled ? "stopping at the next step boundary" : "no turn is running" }],
        structuredContent: { cancelled },
      };
    },
  );

  const input = io.stdin.pipe(parseGuard(io.stdout));
  const transport = new StdioServerTransport(input, io.stdout as Writable);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    input.once("end", () => resolve());
  });
  transport.onerror = (error) => log("warn", "mcp-server: transport error", error);
  await server.connect(transport);
  await closed;
  // The client went away: turns stop, threads are saved.
  await threads.closeAll();
  await observers.close();
  await server.close().catch(() => {});
  return 0;
}
