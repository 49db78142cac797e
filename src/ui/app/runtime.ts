// Builds what the UI runs on: the store, the bus, the engine (or the remote bridge when attached),
// the theme, keys and history, the controller and the services every component reads.
import type { Settings } from "../../config/schema.js";
import type { DaemonClient } from "../../remote/client.js";
import type { SessionInfo } from "../../remote/wire.js";
import type { Telemetry } from "../../telemetry/start.js";
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { TaskManager } from "../../agent/tasks.js";
import { defaultKeymap, type Action } from "../../config/keybindings.js";
import { log } from "../../config/log.js";
import { heldInstructions } from "../../config/instruction-changes.js";
import { trustWorkspace } from "../../config/trust.js";
import { missingCredentials, setupLine } from "../../config/credentials.js";
import { Bus } from "../../protocol/bus.js";
import { randomId } from "../../protocol/ids.js";
import { listedTasks, readTaskIndex } from "../../session/task-index.js";
import { workspaceSource } from "../../agent/workspace-source.js";
import type { Extensions } from "../../agent/extensions.js";
import type { RemoteTasks } from "../../remote/remote-tasks.js";
import type { AppServices } from "../context/services.js";
import { motionAllowed } from "../context/motion.js";
import { Controller } from "../controller/controller.js";
import { keyLayers } from "../focus/index.js";
import { connectScreen, type Settle } from "./settle.js";
import { openInEditor } from "./external-editor.js";
import { editorKeyDefaults } from "../input/editor.js";
import { appendHistory, History, historyPath, loadHistory } from "../input/history.js";
import { resolveKeymap } from "../input/keymap.js";
import { checkpointSource, memorySource, sessionSource } from "./engine-sources.js";
import { Store } from "../state/store.js";
import { copyOut, tmuxLoadBuffer } from "./copy.js";
import type { ClipboardRoute } from "../terminal/tmux.js";
import { makeTheme } from "../theme/setup.js";
import { markdownStyles } from "../view/panes.js";
import { TranscriptRenderer } from "../view/transcript-view.js";
import { listWorkspaceFiles } from "./workspace-files.js";
import type { InkHandle } from "./mount.js";
import { setLockRole } from "../../session/session-lock.js";

const MAX_SNAPSHOT_BYTES = 1024 * 1024;

/** A workspace file for a diff view, or null when missing, unreadable or over 1 MB. */
export function readSmall(path: string): string | null {
  try {
    if (statSync(path).size > MAX_SNAPSHOT_BYTES) return null;
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** Everything the parts of runUi share. */
export interface UiRuntime {
  opts: UiOptions;
  overSsh: boolean;
  store: Store;
  bus: Bus;
  manager: TaskManager | null;
  ctl: Controller;
  services: AppServices;
  settle: Settle;
  theme: ReturnType<typeof makeTheme>;
  extensions: Promise<Extensions>;
  extensionsLoaded(ext: Extensions): void;
  loadedExtensions: Extensions | null;
  remote(): RemoteTasks | null;
  remoteTasks(): Promise<RemoteTasks>;
  remoteContext: { cwd: string; env: NodeJS.ProcessEnv; home: string; workspace: string };
  /** The earlier tasks of this workspace are listed (the picker waits for them). */
  earlier: Promise<void>;
  addEarlier(): void;
  /** Task ids whose rewind or revert is in flight (their notices re-read the turns). */
  rewinding: Set<string>;
  /** Whether the terminal has focus (focus events), for notifications. */
  focused: boolean;
  /** Whether OSC 52 and notifications go wrapped for tmux (read after the first frame). */
  wrapForTmux: boolean;
  /** How a copy travels inside tmux, once tmux's settings are read (null before, or outside tmux). */
  tmuxRoute: ClipboardRoute | null;
  ink: InkHandle | null;
  /** OpenTelemetry export once started after the first frame (only when asked for; issue 32). */
  telemetry: Telemetry | null;
  /** Exits through the one exit path (set by exitPath). */
  finish(code: number): Promise<void>;
}

/** What the command line gives the UI (cli.ts `runUi`). */
export interface UiOptions {
  settings: Settings;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** Resume this session file in the first task (--session, --resume ID, --continue). */
  sessionFile?: string;
  /** Bare --resume: open the session picker first. */
  pickSession?: boolean;
  /** `nanohermes attach`: every task is a session of this daemon (listed already). */
  attach?: { client: DaemonClient; sessions: SessionInfo[] };
}

export async function createServices(opts: UiOptions): Promise<UiRuntime> {
  const { settings, stdin, stdout, env } = opts;
  // A second front end on a session this UI holds names "another NanoHermes UI".
  setLockRole("ui");
  const overSsh = Boolean(env.SSH_CONNECTION || env.SSH_TTY);
  const store = new Store({ frameMs: overSsh ? 66 : 33 }, { columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const bus = new Bus({ onHandlerError: (error) => log("error", "bus handler threw", error) });
  // MCP servers, skills, hooks and AGENTS.md load after the first frame; agents wait for them.
  let extensionsLoaded: (ext: Extensions) => void = () => {};
  const extensions = new Promise<Extensions>((resolve) => (extensionsLoaded = resolve));
  // Attached to a daemon, there is no local engine: the remote bridge serves every task.
  const manager = opts.attach
    ? null
    : new TaskManager({
        settings,
        bus,
        interactive: true,
        approval: settings.approval ?? "on-request",
        mode: settings.mode,
        extensions,
        // Read when a call runs: telemetry starts after the first frame, when it is on at all.
        traceparent: (taskId, callId) => rt.telemetry?.traceparentFor(taskId, callId),
      });
  // Remote tasks (and their HTTP client) load with the first one, not with the program.
  let remote: RemoteTasks | null = null;
  const remoteContext = { cwd: process.cwd(), env, home: settings.home, workspace: settings.workspace };
  const remoteTasks = async (): Promise<RemoteTasks> => {
    const [{ RemoteTasks }, { rememberChange }] = await Promise.all([
      import("../../remote/remote-tasks.js"),
      import("../../remote/attach.js"),
    ]);
    return (remote ??= new RemoteTasks({
      bus,
      workspace: settings.workspace,
      ...(opts.attach
        ? { claim: opts.attach.client }
        : { onChange: (id, change) => rememberChange(settings.home, id, change) }),
    }));
  };
  if (opts.attach) await remoteTasks();
  const theme = makeTheme(settings, env, Boolean(stdout.isTTY));
  // The screen-reader layout is chosen once, before the first frame (layout/screen-layout.ts).
  const screenReader = settings.ui.screenReader;
  store.updateUi((ui) => ({ ...ui, theme: theme.name, screenReader }));

  const keys = resolveKeymap<Action>(defaultKeymap(), settings.keys);
  // Ctrl-K belongs to the command palette; the editor's kill-to-end-of-line keeps Alt-K... none.
  const editorKeys = resolveKeymap(editorKeyDefaults, { deleteToLineEnd: [] });
  const history = new History();
  const historyFile = historyPath(settings.home);
  void loadHistory(historyFile).then((entries) => entries.forEach((e) => history.add(e)));
  let files: string[] = [];
  void listWorkspaceFiles(settings.workspace).then((list) => {
    files = list;
    // The Files tab draws the listing (a service, not state).
    store.redraw();
  });

  // Earlier tasks of this workspace from the index (without loading them); the picker waits for
  // them, so a session it opens is found in its task. The first task's own file is not listed twice.
  let addEarlier: () => void = () => {};
  const earlier = new Promise<void>((resolve) => (addEarlier = resolve))
    .then(() => (manager ? readTaskIndex(settings.home) : []))
    .then((entries) => {
      if (!manager) return;
      for (const e of listedTasks(
        entries.filter((x) => x.sessionFile !== opts.sessionFile),
        settings.workspace,
      ).reverse()) {
        manager.add(e.id, {
          title: e.title,
          sessionFile: e.sessionFile,
          pinned: e.pinned,
          updatedAt: e.updatedAt,
          ...(e.usage ? { usage: e.usage } : {}),
        });
      }
    });

  const rt = {
    opts,
    overSsh,
    store,
    bus,
    manager,
    theme,
    extensions,
    extensionsLoaded,
    loadedExtensions: null,
    remote: () => remote,
    remoteTasks,
    remoteContext,
    earlier,
    addEarlier,
    rewinding: new Set<string>(),
    focused: true,
    wrapForTmux: Boolean(env.TMUX),
    tmuxRoute: null,
    ink: null,
    telemetry: null,
    finish: async () => {},
  } as Omit<UiRuntime, "ctl" | "services" | "settle"> as UiRuntime;
  const ws = workspaceSource(settings, manager);
  let trustedNow = false;
  const ctl = new Controller(
    {
      workspace: ws,
      store,
      bus,
      keymap: keys.keymap,
      editorKeys: editorKeys.keymap,
      history,
      remember: (text) => void appendHistory(historyFile, text),
      // Inside tmux, OSC 52 goes through plain or wrapped depending on tmux's settings, and also to
      // tmux's paste buffer where tmux would drop it (app/copy.ts).
      copy: (text) =>
        copyOut(text, {
          route: rt.tmuxRoute,
          inTmux: Boolean(env.TMUX),
          write: (s) => stdout.write(s),
          loadBuffer: tmuxLoadBuffer(env),
        }),
      exit: () => void rt.finish(0),
      openEditor: (text) =>
        openInEditor(text, env, stdin, stdout, () => {
          rt.ink?.clear();
          store.redraw();
        }),
      paths: () => files,
      models: async () => (await ws.models?.()) ?? [],
      readAttachment: (path) => {
        // A file of the workspace only, as read_file would read it (4 MB at most).
        const full = resolve(settings.workspace, path);
        if (full !== settings.workspace && !full.startsWith(`${settings.workspace}/`)) return null;
        try {
          const st = statSync(full);
          return st.isFile() && st.size <= 4 * 1024 * 1024 ? readFileSync(full, "utf8") : null;
        } catch {
          return null;
        }
      },
      newTaskId: () => `t${Date.now().toString(36)}${randomId(4)}`,
      themes: () => theme.names(),
      sandboxLabel: () => rt.services.sandbox,
      skills: () => rt.loadedExtensions?.skills ?? [],
      untrusted: () => {
        if (trustedNow) return [];
        // Asked about even in a trusted folder: a command changed them since (issue 26.3).
        const held = settings.trustFlag ? [] : heldInstructions(settings.home, settings.workspace);
        const keys = settings.untrustedKeys;
        return [
          ...(held.length
            ? [
                `instruction files a command changed (${held.join(", ")}), left out of this session until you take them back`,
              ]
            : []),
          ...(keys.length ? [`its .nanohermes/config.json sets ${keys.join(", ")}`] : []),
          ...(ws.untrustedCommands() ? ["its slash commands (.nanohermes/commands, .claude/commands)"] : []),
        ];
      },
      trustWorkspace: () => {
        // Left out of this session's prompt at its start; trusting releases them for the next.
        const heldNow = heldInstructions(settings.home, settings.workspace);
        void trustWorkspace(settings.home, settings.workspace).then(
          () => {
            trustedNow = true;
            const restart = [
              ...settings.untrustedKeys,
              ...(heldNow.length ? [`the instruction files ${heldNow.join(", ")}`] : []),
            ];
            ctl.status(
              restart.length
                ? `trusted ${settings.workspace}: its commands apply now; restart NanoHermes to apply ${restart.join(", ")}`
                : `trusted ${settings.workspace}: its commands apply now`,
              "info",
              10_000,
            );
          },
          (error: unknown) => ctl.status(`could not save the trust: ${(error as Error).message}`, "error"),
        );
      },
      sessions: sessionSource(settings, earlier),
      memory: memorySource(settings),
      checkpoints: checkpointSource(settings),
      now: () => Date.now(),
      home: homedir(),
      notSetUp: () => (missingCredentials(settings) ? setupLine(settings) : null),
      remoteFile: async (taskId, turn, path) => (await remoteTasks()).file(taskId, turn, path),
      addRemote: async (request) =>
        (await import("../../remote/attach.js")).addRemoteTask(await remoteTasks(), request, remoteContext),
    },
    keyLayers,
  );
  if (keys.errors.length) ctl.status(`config keys: ${keys.errors.join("; ")}`, "error", 10_000);
  if (theme.problems.length) ctl.status(`themes: ${theme.problems.join("; ")}`, "warn", 10_000);

  rt.ctl = ctl;
  rt.services = {
    store,
    ctl,
    palette: theme.palette,
    markdown: markdownStyles(theme.palette, !theme.unicode || screenReader),
    // A screen reader gets ASCII for the glyphs the linear layout keeps (the composer's prompt, dialogs).
    renderer: new TranscriptRenderer(
      theme.palette,
      markdownStyles(theme.palette, !theme.unicode || screenReader),
      !theme.unicode || screenReader,
      screenReader,
    ),
    ascii: !theme.unicode || screenReader,
    motion: motionAllowed(env, settings),
    workspace: settings.workspace,
    // Until Landlock has been probed (after the first frame), the configured mode is shown.
    sandbox: settings.sandbox.mode === "off" ? "unsandboxed" : `sandbox ${settings.sandbox.mode}`,
    // Content before this session's first write, per path: the Changes tab diffs against it.
    before: new Map<string, string | null>(),
    readFile: (path) => readSmall(resolve(settings.workspace, path)),
  };
  rt.settle = connectScreen(rt.services, ctl);
  return rt;
}
