// Starts the full-screen UI: the engine (task manager) and the UI on one bus, the terminal in the
// alternate screen, stdin parsed by our own key parser, and one exit path that saves and restores.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { TaskManager } from "../agent/tasks.js";
import { defaultKeymap, type Action } from "../config/keybindings.js";
import { log } from "../config/log.js";
import type { Settings } from "../config/schema.js";
import { Bus } from "../protocol/bus.js";
import { randomId } from "../protocol/ids.js";
import { readTaskIndex } from "../session/task-index.js";
import { trustWorkspace } from "../config/trust.js";
import { sandboxLabel } from "../agent/confinement.js";
import { loadExtensions, noExtensions, type Extensions } from "../agent/extensions.js";
import { Controller } from "./controller/controller.js";
import type { AppServices } from "./context/services.js";
import type { InkHandle } from "./mount.js";
import { composeTextFrame } from "./text-frame.js";
import { connectScreen } from "./controller/settle.js";
import { motionAllowed } from "./context/motion.js";
import { editorKeyDefaults } from "./input/editor.js";
import { appendHistory, History, historyPath, loadHistory } from "./input/history.js";
import { KeyParser } from "./input/keys.js";
import { resolveKeymap } from "./input/keymap.js";
import { loadMarkdown } from "./render/markdown.js";
import { isLive, Store } from "./state/store.js";
import { osc52, notify } from "./terminal/osc.js";
import { createProbe } from "./terminal/probe.js";
import { clipboardRoute, readTmux } from "./terminal/tmux.js";
import { enterScreen } from "./terminal/screen.js";
import { lineWriterSelected, terminalHints, writerTiming } from "./terminal/writer-choice.js";
import { makeTheme } from "./theme/setup.js";
import { TranscriptRenderer } from "./view/transcript-view.js";
import { markdownStyles } from "./view/panes.js";
import { listWorkspaceFiles } from "./workspace-files.js";
import { openInEditor } from "./external-editor.js";
import { openPicker } from "./controller/session-picker.js";
import { checkpointSource, memorySource, sessionSource } from "./sources.js";
import type { DaemonClient } from "../daemon/client.js";
import type { RemoteTasks } from "../daemon/remote-tasks.js";
import type { SessionInfo } from "../daemon/sessions.js";

const MAX_SNAPSHOT_BYTES = 1024 * 1024;

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

function readSmall(path: string): string | null {
  try {
    if (statSync(path).size > MAX_SNAPSHOT_BYTES) return null;
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

export async function runUi(opts: UiOptions): Promise<number> {
  const { settings, stdin, stdout, env } = opts;
  const overSsh = Boolean(env.SSH_CONNECTION || env.SSH_TTY);
  const store = new Store({ frameMs: overSsh ? 66 : 33 }, { columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const bus = new Bus({ onHandlerError: (error) => log("error", "bus handler threw", error) });
  // MCP servers, skills, hooks and AGENTS.md load after the first frame; agents wait for them.
  let extensionsLoaded: (ext: Extensions) => void = () => {};
  const extensions = new Promise<Extensions>((resolve) => (extensionsLoaded = resolve));
  let loadedExtensions: Extensions | null = null;
  // Attached to a daemon, there is no local engine: the remote bridge serves every task.
  const manager = opts.attach ? null : new TaskManager({ settings, bus, interactive: true, approval: settings.approval ?? "on-request", mode: settings.mode, extensions });
  // Remote tasks (and their HTTP client) load with the first one, not with the program.
  let remote: RemoteTasks | null = null;
  const remoteContext = { cwd: process.cwd(), env, home: settings.home, workspace: settings.workspace };
  const remoteTasks = async (): Promise<RemoteTasks> => {
    const [{ RemoteTasks }, { rememberChange }] = await Promise.all([import("../daemon/remote-tasks.js"), import("../daemon/attach.js")]);
    return (remote ??= new RemoteTasks({ bus, workspace: settings.workspace, ...(opts.attach ? { claim: opts.attach.client } : { onChange: (id, change) => rememberChange(settings.home, id, change) }) }));
  };
  if (opts.attach) await remoteTasks();
  const theme = makeTheme(settings, env, Boolean(stdout.isTTY));
  store.updateUi((ui) => ({ ...ui, theme: theme.name }));

  const keys = resolveKeymap<Action>(defaultKeymap(), settings.keys);
  // Ctrl-K belongs to the command palette; the editor's kill-to-end-of-line keeps Alt-K... none.
  const editorKeys = resolveKeymap(editorKeyDefaults, { deleteToLineEnd: [] });
  const history = new History();
  const historyFile = historyPath(settings.home);
  void loadHistory(historyFile).then((entries) => entries.forEach((e) => history.add(e)));

  // Content before this session's first write, per path: the Changes tab diffs against it.
  const before = new Map<string, string | null>();
  let files: string[] = [];
  void listWorkspaceFiles(settings.workspace).then((list) => {
    files = list;
  });

  let exiting = false;
  let ink: InkHandle | null = null;
  // The benchmark's probe: Ink's own render time of every frame, written at exit.
  const frameLog = env.NANOHERMES_BENCH_FRAMES ? ([] as number[]) : null;
  // The terminal writer's time per frame, with when (it runs after Ink's render, which frameLog times).
  const writerLog: [number, number][] = [];
  if (frameLog) writerTiming.record = (ms) => void writerLog.push([Date.now(), ms]);
  const shutdown = async () => {
    remote?.close();
    await manager?.shutdown();
    await Promise.race([extensions.then((ext) => ext.close()), new Promise((resolve) => setTimeout(resolve, 2_000))]);
    if (frameLog && env.NANOHERMES_BENCH_FRAMES) {
      writeFileSync(env.NANOHERMES_BENCH_FRAMES, JSON.stringify(frameLog));
      writeFileSync(`${env.NANOHERMES_BENCH_FRAMES}.writer.json`, JSON.stringify(writerLog));
    }
  };
  const screen = enterScreen({ stdin, stdout }, shutdown, () => ink?.unmount());
  // Node prints process warnings (e.g. MaxListenersExceededWarning) to stderr, which is the
  // terminal: text the writer does not know about, which can scroll the screen under its model of
  // the cells. While the UI owns the terminal they go to the log file instead.
  process.removeAllListeners("warning");
  process.on("warning", (warning) => log("warn", "node warning", warning));
  const finish = async (code: number) => {
    if (exiting) return;
    exiting = true;
    await shutdown().catch((error: unknown) => log("error", "shutdown", error));
    screen.restore();
    process.exit(code);
  };

  // Earlier tasks of this workspace from the index (without loading them); the picker waits for
  // them, so a session it opens is found in its task. The first task's own file is not listed twice.
  let addEarlier: () => void = () => {};
  const earlier = new Promise<void>((resolve) => (addEarlier = resolve)).then(() => (manager ? readTaskIndex(settings.home) : [])).then((entries) => {
    if (!manager) return;
    for (const e of entries.filter((x) => x.workspace === settings.workspace && x.sessionFile !== opts.sessionFile).slice(0, 50).reverse()) {
      manager.add(e.id, { title: e.title, sessionFile: e.sessionFile, pinned: e.pinned, updatedAt: e.updatedAt });
    }
  });

  const checkpoints = checkpointSource(settings);
  // The engine reports checkpointed turns after tool calls only: a resumed session's turns, and the
  // files' states after a rewind, are read from the store (a rewind is answered with notices).
  const rewinding = new Set<string>();
  bus.onCommand((command) => {
    if (command.type === "session.rewind" || command.type === "file.revert") rewinding.add(command.taskId);
  });
  const readTurns = (taskId: string) => {
    const sessionId = store.getState().transcripts[taskId]?.sessionId;
    if (sessionId) void checkpoints.turns(sessionId).then((turns) => store.dispatch({ type: "ui.checkpoints", taskId, turns }));
  };

  // Inside tmux, OSC 52 goes through plain or wrapped depending on tmux's settings (read later).
  let wrapForTmux = Boolean(env.TMUX);
  const ctl = new Controller({
    store,
    bus,
    keymap: keys.keymap,
    editorKeys: editorKeys.keymap,
    history,
    remember: (text) => void appendHistory(historyFile, text),
    copy: (text) => {
      const seq = osc52(text, { tmux: wrapForTmux });
      if (!seq.ok) return { ok: false, reason: seq.reason };
      stdout.write(seq.sequence);
      return { ok: true };
    },
    exit: () => void finish(0),
    openEditor: (text) =>
      openInEditor(text, env, stdin, stdout, () => {
        ink?.clear();
        store.updateUi((ui) => ({ ...ui }));
      }),
    paths: () => files,
    newTaskId: () => `t${Date.now().toString(36)}${randomId(4)}`,
    themes: () => theme.names(),
    sandboxLabel: () => services.sandbox,
    skills: () => loadedExtensions?.skills ?? [],
    trustWorkspace: () =>
      void trustWorkspace(settings.home, settings.workspace).then(
        () => ctl.status(`trusted ${settings.workspace}: restart NanoHermes to apply ${settings.untrustedKeys.join(", ")}`, "info", 10_000),
        (error: unknown) => ctl.status(`could not save the trust: ${(error as Error).message}`, "error"),
      ),
    sessions: sessionSource(settings, earlier),
    memory: memorySource(settings),
    checkpoints,
    now: () => Date.now(),
    remoteFile: async (taskId, turn, path) => (await remoteTasks()).file(taskId, turn, path),
    addRemote: async (request) => (await import("../daemon/attach.js")).addRemoteTask(await remoteTasks(), request, remoteContext),
  });
  if (!settings.apiKey && !settings.baseUrl) ctl.status("no API key: set OPENAI_API_KEY (or apiKeyEnv in config.json), or --base-url for a local server", "error", 15_000);
  if (keys.errors.length) ctl.status(`config keys: ${keys.errors.join("; ")}`, "error", 10_000);

  const services: AppServices = {
    store,
    ctl,
    palette: theme.palette,
    markdown: markdownStyles(theme.palette),
    renderer: new TranscriptRenderer(theme.palette, markdownStyles(theme.palette), !theme.unicode),
    ascii: !theme.unicode,
    motion: motionAllowed(env, settings),
    workspace: settings.workspace,
    // Until Landlock has been probed (after the first frame), the configured mode is shown.
    sandbox: settings.sandbox.mode === "off" ? "unsandboxed" : `sandbox ${settings.sandbox.mode}`,
    before,
    readFile: (path) => readSmall(resolve(settings.workspace, path)),
  };
  const settle = connectScreen(services);
  if (settings.untrustedKeys.length > 0) {
    // Asked once per workspace: the answer is remembered in ~/.nanohermes/trusted.json.
    store.updateUi((ui) => ({
      ...ui,
      dialog: {
        kind: "confirm",
        action: "trust",
        target: settings.workspace,
        title: `This workspace's .nanohermes/config.json sets ${settings.untrustedKeys.join(", ")}, which are ignored until you trust this folder. Trust it? (y/n)`,
      },
    }));
  }
  if (theme.problems.length) ctl.status(`themes: ${theme.problems.join("; ")}`, "warn", 10_000);
  let focused = true;
  bus.subscribe((event) => {
    // A remote task's files are on the daemon's machine: nothing here is read for it.
    const remoteTask = store.getState().tasks[event.taskId]?.snapshot.location === "remote";
    if (event.type === "tool.started" && event.kind === "edit" && !remoteTask) {
      const path = (event.args as { path?: unknown } | null)?.path;
      if (typeof path === "string" && !before.has(path)) before.set(path, readSmall(resolve(settings.workspace, path)));
    }
    if (event.type === "task.updated") {
      const prev = store.getState().tasks[event.taskId]?.snapshot.status;
      const now = event.task.status;
      const elsewhere = !focused || store.getState().current !== event.taskId;
      if (prev && prev !== now && elsewhere && (now === "waiting" || now === "done" || now === "failed")) {
        const what = now === "waiting" ? "needs approval" : now === "done" ? "finished" : "failed";
        if (settings.notify.osc) stdout.write(notify("NanoHermes", `${event.task.title} ${what}`, { kind: "osc9", tmux: wrapForTmux }));
        else if (settings.notify.bell) stdout.write("\x07");
      }
    }
    // A diff on screen shows the file as it is after the tool (or a restore) changed it.
    if (event.type === "tool.completed" || event.type === "checkpoints.updated" || event.type === "notice") settle.filesChanged();
    store.dispatch(event);
    if (event.type === "session.started" && event.resumed && !remoteTask) readTurns(event.taskId);
    if (event.type === "turn.started") rewinding.delete(event.taskId);
    if (event.type === "notice" && rewinding.has(event.taskId) && !remoteTask) readTurns(event.taskId);
  });

  // The first task (a bare --resume asks which session first), then the earlier ones.
  if (opts.attach && remote) {
    const { client, sessions } = opts.attach;
    const { describeAddress } = await import("../daemon/client.js");
    // The newest 100 and every running one, oldest first so the list ends with the newest.
    const shown = sessions.filter((info, i) => i < 100 || info.running);
    for (const info of [...shown].reverse()) (remote as RemoteTasks).add(info.id, client, info.id, info);
    const first = sessions.find((s) => s.running) ?? sessions[0];
    if (first) ctl.selectTask(first.id);
    else ctl.newTask();
    ctl.status(`attached to ${describeAddress(client.address)}: ${sessions.length} session${sessions.length === 1 ? "" : "s"}; turns go on there when you quit`, "info", 8_000);
  } else if (opts.pickSession) {
    const trust = store.getState().ui.dialog;
    openPicker(ctl, { startup: true });
    // The trust question (if any) comes first; the picker waits under it.
    if (trust?.kind === "confirm") store.updateUi((ui) => ({ ...ui, dialog: ui.dialog ? { ...trust, back: ui.dialog } : trust }));
  } else ctl.newTask(opts.sessionFile);
  addEarlier();

  // The terminal handshake runs after the first frame; its replies arrive as "reply" keys.
  const probe = createProbe({ timeoutMs: 400, skipBackground: env.TERM === "linux" });
  const parser = new KeyParser();
  let flushTimer: NodeJS.Timeout | null = null;
  const deliver = (events: ReturnType<KeyParser["feed"]>) => {
    for (const event of events) {
      if (event.kind === "key" && event.key.name === "focusin") focused = true;
      if (event.kind === "key" && event.key.name === "focusout") focused = false;
      if (event.kind === "key" && event.key.name === "reply") probe.feed(event.key.sequence);
      try {
        ctl.handle(event);
      } catch (error) {
        log("error", "key handler threw", error);
        ctl.status(`internal error: ${(error as Error).message}`, "error");
      }
    }
  };
  stdin.on("data", (chunk: Buffer) => {
    deliver(parser.feed(chunk));
    if (flushTimer) clearTimeout(flushTimer);
    // A lone Esc is only known to be Esc when nothing follows it.
    if (parser.pending) flushTimer = setTimeout(() => deliver(parser.flush()), 25);
  });
  stdout.on("resize", () => {
    // The terminal reflows what it shows when it resizes; only a clean screen and a full frame
    // are sure to look right afterwards.
    stdout.write("\x1b[2J\x1b[H");
    ink?.clear();
    store.updateUi((ui) => {
      const columns = stdout.columns || ui.columns;
      const rows = stdout.rows || ui.rows;
      const size = (c: number) => (c >= 120 ? 2 : c >= 80 ? 1 : 0);
      // Crossing a layout breakpoint resets the side panes to what suits the new width.
      if (size(columns) === size(ui.columns)) return { ...ui, columns, rows };
      return { ...ui, columns, rows, taskListOpen: columns >= 80, resultsOpen: columns >= 120, focus: ui.focus === "browse" ? "browse" : "composer" };
    });
  });

  // The first frame is drawn before Ink loads: the same pure screen function the Ink app uses,
  // so the user sees the real screen (and can type; keys queue in the store) ~100 ms sooner.
  stdout.write(`${composeTextFrame(store.getState(), services).lines.join("\n")}\x1b[H`);
  const { mountInk } = await import("./mount.js");
  // Ink's line writer draws its first frame over ours without clearing line ends (it takes the
  // screen for blank): when the state changed meanwhile and a line got shorter, the old end would
  // stay. Our cell writer (the default) erases every line end of a first frame itself.
  if (lineWriterSelected(env)) {
    const write = stdout.write.bind(stdout) as (chunk: string) => boolean;
    stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== "string" || !chunk.includes("\n")) return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
      stdout.write = write as typeof stdout.write;
      return (write as (...args: unknown[]) => boolean)(chunk.replace(/\n/g, "\x1b[K\n"), ...rest);
    }) as typeof stdout.write;
  }
  ink = mountInk(services, {
    stdout,
    stdin,
    maxFps: overSsh ? 15 : 30,
    themeFor: (name) => theme.paletteFor(name) ?? theme.palette,
    ...(frameLog ? { onRender: (ms: number) => void frameLog.push(ms) } : {}),
  });
  // Elapsed times of turns, running tools and running subagents tick once a second.
  setInterval(() => {
    if (!isLive(store.getState())) return;
    services.renderer.tick++;
    store.updateUi((ui) => ({ ...ui }));
  }, 1000).unref();
  screen.claimSignals();
  setTimeout(() => {
    stdout.write(probe.queries);
    void probe.result.then((caps) => {
      terminalHints.synchronizedOutput = caps.syncOutput === true;
      // Without a configured theme, a light terminal background gets the light theme.
      if (!settings.theme && caps.isDark === false && theme.names().includes("light")) store.updateUi((ui) => ({ ...ui, theme: "light" }));
    });
    if (env.TMUX) void readTmux({ env }).then((info) => (wrapForTmux = clipboardRoute(info).wrap));
    // Remote tasks added with /remote in earlier runs (listed only; each connects when opened).
    // After the first frame, and their code only when there are some.
    if (!opts.attach && existsSync(join(settings.home, "remotes.json"))) {
      void earlier
        .then(() => import("../daemon/attach.js"))
        .then(async ({ restoreRemoteTasks }) => restoreRemoteTasks(await remoteTasks(), remoteContext))
        .catch((error: unknown) => log("warn", "listing remote tasks", error));
    }
    services.sandbox = sandboxLabel(settings);
    store.updateUi((ui) => ({ ...ui }));
    void loadExtensions(settings, { emit: (event) => bus.emit(event) }).then(
      (ext) => {
        loadedExtensions = ext;
        extensionsLoaded(ext);
        if (ext.problems.length) ctl.status(ext.problems.join("; "), "warn", 15_000);
        const statuses = ext.mcpStatuses();
        if (statuses.length) bus.emit({ type: "mcp.updated", taskId: "", servers: statuses });
      },
      (error: unknown) => {
        log("error", "loading extensions", error);
        ctl.status(`MCP, skills and hooks are off: ${(error as Error).message}`, "error", 15_000);
        extensionsLoaded(noExtensions());
      },
    );
  }, 20);
  // Heavy Markdown rendering (and highlighting) loads after the first frame.
  setTimeout(() => {
    void loadMarkdown().then(() => {
      services.renderer.invalidate();
      store.updateUi((ui) => ({ ...ui }));
    });
  }, 50);
  await new Promise<never>(() => {});
  return 0;
}
