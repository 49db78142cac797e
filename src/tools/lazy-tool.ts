// A tool whose handlers load on its first call (issue 35): the registry holds the spec (name,
// schema, description, summary), and run/precheck import the implementation's chunk when a call
// needs them, so a run that only reads a file never compiles the patch engine, the web client or
// the command runner.
import type { AnyTool, ToolSpec } from "./define.js";

/**
 * Contract: `load` resolves to the full tool, built from the same spec (checked: a tool of another
 * name is a bug). `precheck` says the implementation has one, so the registry sees it as before.
 * A load that fails (a missing chunk) fails that call and is tried again by the next.
 */
export function lazyTool(spec: ToolSpec, load: () => Promise<AnyTool>, opts: { precheck?: boolean } = {}): AnyTool {
  let loading: Promise<AnyTool> | undefined;
  const impl = (): Promise<AnyTool> => {
    loading ??= load().then(
      (tool) => {
        if (tool.name !== spec.name) throw new Error(`lazy tool ${spec.name} loaded ${tool.name}`);
        return tool;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const tool: AnyTool = { ...spec, run: async (args, ctx) => (await impl()).run(args, ctx) };
  if (opts.precheck) tool.precheck = async (args, ctx) => (await impl()).precheck?.(args, ctx);
  return tool;
}
