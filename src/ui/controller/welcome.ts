// The first-start welcome: with no key and no endpoint, the task on screen opens with what to set
// up (the engine refuses to send anything until then, with the same words).
import { missingCredentials, setupHint } from "../../config/credentials.js";
import type { Settings } from "../../config/schema.js";
import type { Controller } from "./controller.js";

/** Contract: called once the first task exists; not for `attach` (the daemon has its own model). */
export function showWelcome(ctl: Controller, settings: Settings): boolean {
  const taskId = ctl.state.current;
  if (!taskId || !missingCredentials(settings)) return false;
  ctl.deps.store.dispatch({
    type: "notice",
    taskId,
    level: "info",
    text: `Welcome to NanoHermes. ${setupHint(settings).join("\n")}`,
  });
  return true;
}
