// Puts the UI on screen: the first frame as text before Ink loads, then the Ink app, and what loads
// after the first frame (the terminal handshake, tmux's
// clipboard route, remembered remote tasks, the sandbox probe, scheduled runs, extensions, full
// Markdown when wanted).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { sandboxLabel } from "../../agent/confinement.js";
import { loadExtensions, noExtensions } from "../../agent/extensions.js";
import { log } from "../../config/log.js";
import type { Capabilities, Probe } from "../terminal/probe.js";
import type { ScreenSession } from "../terminal/screen.js";
import { clipboardRoute, readTmux } from "../terminal/tmux.js";
import { lineWriterSelected, terminalHints } from "../terminal/writer-choice.js";
import { composeTextFrame } from "./text-frame.js";
import { loadMarkdownWhenWanted } from "./markdown-when-wanted.js";
import type { UiRuntime } from "./runtime.js";

export async function mountUi(
  rt: UiRuntime,
  screen: ScreenSession,
  probe: Probe,
  frameLog: number[] | null,
): Promise<void> {
  const { store, services, theme } = rt;
  const { stdout, env } = rt.opts;
  // The first frame is drawn before Ink loads: the same pane functions the Ink app draws with,
  // so the user sees the real screen (and can type; keys queue in the store) ~100 ms sooner.
  stdout.write(`${composeTextFrame(store.getState(), services).lines.join("\n")}\x1b[H`);
  const { mountInk } = await import("./mount.js");
  // Ink's line writer draws its first frame over ours without clearing line ends (it takes the
  // screen for blank): when the state changed meanwhile and a line got shorter, the old end would
  // stay. Our cell writer (the default) erases every line end of a first frame itself.
  if (lineWriterSelected(env)) {
    const write = stdout.write.bind(stdout) as (chunk: string) => boolean;
    stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== "string" || !chunk.includes("\n"))
        return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
      stdout.write = write as typeof stdout.write;
      return (write as (...args: unknown[]) => boolean)(chunk.replace(/\n/g, "\x1b[K\n"), ...rest);
    }) as typeof stdout.write;
  }
  rt.ink = mountInk(services, {
    stdout,
    maxFps: rt.overSsh ? 15 : 30,
    themeFor: (name) => theme.paletteFor(name) ?? theme.palette,
    ...(frameLog ? { onRender: (ms: number) => void frameLog.push(ms) } : {}),
  });
  // Elapsed times need no timer here: the store's clock ticks while something counts time.
  screen.claimSignals();
  setTimeout(() => afterFirstFrame(rt, probe), 20);
  // Full Markdown rendering (and highlighting) loads after the first frame, once a reply is on
  // screen or on its way (markdown-when-wanted.ts); an idle UI does without it.
  setTimeout(() => {
    loadMarkdownWhenWanted(store, () => {
      services.renderer.invalidate();
      store.redraw();
    });
  }, 50);
}

function afterFirstFrame(rt: UiRuntime, probe: Probe): void {
  const { store, services, ctl, bus, theme } = rt;
  const { settings, stdout, env } = rt.opts;
  // Nothing on screen waits for these replies: the first frame is already drawn, and what the
  // terminal says is applied when it says it (the next frame draws with it). A sentinel that comes
  // after the timeout (a slow link, tmux asking the outer terminal) still counts.
  stdout.write(probe.queries);
  const themeAtStart = store.getState().ui.theme;
  const apply = (caps: Capabilities) => {
    terminalHints.synchronizedOutput = caps.syncOutput === true;
    // Without a configured theme, a light terminal background gets the light theme, unless the
    // user picked a theme while the reply was on its way.
    if (!settings.theme && caps.isDark === false && theme.names().includes("light"))
      store.updateUi((ui) => (ui.theme === themeAtStart ? { ...ui, theme: "light" } : ui));
  };
  void probe.result.then((caps) => {
    apply(caps);
    if (!caps.answered) void probe.answer.then(apply);
  });
  if (env.TMUX)
    void readTmux({ env }).then((info) => {
      rt.tmuxRoute = clipboardRoute(info);
      rt.wrapForTmux = rt.tmuxRoute.wrap;
    });
  // The engine (agent, tools, the model's wire) loads now, before anything is typed, not with the
  // first frame nor with the first prompt.
  void rt.manager?.warm().catch((error: unknown) => log("warn", "loading the engine", error));
  // Remote tasks added with /remote in earlier runs (listed only; each connects when opened).
  // After the first frame, and their code only when there are some.
  if (!rt.opts.attach && existsSync(join(settings.home, "remotes.json"))) {
    void rt.earlier
      .then(() => import("../../remote/attach.js"))
      .then(async ({ restoreRemoteTasks }) => restoreRemoteTasks(await rt.remoteTasks(), rt.remoteContext))
      .catch((error: unknown) => log("warn", "listing remote tasks", error));
  }
  // Scheduled runs: missed ones with no daemon, or the daemon's inbox. Their code only where a
  // ledger (~/.nanohermes/cron.db, src/cron/store.ts) exists.
  if (!rt.opts.attach && existsSync(join(settings.home, "cron.db")))
    void import("./cron-watch.js")
      .then(({ watchCron }) =>
        watchCron({
          home: settings.home,
          update: (cron) => store.updateUi((ui) => ({ ...ui, cron })),
          say: (text, level) => ctl.status(text, level, 20_000),
        }),
      )
      .catch((error: unknown) => log("warn", "reading the cron ledger", error));
  void sandboxLabel(settings).then(
    (label) => {
      services.sandbox = label;
      store.redraw();
    },
    (error: unknown) => log("warn", "probing the sandbox", error),
  );
  // OpenTelemetry (issue 32) only when asked for: off, nothing is imported and nothing subscribes.
  if (settings.telemetry?.otel)
    void import("../../telemetry/start.js")
      .then(({ startTelemetry }) => startTelemetry(settings, env))
      .then(
        (telemetry) => {
          if (!telemetry) return;
          rt.telemetry = telemetry;
          bus.subscribe((event) => telemetry.onEvent(event));
        },
        (error: unknown) => ctl.status(`telemetry is off: ${(error as Error).message}`, "error", 15_000),
      );
  void loadExtensions(settings, { emit: (event) => bus.emit(event) }).then(
    (ext) => {
      rt.loadedExtensions = ext;
      rt.extensionsLoaded(ext);
      if (ext.problems.length) ctl.status(ext.problems.join("; "), "warn", 15_000);
      const statuses = ext.mcpStatuses();
      if (statuses.length) bus.emit({ type: "mcp.updated", taskId: "", servers: statuses });
    },
    (error: unknown) => {
      log("error", "loading extensions", error);
      ctl.status(`MCP, skills and hooks are off: ${(error as Error).message}`, "error", 15_000);
      rt.extensionsLoaded(noExtensions());
    },
  );
}
