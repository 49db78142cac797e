// `nanohermes acp`: an Agent Client Protocol agent on stdin/stdout (newline-delimited JSON-RPC,
// protocol v1) for editors (Zed, JetBrains, Neovim). The SDK is loaded by this subcommand only.
// stdout carries the protocol and nothing else; logs go to the log file.
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import type { ModelClient } from "../agent/model-client.js";
import { missingCredentials, setupHint } from "../config/credentials.js";
import type { Flags } from "../config/flags.js";
import { startObservers, type Observers } from "../telemetry/observers.js";
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";
import { VERSION } from "../version.js";
import { isApproval, isMode } from "./options.js";
import { AuthRequiredError, PromptContentError, SessionStateError, TurnError, UnknownSessionError } from "./errors.js";
import type { AcpSession, ClientPort } from "./session.js";
import type { AcpSessions } from "./sessions.js";
import { setLockRole } from "../session/session-lock.js";

export interface AcpIO {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

const AUTH_METHOD = "provider-key";

/** Our failures as JSON-RPC errors: what the client sent was wrong, or the work failed. */
function asRequestError(error: unknown): acp.RequestError {
  if (error instanceof acp.RequestError) return error;
  if (error instanceof UnknownSessionError) return acp.RequestError.sessionNotFound(error.sessionId);
  if (error instanceof AuthRequiredError) return acp.RequestError.authRequired(undefined, error.message);
  if (error instanceof SessionStateError) return acp.RequestError.invalidRequest(undefined, error.message);
  if (error instanceof PromptContentError) return acp.RequestError.invalidParams(undefined, error.message);
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof TurnError)) log("error", "acp: request failed", error);
  // A bad folder or config file (UsageError, ConfigError) is the client's to fix: say what is wrong.
  const name = error instanceof Error ? error.constructor.name : "";
  if (name === "UsageError" || name === "ConfigError") return acp.RequestError.invalidParams(undefined, message);
  return acp.RequestError.internalError(undefined, message);
}

/** Runs `handler`, turning a throw into the JSON-RPC error the client gets. */
const guarded =
  <P, R>(handler: (params: P) => Promise<R> | R) =>
  async ({ params }: { params: P }): Promise<R> => {
    try {
      return await handler(params);
    } catch (error) {
      throw asRequestError(error);
    }
  };

/** Serves one ACP client on `io` until its input ends; resolves with the exit code. */
export async function runAcp(settings: Settings, flags: Flags, io: AcpIO, modelClient?: ModelClient): Promise<number> {
  setLockRole("acp");
  let client: acp.AgentContext | null = null;
  let notices = false;
  let readsFiles = false;
  let writesFiles = false;
  const port: ClientPort = {
    update: (sessionId, update) => {
      client?.notify(acp.methods.client.session.update, { sessionId, update }).catch((error: unknown) => {
        log("warn", "acp: an update could not be sent", error);
      });
    },
    requestPermission: (request, signal) => {
      if (!client) return Promise.resolve({ outcome: { outcome: "cancelled" } });
      return client.request(acp.methods.client.session.requestPermission, request, {
        cancellationSignal: signal,
        stopWaitingOnCancel: true,
      });
    },
    get notices() {
      return notices;
    },
    get readsFiles() {
      return readsFiles;
    },
    get writesFiles() {
      return writesFiles;
    },
    readTextFile: async (sessionId, path, signal) => {
      if (!client) throw new Error("no client");
      const read = await client.request(
        acp.methods.client.fs.readTextFile,
        { sessionId, path },
        { cancellationSignal: signal, stopWaitingOnCancel: true },
      );
      return read.content;
    },
    writeTextFile: async (sessionId, path, content) => {
      if (!client) throw new Error("no client");
      await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path, content });
    },
  };
  // The engine loads after the connection is up, so `initialize` is answered without waiting for it.
  // With it, the observers (issue 32: OpenTelemetry, --telemetry-file), for every session's events;
  // unusable OTEL_* settings fail the first session request with their one-line reason.
  let loaded: Promise<AcpSessions> | null = null;
  let observers: Observers | null = null;
  const engine = () =>
    (loaded ??= Promise.all([
      import("./sessions.js"),
      startObservers(settings, flags, io.env, "", (text) => log("warn", `acp: ${text}`)),
    ]).then(([{ AcpSessions }, started]) => {
      observers = started;
      return new AcpSessions({ flags, env: io.env, client: port, observers, ...(modelClient ? { modelClient } : {}) });
    }));
  const session = async (id: string): Promise<AcpSession> => (await engine()).get(id);

  const app = acp
    .agent({ name: "nanohermes" })
    .onConnect((connection) => {
      client = connection.client;
    })
    .onRequest(
      acp.methods.agent.initialize,
      guarded((params: acp.InitializeRequest) => {
        notices = Boolean(params.clientCapabilities?.session?.notices);
        readsFiles = params.clientCapabilities?.fs?.readTextFile === true;
        writesFiles = params.clientCapabilities?.fs?.writeTextFile === true;
        // The engine compiles once the answer is out, while the client reads it.
        setImmediate(
          () => void engine().catch((error: unknown) => log("error", "acp: the engine failed to load", error)),
        );
        return {
          protocolVersion: acp.PROTOCOL_VERSION,
          agentInfo: { name: "nanohermes", title: "NanoHermes", version: VERSION },
          agentCapabilities: {
            loadSession: true,
            promptCapabilities: { image: true, audio: false, embeddedContext: true },
            mcpCapabilities: { http: true, sse: true },
            sessionCapabilities: { list: {}, resume: {}, close: {} },
          },
          authMethods: [
            {
              id: AUTH_METHOD,
              name: "Provider API key from the environment or config",
              description:
                "NanoHermes reads the provider key from the environment (OPENAI_API_KEY, or the provider's own variable such as ANTHROPIC_API_KEY) or from ~/.nanohermes/config.json. Set it there and restart the agent; nothing is entered here.",
            },
          ],
        };
      }),
    )
    .onRequest(
      acp.methods.agent.authenticate,
      guarded((params: acp.AuthenticateRequest) => {
        if (params.methodId !== AUTH_METHOD)
          throw acp.RequestError.invalidParams(undefined, `unknown auth method ${params.methodId}`);
        if (!modelClient && missingCredentials(settings)) throw new AuthRequiredError(setupHint(settings).join(" "));
        return {};
      }),
    )
    .onRequest(
      acp.methods.agent.session.new,
      guarded(async (params: acp.NewSessionRequest) => {
        const s = await (await engine()).create(params.cwd, params.mcpServers);
        // After the answer: a JetBrains client drops updates for a session it has not been told of yet.
        setImmediate(() => void s.announceCommands().catch((e: unknown) => log("warn", "acp: commands", e)));
        return { sessionId: s.id, modes: s.modes, configOptions: s.configOptions };
      }),
    )
    .onRequest(
      acp.methods.agent.session.load,
      guarded(async (params: acp.LoadSessionRequest) => {
        const s = await (await engine()).open(params.sessionId, params.cwd, params.mcpServers);
        // The history goes out before the answer, as the protocol asks.
        await s.replay();
        setImmediate(() => void s.announceCommands().catch((e: unknown) => log("warn", "acp: commands", e)));
        return { modes: s.modes, configOptions: s.configOptions };
      }),
    )
    .onRequest(
      acp.methods.agent.session.resume,
      guarded(async (params: acp.ResumeSessionRequest) => {
        const s = await (await engine()).open(params.sessionId, params.cwd, params.mcpServers ?? []);
        setImmediate(() => void s.announceCommands().catch((e: unknown) => log("warn", "acp: commands", e)));
        return { modes: s.modes, configOptions: s.configOptions };
      }),
    )
    .onRequest(
      acp.methods.agent.session.list,
      guarded(async (params: acp.ListSessionsRequest) => {
        const { sessions: list, next } = await (await engine()).list(
          params.cwd ?? undefined,
          params.cursor ?? undefined,
        );
        return { sessions: list, ...(next ? { nextCursor: next } : {}) };
      }),
    )
    .onRequest(
      acp.methods.agent.session.close,
      guarded(async (params: acp.CloseSessionRequest) => {
        await session(params.sessionId);
        await (await engine()).close(params.sessionId);
        return {};
      }),
    )
    .onRequest(
      acp.methods.agent.session.prompt,
      guarded(async (params: acp.PromptRequest) => ({
        stopReason: await (await session(params.sessionId)).prompt(params.prompt),
      })),
    )
    .onRequest(
      acp.methods.agent.session.setMode,
      guarded(async (params: acp.SetSessionModeRequest) => {
        if (!isMode(params.modeId)) throw acp.RequestError.invalidParams(undefined, `unknown mode ${params.modeId}`);
        (await session(params.sessionId)).setMode(params.modeId);
        return {};
      }),
    )
    .onRequest(
      acp.methods.agent.session.setConfigOption,
      guarded(async (params: acp.SetSessionConfigOptionRequest) => {
        const s = await session(params.sessionId);
        const value = params.value;
        if (typeof value !== "string")
          throw acp.RequestError.invalidParams(undefined, `${params.configId} is a choice`);
        if (params.configId === "mode" && isMode(value)) s.setMode(value);
        else if (params.configId === "approval" && isApproval(value)) s.setApproval(value);
        else if (params.configId === "model" && value.trim() !== "") s.setModel(value.trim());
        else throw acp.RequestError.invalidParams(undefined, `invalid value ${value} for ${params.configId}`);
        return { configOptions: s.configOptions };
      }),
    )
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      // A cancel for a session we do not have: nothing runs there.
      void session(params.sessionId).then(
        (s) => s.cancel(),
        () => {},
      );
    });

  const stream = acp.ndJsonStream(
    Writable.toWeb(io.stdout as Writable) as WritableStream<Uint8Array>,
    Readable.toWeb(io.stdin as Readable) as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  await connection.closed.catch((error: unknown) => log("warn", "acp: the connection closed with an error", error));
  // The client went away: turns stop, sessions are saved, MCP servers stopped.
  const started = loaded as Promise<AcpSessions> | null;
  if (started) await (await started.catch(() => null))?.closeAll();
  await (observers as Observers | null)?.close();
  return 0;
}
