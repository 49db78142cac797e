// Renders the real App (store, controller, components) into a fake terminal of any size, with the
// engine replaced by events the test emits and commands it records.
import { EventEmitter } from "node:events";
import { render } from "ink";
import { defaultKeymap, type Action } from "../../src/config/keybindings.js";
import { Bus } from "../../src/protocol/bus.js";
import type { BusCommand } from "../../src/protocol/commands.js";
import type { BusEvent, TaskSnapshot } from "../../src/protocol/events.js";
import { App } from "../../src/ui/components/App.js";
import { CARD_GUARD_MS } from "../../src/ui/controller/approval-guard.js";
import { Controller, type ControllerDeps } from "../../src/ui/controller/controller.js";
import { keyLayers } from "../../src/ui/focus/index.js";
import type { CheckpointSource, MemorySource, SessionSource } from "../../src/ui/state/data-sources.js";
import { AppContext, type AppServices } from "../../src/ui/context/services.js";
import { connectScreen } from "../../src/ui/app/settle.js";
import { editorKeyDefaults } from "../../src/ui/input/editor.js";
import { History } from "../../src/ui/input/history.js";
import { KeyParser } from "../../src/ui/input/keys.js";
import { resolveKeymap } from "../../src/ui/input/keymap.js";
import { manualClock, type ManualClock } from "../../src/ui/state/clock.js";
import { Store } from "../../src/ui/state/store.js";
import { builtinTheme } from "../../src/ui/theme/load.js";
import { makePalette } from "../../src/ui/theme/palette.js";
import { inkChalk } from "../../src/ui/theme/setup.js";
import { markdownStyles } from "../../src/ui/view/panes.js";
import { TranscriptRenderer } from "../../src/ui/view/transcript-view.js";

class SizedStdout extends EventEmitter {
  frames: string[] = [];
  isTTY = true;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame);
    return true;
  };
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  setRawMode() {}
  setEncoding() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => null;
}

export function snapshot(over: Partial<TaskSnapshot> = {}): TaskSnapshot {
  return {
    title: "New task",
    status: "idle",
    pinned: false,
    model: "mock-model",
    mode: "default",
    approval: "on-request",
    location: "local",
    sessionFile: null,
    createdAt: "2026-01-01T00:00:00Z",
    updatedAt: "2026-01-01T00:00:00Z",
    usage: { prompt: 0, completion: 0 },
    pendingApprovals: 0,
    rules: [],
    ...over,
  };
}

export interface Harness {
  store: Store;
  ctl: Controller;
  sent: BusCommand[];
  copied: string[];
  exits: number;
  emit(event: BusEvent): void;
  /** Feeds raw terminal bytes through the real key parser. */
  keys(bytes: string): void;
  /** Moves the default clock on by `ms` (default: past the approval card's type-ahead guard). */
  later(ms?: number): void;
  /** The store's clock: `advance` moves the times on screen (its one-second ticks run on the way). */
  clock: ManualClock;
  frame(): Promise<string>;
  lines(): Promise<string[]>;
  unmount(): void;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

/** What the picker and the memory dialog see unless a test passes its own fakes: nothing, memory off. */
const noSessions: SessionSource = { list: async () => [], search: async () => [], lastPrompt: async () => null };
const noMemory: MemorySource = {
  enabled: false,
  kinds: ["lesson", "preference", "correction", "fact"],
  list: async () => [],
  search: async () => [],
  update: async () => null,
  remove: async () => false,
  save: async () => {
    throw new Error("memory is off");
  },
};

/** No checkpoint store: every earlier content is unknown. */
const noCheckpoints: CheckpointSource = { contentBefore: async () => undefined, turns: async () => [] };

export interface RenderOptions {
  keys?: Record<string, string | string[]>;
  history?: string[];
  sessions?: SessionSource;
  memory?: MemorySource;
  checkpoints?: CheckpointSource;
  /** The files as they are now (the Changes and Turns diffs); default: none exists. */
  readFile?: (path: string) => string | null;
  now?: () => number;
  addRemote?: ControllerDeps["addRemote"];
  remoteFile?: ControllerDeps["remoteFile"];
  /** What /status, /diff and /review read (default: none, as in a one-shot run). */
  workspace?: ControllerDeps["workspace"];
  /** $EDITOR (Ctrl-G, the Skills tab's e); default: closed without saving. */
  openEditor?: ControllerDeps["openEditor"];
}

/** The services an app (or one component of it) runs on, with the engine replaced by a bus the test drives. */
export function createTestServices(columns: number, rows: number, options: RenderOptions = {}) {
  // Real time, which a test moves on (a person reading an approval card) instead of sleeping.
  let skew = 0;
  const later = (ms = CARD_GUARD_MS) => void (skew += ms);
  const now = options.now ?? (() => Date.now() + skew);
  // The store's clock reads the controller's time (status messages expire by it) and ticks only
  // when the test advances it (`clock.advance`), never on its own.
  const clock = manualClock(now);
  const store = new Store({ frameMs: 0, clock }, { columns, rows });
  const bus = new Bus();
  bus.subscribe((e) => store.dispatch(e));
  const sent: BusCommand[] = [];
  bus.onCommand((c) => sent.push(c));
  const palette = makePalette(builtinTheme("dark"), 0);
  // As the program sets it for this depth (theme/setup.ts): fields draw their cursor through it.
  inkChalk(0);
  const copied: string[] = [];
  const state = { exits: 0 };
  let n = 0;
  const ctl = new Controller(
    {
      store,
      bus,
      keymap: resolveKeymap<Action>(defaultKeymap(), options.keys).keymap,
      editorKeys: resolveKeymap(editorKeyDefaults, { deleteToLineEnd: [] }).keymap,
      history: new History(options.history ?? []),
      remember: () => {},
      copy: (text) => {
        copied.push(text);
        return { ok: true };
      },
      exit: () => void state.exits++,
      openEditor: options.openEditor ?? (async () => null),
      paths: () => ["README.md", "src/cli.ts", "src/ui/App.tsx"],
      newTaskId: () => `t${++n}`,
      themes: () => ["dark", "light", "high-contrast"],
      sandboxLabel: () => "unsandboxed",
      skills: () => [
        { name: "release", description: "cut a release", file: "/ws/.nanohermes/skills/release/SKILL.md" },
      ],
      trustWorkspace: () => {},
      sessions: options.sessions ?? noSessions,
      memory: options.memory ?? noMemory,
      checkpoints: options.checkpoints ?? noCheckpoints,
      now,
      addRemote:
        options.addRemote ??
        (async () => {
          throw new Error("no daemon here");
        }),
      remoteFile:
        options.remoteFile ??
        (async () => {
          throw new Error("no daemon here");
        }),
      ...(options.workspace ? { workspace: options.workspace } : {}),
    },
    keyLayers,
  );
  const services: AppServices = {
    store,
    ctl,
    palette,
    markdown: markdownStyles(palette),
    renderer: new TranscriptRenderer(palette, markdownStyles(palette), false),
    ascii: false,
    motion: false,
    workspace: "/work/demo",
    sandbox: "unsandboxed",
    before: new Map(),
    readFile: options.readFile ?? (() => null),
  };
  const settle = connectScreen(services, ctl);
  bus.subscribe((e) => {
    if (e.type === "tool.completed" || e.type === "checkpoints.updated" || e.type === "notice") settle.filesChanged();
  });
  return { store, bus, ctl, services, sent, copied, state, later, clock };
}

export async function renderUi(columns: number, rows: number, options: RenderOptions = {}): Promise<Harness> {
  const { store, bus, ctl, services, sent, copied, state, later, clock } = createTestServices(columns, rows, options);
  const stdout = new SizedStdout(columns, rows);
  const instance = render(
    <AppContext.Provider value={services}>
      <App />
    </AppContext.Provider>,
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  const parser = new KeyParser();
  const harness: Harness = {
    store,
    ctl,
    sent,
    copied,
    get exits() {
      return state.exits;
    },
    emit: (event) => bus.emit(event),
    keys: (bytes) => {
      for (const e of [...parser.feed(bytes), ...parser.flush()]) ctl.handle(e);
    },
    later,
    clock,
    frame: async () => {
      for (let i = 0; i < 4; i++) await tick();
      return stdout.frames.at(-1) ?? "";
    },
    lines: async () => (await harness.frame()).split("\n"),
    unmount: () => instance.unmount(),
  };
  // A first task, as the engine would announce it.
  bus.emit({ type: "task.updated", taskId: "t0", task: snapshot() });
  return harness;
}

/** The first frame that passes `test`, polling the harness; fails with the last frame after `ms`. */
export async function until(harness: Harness, test: (frame: string) => boolean, ms = 3000): Promise<string> {
  const start = Date.now();
  for (;;) {
    const frame = await harness.frame();
    if (test(frame)) return frame;
    if (Date.now() - start > ms) throw new Error(`timed out; last frame:\n${frame}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
