// Exporting a task: without a path given, ask where (the field starts with a file in the home
// folder), so an export never lands silently in the repository's root.
import type { DialogHost, UiHost } from "./host.js";

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40) || "task";

/** Opens the "Export to" question for `taskId`, prefilled with `~/nanohermes-TITLE-DATE.md|json`. */
export function askExport(ctl: UiHost, taskId: string, format: "markdown" | "json"): void {
  const task = ctl.state.tasks[taskId];
  if (!task) return;
  const date = new Date(ctl.now()).toISOString().slice(0, 10);
  const name = `nanohermes-${slug(task.snapshot.title)}-${date}.${format === "markdown" ? "md" : "json"}`;
  ctl.setUi((ui) => ({
    ...ui,
    dialog: {
      kind: "input",
      purpose: "export",
      title: `Export as ${format === "markdown" ? "Markdown" : "JSON"} to (Enter writes, Esc cancels)`,
      value: `~/${name}`,
      target: `${format}:${taskId}`,
      index: 0,
    },
  }));
}

/** The answer: `~/` is the home folder; a relative path is relative to the workspace, as with /export PATH. */
export function exportTo(ctl: DialogHost, target: string, path: string): void {
  const [format, ...rest] = target.split(":");
  const taskId = rest.join(":");
  if (!path || (format !== "markdown" && format !== "json")) return;
  const home = ctl.home;
  const file = path === "~" || path.startsWith("~/") ? (home ? home + path.slice(1) : null) : path;
  if (file === null) {
    ctl.status("export: no home folder known here; give a full path", "error");
    return;
  }
  ctl.send({ type: "task.export", taskId, format, path: file });
}
