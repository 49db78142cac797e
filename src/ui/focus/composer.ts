// The composer: no keys before the global ones (Ctrl-C, Esc, Tab between panes come first); the
// rest is typing, editing and sending (controller/composer-keys.ts, shared with nothing else).
import { handleComposerKey } from "../controller/composer-keys.js";
import type { FocusSpec } from "./focus.js";

export const composerFocus: FocusSpec = {
  keys: () => false,
  typing: (ctl, event) => {
    handleComposerKey(ctl, event);
  },
};
