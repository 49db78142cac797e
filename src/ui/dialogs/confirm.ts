// A yes/no question: delete a task, trust the workspace, stop a subagent (f: and kill its
// command), forget a memory, revert one file to before a turn, quit while work still runs.
import { confirmStopAgent } from "../controller/agents.js";
import { memoryForgotten } from "../controller/memory-dialog.js";
import { revertConfirmed } from "../controller/rewind.js";
import type { DialogHost, UiHost } from "../controller/host.js";
import { wrapLine } from "../render/wrap.js";
import { closeDialog, isKey, type DialogSpec } from "./dialog.js";
import type { ConfirmDialog } from "../state/dialogs.js";

const footers: Partial<Record<ConfirmDialog["action"], string>> = {
  stopAgent: "y stop · f stop and kill its command · n or Esc no",
  revertFile: "y revert · n or Esc no",
  quit: "y quit · n or Esc stay",
};

/** What the question's answers use: the store, the bus, the status line and three ports by name. */
export type ConfirmHost = UiHost & Pick<DialogHost, "memory" | "exit" | "trustWorkspace">;

export const confirmDialog: DialogSpec<ConfirmDialog, ConfirmHost> = {
  view(_s, sv, d, width) {
    const p = sv.palette;
    return {
      title: "Confirm",
      body: [
        { kind: "lines", lines: wrapLine(d.title, Math.max(4, width - 2), { words: true }).map((l) => p.warning(l)) },
      ],
      footer: footers[d.action] ?? "y yes · n or Esc no",
    };
  },
  keys(host, d, event) {
    if (event.kind !== "key") return false;
    const key = event.key;
    if (isKey(key, "y") || (d.action === "stopAgent" && isKey(key, "f"))) {
      closeDialog(host);
      if (d.action === "delete") host.send({ type: "task.delete", taskId: d.target });
      else if (d.action === "stopAgent") confirmStopAgent(host, d, key.name === "f");
      else if (d.action === "forgetMemory") memoryForgotten(host, d.target);
      else if (d.action === "revertFile") revertConfirmed(host, d);
      else if (d.action === "quit") host.exit();
      else host.trustWorkspace();
      return true;
    }
    if (isKey(key, "n")) {
      closeDialog(host);
      return true;
    }
    return false;
  },
};
