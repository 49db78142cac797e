// The pending messages of the current task (steers and queued prompts): ↑↓ pick one, e edits it
// in the input, x drops it, K/J move it, m turns a steer into a queued prompt and back.
import { listDialog } from "../view/dialog-frame.js";
import { createEditor } from "../input/editor.js";
import { listStep, moveIndex } from "../input/list-nav.js";
import { truncateToWidth } from "../render/wrap.js";
import { listTextWidth } from "../view/select-list.js";
import { closeDialog, isKey, setDialog, type DialogSpec } from "./dialog.js";
import type { QueueDialog } from "../state/dialogs.js";

export const queueDialog: DialogSpec<QueueDialog> = {
  view(_s, sv, d, width, height) {
    const p = sv.palette;
    const text = listTextWidth(width - 2);
    const items = (sv.ctl.currentTask()?.queue ?? []).map(
      (it) =>
        `${it.mode === "steer" ? p.accent("steer") : p.info("queue")} ${truncateToWidth(it.text.replace(/\n/g, " "), text - 6)}`,
    );
    return listDialog(
      "Pending messages",
      items,
      d.index,
      height,
      "nothing pending",
      "↑↓ · e edit · x drop · K/J move · m steer/queue · Esc close",
    );
  },
  keys(host, d, event) {
    if (event.kind !== "key") return false;
    const task = host.currentTask();
    const items = task?.queue ?? [];
    const key = event.key;
    if (!task || items.length === 0) {
      closeDialog(host);
      return true;
    }
    const i = Math.min(d.index, items.length - 1);
    const update = (next: typeof items) => host.send({ type: "queue.update", taskId: task.id, items: next });
    const step = listStep(key);
    if (step) setDialog(host, { ...d, index: moveIndex(i, items.length, step) });
    else if ((key.shift && (key.name === "up" || key.name === "down")) || key.text === "K" || key.text === "J") {
      const j = key.name === "up" || key.text === "K" ? i - 1 : i + 1;
      if (j < 0 || j >= items.length) return true;
      const next = items.slice();
      [next[i], next[j]] = [next[j]!, next[i]!];
      update(next);
      setDialog(host, { ...d, index: j });
    } else if (isKey(key, "x") || isKey(key, "delete")) update(items.filter((_, k) => k !== i));
    else if (isKey(key, "e") || isKey(key, "enter")) {
      update(items.filter((_, k) => k !== i));
      host.setUi((ui) => ({ ...ui, dialog: null, composer: createEditor(items[i]!.text), focus: "composer" }));
      host.status("edit it, then Enter to steer or Tab to queue");
    } else if (isKey(key, "m"))
      update(items.map((it, k) => (k === i ? { ...it, mode: it.mode === "steer" ? "queue" : "steer" } : it)));
    else return false;
    return true;
  },
};
