// /permissions: what "always" answers allowed in this task, one rule a row; x removes one.
import { listDialog } from "../view/dialog-frame.js";
import { listStep, moveIndex } from "../input/list-nav.js";
import { isKey, setDialog, type DialogSpec } from "./dialog.js";
import type { PermissionsDialog } from "../state/dialogs.js";

export const permissionsDialog: DialogSpec<PermissionsDialog> = {
  view(_s, sv, d, _width, height) {
    const items = sv.ctl.currentTask()?.snapshot.rules ?? [];
    return listDialog(
      'Allowed by "always" in this task',
      items,
      d.index,
      height,
      "nothing: answer an approval with a (task) or A (workspace)",
      "↑↓ · x remove · Esc close",
    );
  },
  keys(host, d, event) {
    if (event.kind !== "key") return false;
    const task = host.currentTask();
    const rules = task?.snapshot.rules ?? [];
    const i = Math.min(d.index, Math.max(0, rules.length - 1));
    const step = listStep(event.key);
    if (step) setDialog(host, { ...d, index: moveIndex(i, rules.length, step) });
    else if ((isKey(event.key, "x") || isKey(event.key, "delete")) && task && rules[i])
      host.send({ type: "permissions.remove", taskId: task.id, rule: rules[i] });
    else return false;
    return true;
  },
};
