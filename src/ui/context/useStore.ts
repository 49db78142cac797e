// Subscribes a component to one slice of the store: it re-renders only when the slice changes.
// Slices come from the settled view of the last notification (Store.getView), never from updates
// applied since, so every component of a frame draws the same state.
// Slices are compared by identity, or element by element for an array of slices (`useSlices`), so
// a streamed token (a new transcript) re-renders only the components that read that transcript.
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

const sameItems = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

/** Several slices at once; a new array of the same slices counts as no change. */
export function useSlices(select: (state: AppState) => readonly unknown[]): readonly unknown[] {
  return useStore(select, sameItems);
}

export function useApp() {
  return useContext(AppContext);
}
