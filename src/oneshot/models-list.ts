// `nanohermes models [--provider P] [--json]`: the provider's models from its /models list, with
// window, output limit, prices and abilities from the bundled table; offline, the table's models
// for that provider, with a one-line note saying so.
import type { Settings } from "../config/schema.js";
import { findProvider } from "../config/providers.js";
import { modelInfo, type ModelInfo } from "../agent/providers/models.js";
import type { Writer } from "./printer.js";

import { bundledModels, DEFAULT_BASE_URL, fetchModelIds } from "../agent/providers/model-ids.js";

export { bundledModels, fetchModelIds };

const tokens = (n: number) => (n >= 1_000_000 ? `${Math.round(n / 100_000) / 10}M` : `${Math.round(n / 1000)}k`);
const usd = (n: number | undefined) => (n === undefined ? "-" : `$${n}`);

/** One row for the table, or its JSON. */
export function modelRow(id: string, info: ModelInfo): string[] {
  if (!info.known) return [id, "?", "?", "?", "?", "?", "unknown model"];
  const p = info.price;
  const abilities = [info.images ? "images" : "", info.reasoning ? "reasoning" : ""].filter(Boolean).join(", ");
  return [
    id,
    tokens(info.contextWindow),
    tokens(info.maxOutput),
    usd(p?.input),
    usd(p?.cached),
    usd(p?.output),
    abilities,
  ];
}

export function formatTable(rows: string[][]): string {
  const head = ["model", "context", "max out", "in/M", "cached/M", "out/M", ""];
  const all = [head, ...rows];
  const widths = head.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  return all
    .map((r) =>
      r
        .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export async function runModelsList(
  settings: Settings,
  opts: { json: boolean },
  io: { stdout: Writer; stderr: Writer },
): Promise<number> {
  const preset = settings.provider ? findProvider(settings.provider) : undefined;
  const label = preset?.label ?? settings.baseUrl ?? DEFAULT_BASE_URL;
  let ids: string[];
  let note: string | null = null;
  if (preset && !preset.listsModels) {
    ids = bundledModels(preset.name);
    note = `${label} has no model list here (deployments are named in config "azure"); showing the bundled table`;
  } else {
    try {
      ids = [...new Set(await fetchModelIds(settings))].sort();
    } catch (error) {
      ids = bundledModels(preset?.name);
      // fetch's own message is "fetch failed"; the cause says why (ECONNREFUSED, ENOTFOUND).
      const cause =
        error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
      const why =
        typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : undefined;
      const reason =
        error instanceof Error ? (error.name === "TimeoutError" ? "timed out" : (why ?? error.message)) : String(error);
      note = `could not list ${label}'s models (${reason}); showing the bundled table${preset ? ` for ${preset.name}` : ""}`;
    }
  }
  const infos = ids.map((id) => [id, modelInfo(id, settings.models)] as const);
  if (opts.json) {
    const models = infos.map(([id, info]) => ({
      id,
      known: info.known,
      ...(info.known
        ? {
            contextWindow: info.contextWindow,
            maxOutput: info.maxOutput,
            price: info.price ?? null,
            images: info.images,
            reasoning: info.reasoning,
          }
        : {}),
    }));
    io.stdout.write(
      `${JSON.stringify({ provider: preset?.name ?? null, source: note ? "bundled" : "endpoint", ...(note ? { note } : {}), models })}\n`,
    );
    return 0;
  }
  if (note) io.stderr.write(`note: ${note}\n`);
  io.stdout.write(`${formatTable(infos.map(([id, info]) => modelRow(id, info)))}\n`);
  return 0;
}
