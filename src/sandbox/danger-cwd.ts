// Where each part of a command list runs. `cd / && rm -rf home` deletes /home, so a part after
// `cd DIR`, `pushd DIR` (or run by `env -C DIR`, `sudo -D DIR`) is judged a second time with its
// relative paths read from DIR. A directory is kept as written (`/`, `~/x`, `$X`, `../y`).
import { normalisePath } from "./danger-paths.js";
import { isAssignment, type SimpleCommand, type Word } from "./shell-parse.js";
import { unwrap } from "./unwrap.js";

/** `path` as seen from `dir` (`""` is the workspace): absolute, home and variable paths stay. */
export function joinDir(dir: string, path: string): string {
  if (dir === "" || /^[/~$`]/.test(path)) return path;
  const rest = path.replace(/^(\.\/+)+/, "").replace(/^\.$/, "");
  return normalisePath(rest === "" ? dir : `${dir.replace(/\/+$/, "")}/${rest}`);
}

/** The directory the rest of the list runs in after `cmd`: `cd`, `pushd` and `popd` move it. */
export function movesTo(cmd: SimpleCommand, dir: string): string {
  const words = cmd.words.filter((w, k) => !(isAssignment(w) && cmd.words.slice(0, k).every(isAssignment)));
  const program = words[0]?.text;
  if (program !== "cd" && program !== "pushd" && program !== "popd" && program !== "chdir") return dir;
  if (program === "popd") return "$OLDPWD";
  const operand = words.slice(1).find((w) => !/^-[LPe@]+$/.test(w.text) && w.text !== "--");
  if (operand === undefined) return "~";
  if (operand.text === "-" || /^[+-]\d+$/.test(operand.text)) return "$OLDPWD";
  return joinDir(dir, operand.text);
}

/** The directory `env -C DIR` or `sudo -D DIR` runs its command in, else `dir`. */
export function runsIn(cmd: SimpleCommand, dir: string): string {
  const words = cmd.words.map((w) => w.text);
  for (let i = 0; i < words.length - 1; i++) {
    const w = words[i]!;
    const m = /^--chdir=(.*)$/.exec(w) ?? /^-[a-zA-Z]*[CD](.+)$/.exec(w);
    if (m) return joinDir(dir, m[1]!);
    if (w === "--chdir" || /^-[a-zA-Z]*[CD]$/.test(w)) {
      const wrapper = words.slice(0, i).find((x) => x === "env" || x === "sudo" || x.endsWith("/env"));
      if (wrapper) return joinDir(dir, words[i + 1]!);
    }
  }
  return dir;
}

/** A word that names a path relative to where the command runs. */
const relative = (w: Word) =>
  !/^[-/~$`+]/.test(w.text) && !/\s|:\/\/|^[\w.-]+:|=/.test(w.text) && w.text !== "" && !/^\d+$/.test(w.text);

/** `cmd` with its relative operands and redirection targets read from `dir`; null if none moves. */
export function relocate(cmd: SimpleCommand, dir: string): SimpleCommand | null {
  if (dir === "") return null;
  const u = unwrap(cmd.words.map((w) => w.text));
  const at = cmd.words.length - u.args.length;
  let changed = false;
  const move = (w: Word): Word => {
    const dd = /^(if|of)=(.+)$/.exec(w.text);
    if (!relative(w) && !(dd && relative({ ...w, text: dd[2]! }))) return w;
    changed = true;
    return { ...w, text: dd ? `${dd[1]}=${joinDir(dir, dd[2]!)}` : joinDir(dir, w.text) };
  };
  const words = cmd.words.map((w, k) => (k >= at ? move(w) : w));
  const redirects = cmd.redirects.map((r) =>
    r.target && !/^(>&|<&)$/.test(r.op) ? { ...r, target: move(r.target) } : r,
  );
  return changed ? { ...cmd, words, redirects } : null;
}
