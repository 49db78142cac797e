// `edit` and `save` of scripts/patches.mjs: a package's files copied into .patches-edit/ with our
// diffs applied, and an edited copy written back as a diff. A copy holds its file "after" one diff
// (the diffs of one file build on each other), which `.patches-edit/<package>@<version>/.edit.json`
// records, so `save` knows the text below the diff and never folds two diffs into one.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { applyOrder } from "./dep-patches.mjs";
import {
  contextOf,
  folderDiffs,
  folderOf,
  HEADER_TEMPLATE,
  idOf,
  installedCopies,
  makeDiff,
  PatchToolError,
  parseSpec,
  rawHunks,
  sha,
  transplant,
} from "./patch-tree.mjs";
import { applyDiff, parseDiff } from "./unified-diff.mjs";

const SCRATCH = ".patches-edit";
const MANIFEST = ".edit.json";
const run = "npm run patches --";

/** The one installed copy `spec` (`name` or `name@version`) names; an error lists the others. */
function installedCopy(root, spec) {
  const { pkg, version } = parseSpec(spec);
  const all = installedCopies(root, new Set([pkg]))
    .get(pkg)
    .sort((a, b) => a.dir.length - b.dir.length);
  const list = all.map((c) => `${c.version} at ${relative(root, c.dir)}`).join(", ");
  if (all.length === 0) throw new PatchToolError(`${pkg} is not installed under ${join(root, "node_modules")}`);
  const mine = version ? all.filter((c) => c.version === version) : all;
  if (mine.length === 0) throw new PatchToolError(`${pkg}@${version} is not installed (installed: ${list})`);
  const versions = [...new Set(mine.map((c) => c.version))];
  if (versions.length > 1)
    throw new PatchToolError(
      `${pkg} is installed in ${versions.length} versions (${list}): name one, as ${pkg}@${versions[0]}`,
    );
  return { pkg, copy: mine[0] };
}

/** A folder's diffs; one that cannot be read stops the tool, naming it. */
function readableDiffs(root, folder) {
  const diffs = folderDiffs(root, folder);
  const bad = diffs.find((d) => d.error);
  if (bad) throw new PatchToolError(bad.error);
  return diffs;
}

/** `diffs` applied in turn to `text`, strictly as the build does; an error names the one that fails. */
function applyChain(text, diffs, hint) {
  for (const d of diffs) {
    try {
      text = applyDiff(text, d.diff, d.name);
    } catch (error) {
      throw new PatchToolError(`${error.message}\n${hint(d)}`);
    }
  }
  return text;
}

const readManifest = (dir) =>
  existsSync(join(dir, MANIFEST)) ? JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) : null;
const writeManifest = (dir, m) => writeFileSync(join(dir, MANIFEST), `${JSON.stringify(m, null, 2)}\n`);
const hunkWord = (n) => `${n} hunk${n === 1 ? "" : "s"}`;

/**
 * Contract: copies into `.patches-edit/<package>@<installed version>/` each file the package's diffs
 * touch (or the one file or diff `arg` names), with the diffs applied up to the one to edit, and
 * returns the lines to print. With `from` (an upgrade), the diffs come from `patches/<pkg>@<from>/`:
 * those already remade for the installed version apply as they are, the next one is moved over
 * hunk by hunk; each hunk that did not apply is reported and written to `<file>.rej`. A copy
 * edited and not saved is never overwritten without `force`.
 * @param {string} root
 * @param {string} spec
 * @param {string | undefined} arg
 * @param {{ from?: string, force?: boolean }} options
 */
export function editPackage(root, spec, arg, { from, force } = {}) {
  const { pkg, copy } = installedCopy(root, spec);
  const version = copy.version;
  const folder = folderOf(pkg, version);
  const target = readableDiffs(root, folder);
  if (from === version) throw new PatchToolError(`${pkg} ${version} is the installed version: edit without --from`);
  const old = from ? readableDiffs(root, folderOf(pkg, from)) : null;
  if (old?.length === 0) throw new PatchToolError(`patches/${folderOf(pkg, from)} holds no diffs`);
  const source = old ?? target;
  const ids = (diffs) => diffs.map((d) => d.id).join(", ");
  const before = (chain, id) => chain.filter((d) => applyOrder(d.id, id) < 0);
  const fixHint = (d) => `Remake it first: ${run} edit ${pkg}@${version} ${d.id}`;

  /** @type {{ file: string, top: any }[]} top: a diff, or "auto": the file's last (its next with --from) */
  let jobs;
  if (arg) {
    const named = source.find((d) => d.id === idOf(arg));
    const path = resolve(copy.dir, arg);
    if (named) jobs = [{ file: named.diff.file, top: named }];
    else if (!old && path.startsWith(copy.dir + sep) && existsSync(path) && statSync(path).isFile())
      jobs = [{ file: relative(copy.dir, path).split(sep).join("/"), top: "auto" }];
    else
      throw new PatchToolError(
        `patches/${folderOf(pkg, from ?? version)} has no diff ${idOf(arg)} (its diffs: ${ids(source) || "none"})${old ? "" : `, and ${pkg} ${version} no file ${arg}`}`,
      );
  } else {
    if (source.length === 0)
      throw new PatchToolError(
        `patches/${folder} holds no diffs: name a file of ${pkg} to edit (${run} edit ${pkg} <file>), or, after an upgrade, the version the diffs were for (--from <version>)`,
      );
    jobs = [...new Set(source.map((d) => d.diff.file))].map((file) => ({ file, top: "auto" }));
  }

  const dir = join(root, SCRATCH, folder);
  const manifest = readManifest(dir) ?? { pkg, version, packageDir: relative(root, copy.dir), files: {} };
  const unsaved = jobs
    .map((j) => j.file)
    .filter(
      (f) =>
        manifest.files[f] &&
        existsSync(join(dir, f)) &&
        sha(readFileSync(join(dir, f), "utf8")) !== manifest.files[f].startHash,
    );
  if (unsaved.length > 0 && !force)
    throw new PatchToolError(
      `${unsaved.map((f) => join(dir, f)).join(", ")}: edited and not saved. Save it (${run} save ${pkg}@${version} <diff>) or pass --force to drop the edits`,
    );

  const out = [`${pkg} ${version} (${relative(root, copy.dir)}): copies to edit in ${dir}/`];
  const toSave = [];
  let written = 0;
  for (const job of jobs) {
    const chain = target.filter((d) => d.diff.file === job.file);
    let top = job.top;
    let below;
    if (old) {
      const oldChain = old.filter((d) => d.diff.file === job.file);
      const remade = new Set(chain.map((d) => d.id));
      if (top === "auto") top = oldChain.find((d) => !remade.has(d.id));
      if (!top) {
        out.push(
          `  ${job.file}: its ${hunkWord(oldChain.length).replace("hunk", "diff")} of ${from} are all in patches/${folder}`,
        );
        continue;
      }
      const missing = before(oldChain, top.id).filter((d) => !remade.has(d.id));
      if (missing.length > 0)
        throw new PatchToolError(
          `${top.id} applies on top of ${ids(missing)}: remake those first (${run} edit ${pkg} --from ${from})`,
        );
      below = before(chain, top.id);
    } else if (top === "auto") {
      below = chain.slice(0, -1);
      top = chain.at(-1) ?? null;
    } else below = before(chain, top.id);

    const pristinePath = join(copy.dir, job.file);
    if (!existsSync(pristinePath)) {
      out.push(
        `  ${job.file}: not in ${pkg} ${version}; ${top ? `${top.name} must be remade by hand for the module that replaced it` : ""}`,
      );
      continue;
    }
    let base = readFileSync(pristinePath, "utf8");
    const notes = [];
    for (const [k, d] of below.entries()) {
      if (old || job.top !== "auto") {
        base = applyChain(base, [d], fixHint);
        continue;
      }
      try {
        base = applyDiff(base, d.diff, d.name);
      } catch {
        // The first diff of the file that no longer applies is the one to edit.
        notes.push(`stops at ${d.id}, which no longer applies (the diffs above it wait)`);
        below = below.slice(0, k);
        top = d;
        break;
      }
    }
    let text = base;
    const rejected = [];
    let pending = Boolean(old);
    if (top) {
      const moved = transplant(base, top.diff);
      text = moved.text;
      const raw = rawHunks(top.text);
      const n = top.diff.hunks.length;
      moved.placed.forEach((p, i) => {
        const hunk = `hunk ${i + 1} of ${n} (${top.diff.hunks[i].at})`;
        if (p === null) rejected.push(raw[i]);
        if (p === null) notes.push(`${hunk} did not apply: see ${job.file}.rej`);
        else if (p.offset !== 0)
          notes.push(
            `${hunk} went to line ${p.line}, ${Math.abs(p.offset)} lines ${p.offset > 0 ? "lower" : "higher"}`,
          );
        if (p === null || p.offset !== 0) pending = true;
      });
      if (rejected.length === 0 && notes.length === 0) notes.push(`${hunkWord(n)} in place`);
      if (pending) toSave.push(top.id);
    }
    const file = join(dir, job.file);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    if (rejected.length > 0)
      writeFileSync(
        `${file}.rej`,
        `The hunks of ${top.name} that did not apply to ${pkg} ${version}: make each change in ${job.file} by hand, then save.\n--- a/${job.file}\n+++ b/${job.file}\n${rejected.join("")}`,
      );
    else rmSync(`${file}.rej`, { force: true });
    manifest.files[job.file] = {
      diff: top?.id ?? null,
      source: top ? top.name.split("/")[1] : null,
      below: below.map((d) => d.id),
      baseHash: sha(base),
      startHash: sha(text),
      pending,
    };
    // Recorded with each copy: a diff that stops a later file leaves the copies before it saveable.
    writeManifest(dir, manifest);
    written++;
    const layers = ["installed", ...below.map((d) => d.id), ...(top ? [`${top.id}${old ? ` of ${from}` : ""}`] : [])];
    out.push(`  ${job.file} = ${layers.join(" + ")}${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`);
  }
  if (written === 0) out.push("nothing to edit");
  else if (toSave.length > 0)
    out.push(`then: ${run} save ${pkg}@${version}   (writes ${toSave.join(", ")} to patches/${folder}/)`);
  else out.push(`edit, then: ${run} save ${pkg}@${version} <diff>   (the diff a copy holds, or a new one)`);
  return out;
}

/**
 * Contract: writes the edited copies of `spec`'s package back as diffs in
 * `patches/<package>@<version>/`: the diff `arg` names, or, without it, each copy that was edited or
 * still holds a diff `edit` moved over. A diff is the difference between the text below it (the
 * installed file with the diffs before it) and the copy; it keeps the header of the diff it
 * replaces (or of the same diff of the older version) or gets a template that asks for the reason,
 * figure and test. It is checked with the build's applier before it is written; diffs above it that
 * no longer apply are reported. Returns the lines to print.
 * @param {string} root
 * @param {string} spec
 * @param {string | undefined} arg
 * @param {{ file?: string }} options
 */
export function savePackage(root, spec, arg, { file: only } = {}) {
  const { pkg, version: wanted } = parseSpec(spec);
  const scratch = join(root, SCRATCH);
  const found = (existsSync(scratch) ? readdirSync(scratch) : [])
    .map((f) => ({ dir: join(scratch, f), m: readManifest(join(scratch, f)) }))
    .filter(({ m }) => m && m.pkg === pkg && (!wanted || m.version === wanted));
  if (found.length === 0) throw new PatchToolError(`no copy of ${spec} to save: ${run} edit ${spec} first`);
  if (found.length > 1)
    throw new PatchToolError(
      `copies of ${pkg} for ${found.map((f) => f.m.version).join(" and ")}: name one, as ${pkg}@${found[0].m.version}`,
    );
  const { dir, m } = found[0];
  const packageDir = join(root, m.packageDir);
  const installed = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")).version;
  if (installed !== m.version)
    throw new PatchToolError(
      `${m.packageDir} is ${pkg} ${installed} now, the copies were made from ${m.version}: edit again`,
    );
  const folder = folderOf(pkg, m.version);
  const target = readableDiffs(root, folder);
  const copyText = (f) => readFileSync(join(dir, f), "utf8");
  const changed = (f) => existsSync(join(dir, f)) && sha(copyText(f)) !== m.files[f].startHash;

  /** @type {{ file: string, id: string, isNew: boolean }[]} */
  let jobs;
  if (arg) {
    const id = idOf(arg);
    const held = Object.keys(m.files).find((f) => m.files[f].diff === id);
    const existing = target.find((d) => d.id === id);
    if (held) jobs = [{ file: held, id, isNew: false }];
    else if (existing) {
      const e = m.files[existing.diff.file];
      throw new PatchToolError(
        e
          ? `the copy of ${existing.diff.file} holds it after ${e.diff ?? "no diff"}, not after ${id}: ${run} edit ${pkg}@${m.version} ${id}`
          : `no copy of ${existing.diff.file}: ${run} edit ${pkg}@${m.version} ${id} first`,
      );
    } else {
      if (only && !m.files[only])
        throw new PatchToolError(`no copy of ${only}: ${run} edit ${pkg}@${m.version} ${only} first`);
      const edited = Object.keys(m.files).filter((f) => (!only || f === only) && changed(f));
      if (edited.length === 0)
        throw new PatchToolError(`no copy of ${pkg} ${m.version} was changed since edit: nothing to save as ${id}`);
      if (edited.length > 1)
        throw new PatchToolError(`${edited.join(", ")} were changed: say which is ${id} with --file <file>`);
      const f = edited[0];
      const e = m.files[f];
      const chain = target.filter((d) => d.diff.file === f);
      if (e.pending)
        throw new PatchToolError(
          `the copy of ${f} holds ${e.diff}, not saved yet: save it first (${run} save ${pkg}@${m.version} ${e.diff})`,
        );
      if ((chain.at(-1)?.id ?? null) !== e.diff)
        throw new PatchToolError(
          `the copy of ${f} holds the diffs up to ${e.diff ?? "none"}, a new diff goes after all of ${chain.map((d) => d.id).join(", ")}: ${run} edit ${pkg}@${m.version} ${f}`,
        );
      if (chain.length > 0 && applyOrder(id, chain.at(-1).id) <= 0)
        throw new PatchToolError(
          `a new diff of ${f} applies after ${chain.at(-1).id}: give it a name that sorts after it (e.g. ${chain.length + 1}-${id.replace(/^\d+-/, "")})`,
        );
      jobs = [{ file: f, id, isNew: true }];
    }
  } else {
    // Without a name, only what edit moved over from another version or place: an edit of one's own
    // says which diff it is (the one the copy holds, or a new one).
    jobs = Object.keys(m.files)
      .filter((f) => m.files[f].diff && m.files[f].pending)
      .map((f) => ({ file: f, id: m.files[f].diff, isNew: false }));
    const edited = Object.keys(m.files).filter((f) => !m.files[f].pending && changed(f));
    if (jobs.length === 0)
      throw new PatchToolError(
        edited.length > 0
          ? `name the diff ${edited.join(", ")} now holds: ${edited.map((f) => m.files[f].diff ?? "none").join(", ")} (the copy's own), or a new one: ${run} save ${pkg}@${m.version} <diff>`
          : `nothing to save: every copy of ${pkg} ${m.version} is as edit left it`,
      );
  }

  const rejects = jobs.filter((j) => existsSync(join(dir, `${j.file}.rej`))).map((j) => join(dir, `${j.file}.rej`));
  if (rejects.length > 0)
    throw new PatchToolError(
      `${rejects.join(", ")}: hunks that did not apply. Make each change in the copy by hand (or decide it is not needed), delete the .rej, then save`,
    );
  const out = [];
  for (const { file, id, isNew } of jobs) {
    const entry = m.files[file];
    const name = `patches/${folder}/${id}.diff`;
    const chain = target.filter((d) => d.diff.file === file && d.id !== id);
    const below = isNew ? chain : chain.filter((d) => applyOrder(d.id, id) < 0);
    if (!existsSync(join(packageDir, file)))
      throw new PatchToolError(`${file} is not in ${m.packageDir} any more: edit again`);
    const base = applyChain(
      readFileSync(join(packageDir, file), "utf8"),
      below,
      (d) => `It is below ${id}: ${run} edit ${pkg}@${m.version} ${d.id}`,
    );
    if (sha(base) !== (isNew ? entry.startHash : entry.baseHash))
      throw new PatchToolError(
        `the diffs below ${id} in patches/${folder} changed since the copy was made: edit again (your copy: ${join(dir, file)})`,
      );
    const edited = copyText(file);
    if (edited === base)
      throw new PatchToolError(
        `${join(dir, file)} reads as ${file} without ${id}: nothing to save (to drop the diff, delete ${name})`,
      );
    const own = target.find((d) => d.id === id);
    const older =
      entry.source && entry.source !== folder ? folderDiffs(root, entry.source).find((d) => d.id === id) : null;
    const header = (own ?? older)?.diff?.header || HEADER_TEMPLATE;
    const context = (own ?? older)?.diff ? contextOf((own ?? older).diff) : 3;
    const text = `${header}\n\n${makeDiff(base, edited, file, context)}`;
    // The build's applier must give back the copy, or the diff is not written.
    if (applyDiff(base, parseDiff(text, name), name) !== edited)
      throw new Error(`${name}: the new diff does not give back the copy`);
    mkdirSync(join(root, "patches", folder), { recursive: true });
    writeFileSync(join(root, name), text);
    const hunks = parseDiff(text, name).hunks.length;
    const from = own
      ? "its header kept"
      : older
        ? `the header of ${older.name}`
        : "a header to write: why, what it saves, its test";
    out.push(`wrote ${name} (${file}, ${hunkWord(hunks)}; ${from})`);
    let above = edited;
    for (const d of target.filter((x) => x.diff.file === file && applyOrder(x.id, id) > 0)) {
      try {
        above = applyDiff(above, d.diff, d.name);
      } catch (error) {
        out.push(`  above it, ${error.message}: ${run} edit ${pkg}@${m.version} ${d.id}`);
        break;
      }
    }
    m.files[file] = {
      ...entry,
      diff: id,
      below: below.map((d) => d.id),
      baseHash: sha(base),
      startHash: sha(edited),
      pending: false,
    };
  }
  writeManifest(dir, m);
  const sources = new Set(
    Object.values(m.files)
      .map((e) => e.source)
      .filter((s) => s && s !== folder),
  );
  const now = new Set(folderDiffs(root, folder).map((d) => d.id));
  for (const s of sources) {
    const left = folderDiffs(root, s)
      .filter((d) => !now.has(d.id))
      .map((d) => d.id);
    const oldVersion = s.slice(s.lastIndexOf("@") + 1);
    out.push(
      left.length > 0
        ? `still to remake from patches/${s}: ${left.join(", ")} (${run} edit ${pkg} --from ${oldVersion})`
        : `every diff of patches/${s} is in patches/${folder}: ${run} check, run their tests, then remove patches/${s}`,
    );
  }
  return out;
}
