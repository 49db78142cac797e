// What an output file of the build loads with it, from dist/meta.json (esbuild's metafile).
export interface BuildMeta {
  outputs: Record<string, { inputs: Record<string, unknown>; imports: { path: string; kind: string }[] }>;
}

/** The output files loaded with `from` before it runs: `from` and its static imports, transitively. */
export function staticallyLoaded(meta: BuildMeta, from: string, seen = new Set<string>()): Set<string> {
  if (seen.has(from)) return seen;
  seen.add(from);
  for (const imp of meta.outputs[from]?.imports ?? [])
    if (imp.kind === "import-statement") staticallyLoaded(meta, imp.path, seen);
  return seen;
}
