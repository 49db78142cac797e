// Rendering only reads: with the state, the controller and the services frozen, the whole app
// renders every pane, tab and the subagent view without writing anywhere, and reads no file.
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "../../../src/ui/components/App.js";
import type { ResultsTab } from "../../../src/ui/state/ui-state.js";
import type { AppState } from "../../../src/ui/state/store.js";
import { mountPane } from "./mount.js";

function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (value === null || typeof value !== "object" || seen.has(value)) return value;
  seen.add(value);
  for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key], seen);
  return Object.freeze(value);
}

let mounted: ReturnType<typeof mountPane> | undefined;
afterEach(() => {
  mounted?.app.unmount();
  mounted = undefined;
});

const ev = { taskId: "t0" };

describe.each([40, 80, 120])("at %i columns", (columns) => {
  it.each(["changes", "turns", "agents", "todo"] as ResultsTab[])(
    "draws the %s tab beside a streaming transcript without a write or a file read",
    async (tab) => {
      const readFile = vi.fn((path: string) => (path === "a.txt" ? "new\n" : null));
      mounted = mountPane(<App />, columns, 24, { readFile });
      const { store, bus, ctl, services } = mounted;
      bus.emit({ type: "turn.started", ...ev, turnId: "turn-1", prompt: "go" });
      bus.emit({ type: "tool.started", ...ev, callId: "c1", name: "run", kind: "exec", args: {}, summary: "make" });
      store.updateUi((ui) => ({ ...ui, resultsOpen: true, focus: "results", resultsTab: tab, diffPath: "a.txt" }));
      await mounted.frame();
      // The settle step read the shown file once; from here on renders must not.
      expect(readFile).toHaveBeenCalledTimes(1);
      const reads = readFile.mock.calls.length;
      // Each later state is frozen before any component sees it.
      const getState = store.getState;
      const frozen = new WeakSet<AppState>();
      store.getState = () => {
        const s = getState();
        if (!frozen.has(s)) deepFreeze(s), frozen.add(s);
        return s;
      };
      Object.freeze(ctl);
      Object.freeze(services);
      for (let i = 0; i < 20; i++) bus.emit({ type: "assistant.delta", ...ev, text: `token ${i} ` });
      // A redraw is a part of every component's model (a token alone re-renders only the transcript).
      store.redraw();
      const frame = await mounted.frame();
      // Below 120 columns the results pane covers the transcript.
      if (columns >= 120) expect(frame).toContain("token 19");
      expect(frame.split("\n")).toHaveLength(23);
      expect(readFile.mock.calls.length).toBe(reads);
      // The controller still measures what is on screen (from the state, not from a render).
      expect(ctl.view?.count).toBeGreaterThan(0);
      expect(ctl.results).not.toBeNull();
      store.getState = getState;
    },
  );
});
