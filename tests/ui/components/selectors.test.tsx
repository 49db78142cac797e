// Each component draws from its model (a selector memoised per part): a change to a part its pane
// reads draws it again, a change to anything else does not. Renders are counted with React's
// Profiler around the component, mounted alone (ink-testing-library) on the real store.
import { Profiler, type ReactElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { BusEvent } from "../../../src/protocol/events.js";
import { App } from "../../../src/ui/components/App.js";
import { DialogArea } from "../../../src/ui/components/DialogArea.js";
import { ResultsPane } from "../../../src/ui/components/ResultsPane.js";
import { tabComponent } from "../../../src/ui/components/ResultsTab.js";
import { StatusLine } from "../../../src/ui/components/StatusLine.js";
import { TaskList } from "../../../src/ui/components/TaskList.js";
import { TitleBar } from "../../../src/ui/components/TitleBar.js";
import { Transcript } from "../../../src/ui/components/Transcript.js";
import { CLOCK_TICK_MS } from "../../../src/ui/state/store.js";
import { snapshot } from "../harness.js";
import { mountPane } from "./mount.js";

type Mounted = ReturnType<typeof mountPane>;
let mounted: Mounted | undefined;
afterEach(() => {
  mounted?.app.unmount();
  mounted = undefined;
});

const T0 = 1_700_000_000_000;
const ev = { taskId: "t0" };
const turn: BusEvent = { type: "turn.started", ...ev, turnId: "turn-1", prompt: "go" };
const token = (text: string, taskId = "t0"): BusEvent => ({ type: "assistant.delta", taskId, text });

/** Mounts `element` with its commits counted; the clock is fixed at T0 until the test moves it. */
async function counted(element: ReactElement, columns = 80) {
  let renders = 0;
  mounted = mountPane(
    <Profiler id="pane" onRender={() => void renders++}>
      {element}
    </Profiler>,
    columns,
    24,
    { now: () => T0 },
  );
  await mounted.frame();
  const m = mounted;
  return {
    m,
    /** The commits `change` caused, once its notification and renders ran. */
    async drawsFor(change: () => void): Promise<number> {
      await m.frame();
      const before = renders;
      change();
      await m.frame();
      return renders - before;
    },
  };
}

/** Another task streaming: a part of the state no pane of task t0 reads. */
const otherTaskStreams = (m: Mounted) => {
  m.bus.emit({ type: "task.updated", taskId: "t1", task: snapshot({ title: "other" }) });
  m.bus.emit({ type: "turn.started", taskId: "t1", turnId: "turn-9", prompt: "elsewhere" });
  m.bus.emit(token("elsewhere", "t1"));
};

describe("a component draws again when, and only when, a part its pane reads changes", () => {
  it("TitleBar: the tasks, not a streamed token, the focus or the clock", async () => {
    const { m, drawsFor } = await counted(<TitleBar width={80} />);
    m.bus.emit(turn);
    expect(await drawsFor(() => m.bus.emit(token("hello")))).toBe(0);
    expect(await drawsFor(() => m.store.updateUi((ui) => ({ ...ui, focus: "browse" })))).toBe(0);
    expect(await drawsFor(() => m.clock.advance(CLOCK_TICK_MS))).toBe(0);
    const task = snapshot({ model: "other-model" });
    expect(await drawsFor(() => m.bus.emit({ type: "task.updated", ...ev, task }))).toBe(1);
    expect(m.app.lastFrame()).toContain("other-model");
  });

  it("TaskList: the selection and the tasks, not a streamed token or the clock", async () => {
    const { m, drawsFor } = await counted(<TaskList width={26} height={8} />);
    m.bus.emit(turn);
    expect(await drawsFor(() => m.bus.emit(token("hello")))).toBe(0);
    expect(await drawsFor(() => m.clock.advance(CLOCK_TICK_MS))).toBe(0);
    expect(await drawsFor(() => m.store.updateUi((ui) => ({ ...ui, composer: { ...ui.composer } })))).toBe(0);
    expect(await drawsFor(() => m.store.updateUi((ui) => ({ ...ui, focus: "tasks", taskIndex: 1 })))).toBe(1);
    expect(
      await drawsFor(() => m.bus.emit({ type: "task.updated", taskId: "t1", task: snapshot({ title: "b" }) })),
    ).toBe(1);
    expect(m.app.lastFrame()).toContain("b");
  });

  it("Transcript: its task's transcript, not another task, the results pane or an idle clock", async () => {
    const { m, drawsFor } = await counted(<Transcript width={80} height={12} left={0} top={0} />);
    expect(await drawsFor(() => otherTaskStreams(m))).toBe(0);
    // A key elsewhere reads the clock again (the state's clock moves); an idle transcript shows no time.
    expect(await drawsFor(() => m.store.updateUi((ui) => ({ ...ui, resultsIndex: 3 })))).toBe(0);
    expect(await drawsFor(() => m.bus.emit(token("general reply")))).toBe(1);
    expect(m.app.lastFrame()).toContain("general reply");
  });

  it("StatusLine: a status message, not a streamed token or the clock's ticks", async () => {
    const { m, drawsFor } = await counted(<StatusLine width={80} />);
    m.bus.emit(turn);
    expect(await drawsFor(() => m.bus.emit(token("hello")))).toBe(0);
    expect(await drawsFor(() => m.clock.advance(CLOCK_TICK_MS))).toBe(0);
    expect(await drawsFor(() => m.ctl.status("saved the thing"))).toBe(1);
    expect(m.app.lastFrame()).toContain("saved the thing");
  });

  it("ResultsPane: its tab's parts and the tab bar's counts, not a streamed token or the clock", async () => {
    const { m, drawsFor } = await counted(<ResultsPane width={40} height={10} />);
    m.store.updateUi((ui) => ({ ...ui, resultsOpen: true, resultsTab: "reads" }));
    m.bus.emit(turn);
    expect(await drawsFor(() => m.bus.emit(token("hello")))).toBe(0);
    expect(await drawsFor(() => m.clock.advance(CLOCK_TICK_MS))).toBe(0);
    expect(await drawsFor(() => otherTaskStreams(m))).toBe(0);
    expect(await drawsFor(() => m.store.updateUi((ui) => ({ ...ui, resultsIndex: 2 })))).toBe(1);
  });

  it("the Agents tab: the clock only while a child runs", async () => {
    const AgentsTab = tabComponent("agents");
    const { m, drawsFor } = await counted(<AgentsTab width={60} height={8} focused={false} />);
    m.bus.emit(turn);
    // A turn counts time (the clock ticks) but the board has no running child: no change here.
    expect(await drawsFor(() => m.clock.advance(CLOCK_TICK_MS))).toBe(0);
    expect(await drawsFor(() => m.store.updateUi((ui) => ({ ...ui, resultsIndex: 1 })))).toBe(1);
  });

  it("DialogArea: the open dialog, not another task's stream", async () => {
    const { m, drawsFor } = await counted(<DialogArea width={60} height={12} />);
    const dialog = { kind: "confirm", title: "Delete it?", action: "delete", target: "t0" } as const;
    expect(await drawsFor(() => m.store.updateUi((ui) => ({ ...ui, dialog })))).toBe(1);
    expect(m.app.lastFrame()).toContain("Delete it?");
    expect(await drawsFor(() => otherTaskStreams(m))).toBe(0);
    expect(await drawsFor(() => m.store.updateUi((ui) => ({ ...ui, dialog: { ...dialog, title: "Sure?" } })))).toBe(1);
    expect(m.app.lastFrame()).toContain("Sure?");
  });
});

describe("elapsed times move with the store's clock, with no forced tick", () => {
  it("a running tool's 3s becomes 4s when the clock moves a second", async () => {
    const { m, drawsFor } = await counted(<Transcript width={80} height={12} left={0} top={0} />);
    m.bus.emit(turn);
    m.bus.emit({ type: "tool.started", ...ev, callId: "c1", name: "run", kind: "exec", args: {}, summary: "make" });
    await m.frame();
    const tool = () => (m.app.lastFrame() ?? "").split("\n").find((l) => l.includes("make")) ?? "";
    expect(tool()).toMatch(/ 0s/);
    m.clock.advance(3 * CLOCK_TICK_MS);
    await m.frame();
    expect(tool()).toMatch(/ 3s/);
    expect(await drawsFor(() => m.clock.advance(CLOCK_TICK_MS))).toBe(1);
    expect(tool()).toMatch(/ 4s/);
    expect(tool()).not.toMatch(/ 3s/);
  });

  it("an idle app hears nothing from the clock and draws nothing", async () => {
    const { m, drawsFor } = await counted(<App />, 120);
    const heard = m.store.notifications;
    expect(await drawsFor(() => m.clock.advance(10 * CLOCK_TICK_MS))).toBe(0);
    expect(m.store.notifications).toBe(heard);
  });
});
