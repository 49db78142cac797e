// `nanohermes mcp [--json]`: connects to the configured MCP servers once and prints each one's
// state, error, log file and tools, so a config can be checked without starting a turn.
import type { Settings } from "../config/schema.js";
import { loadExtensions } from "../agent/extensions.js";
import { mcpToolSource } from "../mcp/tools.js";
import type { Writer } from "./printer.js";
import { EXIT_FAILED, EXIT_OK } from "./run.js";

const WAIT_MS = 30_000;

export async function runMcpList(
  settings: Settings,
  opts: { json: boolean },
  io: { stdout: Writer; stderr: Writer },
): Promise<number> {
  const ext = await loadExtensions(settings, { emit: () => {} });
  try {
    for (const problem of ext.problems) io.stderr.write(`warning: ${problem}\n`);
    if (!ext.mcp) {
      if (opts.json) io.stdout.write("[]\n");
      else io.stdout.write("no MCP servers are configured (mcpServers in ~/.nanohermes/config.json, or --mcp FILE)\n");
      return ext.problems.length > 0 ? EXIT_FAILED : EXIT_OK;
    }
    await ext.mcp.settled(WAIT_MS);
    const tools = mcpToolSource(ext.mcp).tools();
    const statuses = ext.mcp
      .statuses()
      .map((s) => ({ ...s, toolNames: tools.filter((t) => t.mcp?.server === s.name).map((t) => t.name) }));
    if (opts.json) io.stdout.write(`${JSON.stringify(statuses, null, 2)}\n`);
    else {
      for (const s of statuses) {
        io.stdout.write(`${s.name}: ${s.state} (${s.transport}, ${s.tools} tool${s.tools === 1 ? "" : "s"})\n`);
        if (s.error) io.stdout.write(`  error: ${s.error}\n`);
        if (s.logFile) io.stdout.write(`  log: ${s.logFile}\n`);
        for (const name of s.toolNames) io.stdout.write(`  ${name}\n`);
      }
    }
    return statuses.every((s) => s.state === "ready") ? EXIT_OK : EXIT_FAILED;
  } finally {
    await ext.close();
  }
}
