// Subscribes a component to one slice of the store; it re-renders only when that slice changes
// (compared by identity, so slices must be stable objects from the reducers).
import { useContext, useSyncExternalStore } from "react";
import type { AppState } from "../state/store.js";
import { AppContext } from "./services.js";

export function useStore<T>(select: (state: AppState) => T): T {
  const { store } = useContext(AppContext);
  return useSyncExternalStore(store.subscribe, () => select(store.getState()));
}

export function useApp() {
  return useContext(AppContext);
}
