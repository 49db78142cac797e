// The composer: no keys before the global ones (Ctrl-C, Esc, Tab between panes come first); the
// rest is typing, editing and sending (controller/composer-keys.ts, shared with nothing else).
import type { FocusSpec } from "./focus.js";

export const composerFocus: FocusSpec = {
  keys: () => false,
  typing: (host, event) => {
    host.composerKey(event);
  },
};
