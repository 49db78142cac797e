// Compiles the Landlock sandbox helper (src/sandbox/native/nh-sandbox.c and its headers) into dist-native/, outside
// dist/ because scripts/build.mjs prunes that. Never fails: without a compiler the program still
// installs and works, and sandboxing reports itself unavailable.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const nativeDir = join(root, "src/sandbox/native");
const source = join(nativeDir, "nh-sandbox.c");
// nh-sandbox.c includes every part of the helper kept in its own header beside it.
const headers = readdirSync(nativeDir)
  .filter((name) => name.endsWith(".h"))
  .map((name) => join(nativeDir, name));
const outDir = join(root, "dist-native");
const output = join(outDir, "nh-sandbox");

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
};

function warn(why) {
  console.warn(`nanohermes: the sandbox helper was not built (${why}); sandboxing will report itself unavailable`);
  process.exit(0);
}

// Test files run in parallel and each makes sure the helper exists: skip the work when current.
if (mtime(output) > Math.max(mtime(source), mtime(import.meta.filename), ...headers.map(mtime))) process.exit(0);
if (process.platform !== "linux") warn("Landlock exists only on Linux");

const compiler = [process.env.CC, "cc", "gcc", "clang"].find(
  (cc) => cc && spawnSync(cc, ["--version"], { stdio: "ignore" }).status === 0,
);
if (!compiler) warn("no C compiler found: install cc or gcc and run `npm run build:native`");

mkdirSync(outDir, { recursive: true });
// Compiled beside the target and renamed, so a concurrent run never executes half a binary.
const tmp = `${output}.tmp-${process.pid}`;
const result = spawnSync(compiler, ["-O2", "-Wall", "-Wextra", "-o", tmp, source], { encoding: "utf8" });
if (result.status !== 0) {
  rmSync(tmp, { force: true });
  const firstError =
    (result.stderr ?? "").split("\n").find((line) => line.includes("error")) ??
    `${compiler} exited with ${result.status}`;
  warn(`compilation failed: ${firstError.trim()}`);
}
renameSync(tmp, output);
