// Types of scripts/dep-patches.mjs for the TypeScript that imports it (vitest.config.ts, tests).
import type { Plugin as EsbuildPlugin } from "esbuild";
import type { Plugin as VitePlugin } from "vite";
import type { Hunk } from "./unified-diff.mjs";

export interface DepPatch {
  /** `patches/<package>@<version>/<n>-<change>.diff` */
  name: string;
  pkg: string;
  version: string;
  /** The module inside the package, e.g. `build/output.js`. */
  file: string;
  /** The diff's header: its reason and its test. */
  header: string;
  hunks: Hunk[];
}
export function applyOrder(a: string, b: string): number;
export function hookModules(root: string): Record<string, string>;
export function stubModules(root: string): Record<string, string>;
export function inkReconcilerPath(root: string): string;
export function readPatches(root: string, dir?: string): DepPatch[];
export function dependencyPatches(
  root: string,
  dir?: string,
): {
  patches: DepPatch[];
  applied: Record<string, number>;
  filter: RegExp;
  patchedText(path: string): string | undefined;
  missing(): string[];
};
export function depPatches(
  root: string,
  options?: { strict?: boolean; dir?: string },
): { plugin: EsbuildPlugin; applied: Record<string, number> };
export function viteDepPatches(root: string): VitePlugin;
