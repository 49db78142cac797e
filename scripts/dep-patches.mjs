// Our changes to dependencies (Ink, string-width, widest-line, yoga-layout, the openai SDK): the
// diff files in patches/<package>@<version>/, applied to a module's text as the bundler or the test
// runner loads it (nothing in node_modules is written). One list and one applier for both: the
// esbuild plugin the build uses (scripts/build.mjs) and the vite plugin vitest.config.ts uses, so
// component tests run the Ink that ships. Each diff's reason and figures are in its header;
// patches/README.md says how to remake one.
import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { applyDiff, parseDiff } from "./unified-diff.mjs";

/**
 * The modules of ours a diff reaches through a hook import (Ink's modules cannot name a path in
 * this repository), and `#ink-reconciler`, the module Ink imports that its package does not export
 * (src/ui/terminal/ink-updates.ts). Both the build and vitest.config.ts map these names.
 * @param {string} root
 */
export function hookModules(root) {
  return {
    "#ink-reconciler": inkReconcilerPath(root),
    "#nanohermes-ink-writer": join(root, "src/ui/terminal/cell-writer.ts"),
    "#nanohermes-frame-now": join(root, "src/ui/terminal/frame-now.ts"),
    "#nanohermes-sdk-headers": join(root, "src/agent/providers/sdk-headers.ts"),
  };
}

/**
 * Dependencies the program replaces with a stub of ours (scripts/stubs/): Ink's optional devtools
 * bridge, and is-in-ci, so Ink draws live frames even where the shell exports CI=true (NanoHermes
 * decides itself whether it is interactive). The build and vitest.config.ts both map them, so
 * component tests see the Ink that ships wherever they run.
 * @param {string} root
 */
export function stubModules(root) {
  return {
    "react-devtools-core": join(root, "scripts/stubs/react-devtools-core.mjs"),
    "is-in-ci": join(root, "scripts/stubs/is-in-ci.mjs"),
  };
}

/** Ink's reconciler module (Ink's package exports only its index), as a real path. */
export function inkReconcilerPath(root) {
  const ink = createRequire(join(root, "package.json")).resolve("ink");
  return realpathSync(join(dirname(ink), "reconciler.js"));
}

/** The order the diffs of one module apply in: by file name, numbers as numbers (`2-...` before `10-...`). */
export function applyOrder(a, b) {
  return a.localeCompare(b, "en", { numeric: true });
}

/**
 * Every diff under `patches/`, in the order they apply: by package, then by file name (the
 * diffs of one module build on each other: `1-...`, `2-...`).
 * @param {string} root
 */
export function readPatches(root, dir = join(root, "patches")) {
  const patches = [];
  for (const pkgDir of readdirSync(dir, { withFileTypes: true })) {
    if (!pkgDir.isDirectory()) continue;
    const at = pkgDir.name.lastIndexOf("@");
    if (at <= 0) throw new Error(`patches/${pkgDir.name}: name a folder <package>@<version>`);
    const pkg = pkgDir.name.slice(0, at).replace("+", "/");
    const version = pkgDir.name.slice(at + 1);
    const files = readdirSync(join(dir, pkgDir.name))
      .filter((f) => f.endsWith(".diff"))
      .sort(applyOrder);
    for (const f of files) {
      const name = `patches/${pkgDir.name}/${f}`;
      patches.push({ name, pkg, version, ...parseDiff(readFileSync(join(dir, pkgDir.name, f), "utf8"), name) });
    }
  }
  return patches;
}

/**
 * Contract: `patchedText(path)` gives the module's text with its diffs applied, or undefined when
 * no diff is for it (another package, another version of the package, another file). It throws,
 * naming the diff, the hunk and the installed version, when a diff for this very package and
 * version no longer applies. `applied` counts each diff that took; `seen` the versions of
 * patched packages that were loaded (for the error when none matched).
 * @param {string} root
 */
export function dependencyPatches(root, dir = join(root, "patches")) {
  const patches = readPatches(root, dir);
  const applied = Object.fromEntries(patches.map((p) => [p.name, 0]));
  /** @type {Map<string, Set<string>>} package -> "version at folder" loaded */
  const seen = new Map();
  const owners = new Map();
  /** Diffs that threw (reported where they failed, not again at the end). */
  const failed = new Set();
  /** The package a file belongs to: the nearest package.json with a name and a version. */
  function ownerOf(path) {
    const dirs = [];
    let d = dirname(path);
    let found = null;
    for (;;) {
      if (owners.has(d)) {
        found = owners.get(d);
        break;
      }
      dirs.push(d);
      try {
        const pkg = JSON.parse(readFileSync(join(d, "package.json"), "utf8"));
        if (typeof pkg.name === "string" && typeof pkg.version === "string") {
          found = { name: pkg.name, version: pkg.version, dir: d };
          break;
        }
      } catch {}
      const up = dirname(d);
      if (up === d) break;
      d = up;
    }
    for (const x of dirs) owners.set(x, found);
    return found;
  }
  const files = [...new Set(patches.map((p) => p.file))];
  const asPattern = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replaceAll("/", "[/\\\\]");
  /** Paths that may be a patched module (the package is checked after). */
  const filter = new RegExp(`[/\\\\](${files.map(asPattern).join("|")})$`);
  function patchedText(path) {
    if (!filter.test(path)) return undefined;
    const owner = ownerOf(path);
    if (!owner || !patches.some((p) => p.pkg === owner.name)) return undefined;
    const file = relative(owner.dir, path).split(sep).join("/");
    const mine = patches.filter((p) => p.pkg === owner.name && p.file === file);
    if (mine.length === 0) return undefined;
    if (!seen.has(owner.name)) seen.set(owner.name, new Set());
    seen.get(owner.name).add(`${owner.version} at ${owner.dir}`);
    const forThis = mine.filter((p) => p.version === owner.version);
    if (forThis.length === 0) return undefined;
    let text = readFileSync(path, "utf8");
    for (const p of forThis) {
      try {
        text = applyDiff(
          text,
          p,
          `${p.name} (for ${p.pkg}@${p.version} ${p.file}; installed: ${owner.version} at ${owner.dir})`,
        );
      } catch (e) {
        // The module's later diffs build on this one: none of them is reported again.
        for (const q of forThis) failed.add(q.name);
        throw new Error(
          `${e.message}. Read the diff's reason in its header, then remake or drop it (patches/README.md)`,
        );
      }
      applied[p.name]++;
    }
    return text;
  }
  /** The diffs that did not apply, each with the versions of its package that were loaded instead. */
  function missing() {
    return patches
      .filter((p) => applied[p.name] === 0 && !failed.has(p.name))
      .map((p) => {
        const versions = [...(seen.get(p.pkg) ?? [])].filter((v) => !v.startsWith(`${p.version} at `));
        const loaded = versions.length > 0 ? `loaded instead: ${p.pkg} ${versions.join(", ")}` : "module not loaded";
        return `${p.name} (${p.pkg}@${p.version} ${p.file}; ${loaded})`;
      });
  }
  return { patches, applied, filter, patchedText, missing };
}

/**
 * The build's plugin: applies the diffs as esbuild loads each module and maps the hook modules.
 * When `strict` (the build), a diff that applied nowhere fails the build at its end.
 * @param {string} root
 * @param {{ strict?: boolean, dir?: string }} [options]
 */
export function depPatches(root, { strict = true, dir } = {}) {
  const state = dependencyPatches(root, dir);
  const hooks = hookModules(root);
  const plugin = {
    name: "nanohermes-dep-patches",
    setup(b) {
      const names = Object.keys(hooks).map((h) => h.replace(/[-#]/g, "\\$&"));
      b.onResolve({ filter: new RegExp(`^(${names.join("|")})$`) }, (a) => ({ path: hooks[a.path] }));
      b.onLoad({ filter: state.filter }, (a) => {
        const contents = state.patchedText(a.path);
        return contents === undefined ? undefined : { contents, loader: "js" };
      });
      b.onEnd(() => {
        if (!strict) return;
        const missing = state.missing();
        if (missing.length > 0)
          throw new Error(
            `dependency patches that applied nowhere (a dependency changed): ${missing.join("; ")}. Read each one's reason in its header, measure again and remake or drop it (patches/README.md)`,
          );
      });
    },
  };
  return { plugin, applied: state.applied };
}

/**
 * The test runner's plugin (vitest.config.ts): the same diffs applied to the same modules when
 * vite loads them. Only modules vite processes (`test.server.deps.inline`) go through it. It loads
 * every inlined dependency module itself, leaving out its source-map comment: Ink and its
 * companions ship maps naming sources they do not ship, which vite would warn about per module.
 * @param {string} root
 */
export function viteDepPatches(root) {
  const state = dependencyPatches(root);
  return {
    name: "nanohermes-dep-patches",
    enforce: "pre",
    load(id) {
      const path = id.split("?")[0];
      if (!/[/\\]node_modules[/\\].*\.m?js$/.test(path)) return null;
      const code = state.patchedText(path) ?? readFileSync(path, "utf8");
      return { code: code.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, "\n"), map: null };
    },
  };
}
