// Per-write cost of write_file and edit_file through the no-follow walk (src/tools/safe-fs.ts),
// against a copy of the path-based code they replaced (resolve, check, then act by path), in the
// same run, alternating, on the same files. Goal (issue 14): at most 2x per write.
import {
  promises as fs,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { editFileTool } from "../src/tools/edit-file.js";
import type { ToolContext } from "../src/tools/define.js";
import { writableWalk } from "../src/tools/paths.js";
import { writeFileTool } from "../src/tools/write-file.js";
import { printTable } from "./table.js";

const WRITES = 400;

// --- the previous, path-based code, kept here only as the baseline ---

function oldRealPathOf(path: string, depth = 0): string {
  try {
    return realpathSync(path);
  } catch {
    if (depth > 40) return path;
    try {
      if (lstatSync(path).isSymbolicLink()) return oldRealPathOf(resolve(dirname(path), readlinkSync(path)), depth + 1);
    } catch {
      // missing
    }
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(oldRealPathOf(parent, depth + 1), relative(parent, path));
  }
}

function oldWritableTarget(workspace: string, abs: string): string {
  const root = oldRealPathOf(workspace);
  const real = oldRealPathOf(abs);
  const inside = real === root || real.startsWith(root + sep);
  if (!inside) throw new Error("outside");
  for (const p of [".git/hooks", ".git/config", ".nanohermes"])
    if (real.startsWith(join(root, p))) throw new Error("protected");
  return real;
}

async function oldAtomicWriteFile(path: string, data: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  let keepMode: number | undefined;
  try {
    keepMode = (await fs.stat(path)).mode & 0o7777;
  } catch {
    keepMode = undefined;
  }
  const handle = await fs.open(tmp, "wx", keepMode ?? 0o644);
  await handle.writeFile(data);
  await handle.sync();
  await handle.close();
  if (keepMode !== undefined) await fs.chmod(tmp, keepMode);
  await fs.rename(tmp, path);
}

async function oldWriteFile(workspace: string, path: string, content: string): Promise<void> {
  const target = oldWritableTarget(workspace, resolve(workspace, path));
  try {
    const stat = await fs.stat(target);
    if (stat.isDirectory()) throw new Error("directory");
    await fs.readFile(target, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await fs.mkdir(dirname(target), { recursive: true });
  await oldAtomicWriteFile(target, content);
}

async function oldEditFile(workspace: string, path: string, from: string, to: string): Promise<void> {
  const target = oldWritableTarget(workspace, resolve(workspace, path));
  const stat = await fs.stat(target);
  if (stat.isDirectory()) throw new Error("directory");
  const text = (await fs.readFile(target)).toString("utf8");
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error("not unique");
  await oldAtomicWriteFile(target, text.slice(0, at) + to + text.slice(at + from.length));
}

// --- the measurement ---

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

export interface FileWriteBench {
  writes: number;
  /** Median per call, microseconds: [walk, old path-based]. */
  writeFileUs: [number, number];
  editFileUs: [number, number];
  /** Resolving and checking the path alone (no I/O on the file): the walk's own cost. */
  resolveUs: [number, number];
  writeFileRatio: number;
  editFileRatio: number;
}

export async function benchFileWrites(): Promise<FileWriteBench> {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), "nh-bench-files-")));
  // A typical depth: the walk opens one directory per component from `/`.
  const rel = "src/components/editor/panel";
  mkdirSync(join(ws, rel), { recursive: true });
  const body = Array.from({ length: 200 }, (_, i) => `export const line${i} = ${i};`).join("\n") + "\n";
  const ctx: ToolContext = { workspace: ws, signal: new AbortController().signal, output: () => {} };
  const times = {
    newWrite: [] as number[],
    oldWrite: [] as number[],
    newEdit: [] as number[],
    oldEdit: [] as number[],
    newResolve: [] as number[],
    oldResolve: [] as number[],
  };
  const time = async (into: number[], fn: () => Promise<unknown>) => {
    const t = process.hrtime.bigint();
    await fn();
    into.push(Number(process.hrtime.bigint() - t) / 1000);
  };
  try {
    writeFileSync(join(ws, rel, "new.ts"), body);
    writeFileSync(join(ws, rel, "old.ts"), body);
    for (let i = 0; i < WRITES; i++) {
      const content = `${body}// ${i}\n`;
      // Alternating which goes first, so neither gets the warmer cache.
      const pair = [
        () => time(times.newWrite, () => writeFileTool.run({ path: `${rel}/new.ts`, content }, ctx)),
        () => time(times.oldWrite, () => oldWriteFile(ws, `${rel}/old.ts`, content)),
      ];
      for (const run of i % 2 === 0 ? pair : pair.reverse()) await run();
      const edit = [
        () =>
          time(times.newEdit, () =>
            editFileTool.run({ path: `${rel}/new.ts`, old_string: `// ${i}\n`, new_string: `// edited ${i}\n` }, ctx),
          ),
        () => time(times.oldEdit, () => oldEditFile(ws, `${rel}/old.ts`, `// ${i}\n`, `// edited ${i}\n`)),
      ];
      for (const run of i % 2 === 0 ? edit : edit.reverse()) await run();
      const abs = join(ws, rel, "new.ts");
      await time(times.newResolve, async () => writableWalk(ws, abs, undefined).close());
      await time(times.oldResolve, async () => oldWritableTarget(ws, abs));
    }
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
  const us = (xs: number[]) => Math.round(median(xs));
  const writeFileUs: [number, number] = [us(times.newWrite), us(times.oldWrite)];
  const editFileUs: [number, number] = [us(times.newEdit), us(times.oldEdit)];
  return {
    writes: WRITES,
    writeFileUs,
    editFileUs,
    resolveUs: [us(times.newResolve), us(times.oldResolve)],
    writeFileRatio: +(writeFileUs[0] / writeFileUs[1]).toFixed(2),
    editFileRatio: +(editFileUs[0] / editFileUs[1]).toFixed(2),
  };
}

export async function benchFilesSection(): Promise<FileWriteBench> {
  const files = await benchFileWrites();
  console.log(
    `\nfile tools, per write (median of ${files.writes}, a 200-line file 7 directories deep): the no-follow walk vs the old path-based code, same run:`,
  );
  printTable([
    ["measure", "walk", "old", "ratio", "target"],
    [
      "write_file (replace)",
      `${files.writeFileUs[0]} us`,
      `${files.writeFileUs[1]} us`,
      String(files.writeFileRatio),
      "<= 2",
    ],
    [
      "edit_file (one replacement)",
      `${files.editFileUs[0]} us`,
      `${files.editFileUs[1]} us`,
      String(files.editFileRatio),
      "<= 2",
    ],
    [
      "  resolving and checking the path alone",
      `${files.resolveUs[0]} us`,
      `${files.resolveUs[1]} us`,
      (files.resolveUs[0] / files.resolveUs[1]).toFixed(2),
      "",
    ],
  ]);
  return files;
}
