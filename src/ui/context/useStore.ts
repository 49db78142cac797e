// Subscribes a component to its model of the store: it re-renders only when the model changes.
// Models come from the settled view of the last notification (Store.getView), never from updates
// applied since, so every component of a frame draws the same state. A component's model is a
// selector's (../state/select.ts: a plain object of parts, compared part by part with `sameParts`),
// so a streamed token (a new transcript) re-renders only the components whose model holds it.
import { useContext, useRef, useSyncExternalStore } from "react";
import type { AppState } from "../state/store.js";
import { AppContext } from "./services.js";

export function useStore<T>(select: (state: AppState) => T, equal: (a: T, b: T) => boolean = Object.is): T {
  const { store } = useContext(AppContext);
  const last = useRef<{ value: T } | null>(null);
  const snapshot = () => {
    const value = select(store.getView());
    if (last.current && equal(last.current.value, value)) return last.current.value;
    last.current = { value };
    return value;
  };
  return useSyncExternalStore(store.subscribe, snapshot);
}

export function useApp() {
  return useContext(AppContext);
}
