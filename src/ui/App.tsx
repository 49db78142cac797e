// The Ink app: one text node holding the screen composed from the store. Ink's per-cell output pass
// then has a single write to place (with the fast path in scripts/build.mjs, none at all), which
// keeps a streaming frame well under a millisecond.
import { Text, useCursor } from "ink";
import { useSyncExternalStore } from "react";
import { useApp } from "./context/useStore.js";
import { composeScreen } from "./text-frame.js";

export function App() {
  const services = useApp();
  const state = useSyncExternalStore(services.store.subscribe, services.store.getState);
  const { setCursorPosition } = useCursor();
  const screen = composeScreen(state, services);
  setCursorPosition(screen.cursor);
  return <Text wrap="truncate-end">{screen.lines.join("\n")}</Text>;
}
