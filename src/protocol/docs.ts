// Renders docs/events.md from the event and command definitions, so the document cannot drift
// from the code (a test compares them; `npm run docs:events` rewrites the file).
import * as z from "./zod.js";
import { commandDefinitions } from "./commands.js";
import { eventDefinitions, OBSERVER_SCHEMA } from "./events.js";

type Shape = Record<string, z.ZodMiniType>;

function typeOf(schema: Record<string, unknown>): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => `\`${String(v)}\``).join(" | ");
  if (schema.type === "array") return `${typeOf((schema.items ?? {}) as Record<string, unknown>)}[]`;
  if (schema.type === "object" && schema.properties) {
    const props = Object.entries(schema.properties as Record<string, Record<string, unknown>>).map(
      ([k, v]) => `${k}: ${typeOf(v)}`,
    );
    return `{ ${props.join(", ")} }`;
  }
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Record<string, unknown>[]).map(typeOf).join(" | ");
  return "any JSON";
}

function fieldRows(shape: Shape): string[] {
  const json = z.toJSONSchema(z.object(shape), { io: "input", unrepresentable: "any" }) as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties).map(([name, prop]) => {
    const desc = typeof prop.description === "string" ? prop.description : "";
    return `| \`${name}\` | ${typeOf(prop).replace(/\|/g, "\\|")} | ${required.has(name) ? "yes" : "no"} | ${desc} |`;
  });
}

function section(defs: Record<string, { doc: string; shape: Shape }>): string[] {
  const out: string[] = [];
  for (const [type, def] of Object.entries(defs)) {
    out.push(
      `### \`${type}\``,
      "",
      def.doc,
      "",
      "| field | type | required | meaning |",
      "|---|---|---|---|",
      ...fieldRows(def.shape),
      "",
    );
  }
  return out;
}

export function renderEventsDoc(): string {
  return [
    "# Events and commands",
    "",
    "Generated from `src/protocol/events.ts` and `src/protocol/commands.ts` by `npm run docs:events`;",
    "a test fails when this file and the code disagree.",
    "",
    `Schema version: \`${OBSERVER_SCHEMA}\`. Every event stream (\`--stream-json\`, each of the daemon's`,
    "server-sent event responses, `--telemetry-file`) starts with an `observer.started` line naming it; a",
    "reader that does not know the version should stop. New optional fields and new event types keep the",
    "version; a field removed or changed in meaning changes it. The OpenTelemetry export (`NANOHERMES_TELEMETRY=1`)",
    "is built from these same events: see README.md, Telemetry.",
    "",
    "The engine talks to every front end through one in-process bus. **Events** flow out of the engine;",
    "**commands** flow in. Every event is plain JSON with a `type` (`noun.phase`) and the `taskId` it",
    "belongs to (plus `agentId` for subagents). The same events, one JSON object per line, are the",
    "output of `nanohermes -p ... --stream-json` and the daemon's server-sent events.",
    "",
    "Rules:",
    "- Long-running things have a started / delta / completed triple sharing an id (`callId`, `turnId`).",
    "- `tool.completed` may arrive without `tool.started` when a call was rejected before it ran",
    "  (unknown tool, invalid arguments, denied).",
    "- After `model.retrying` or `model.fallback`, the `assistant.delta` / `reasoning.delta` events of the",
    "  current step are void: the step starts over.",
    '- A stopped turn ends with `turn.completed` and `reason: "interrupted"`; partial model output of the',
    "  aborted request never enters the history.",
    "- Unknown fields are rejected by the schema (`.strict()`), so a consumer can trust it saw everything.",
    "- Each model request attempt is a `model.requested` / `model.responded` pair; the attempts of one step",
    "  share a `requestId` (also on `model.retrying` and `assistant.completed`).",
    "- A subagent's events carry its `agentId`, and `parentTaskId` / `parentCallId`: the `subagent` call that",
    "  started it, whose `tool.completed` comes after the subagent's last event.",
    "",
    "## Events",
    "",
    ...section(eventDefinitions as unknown as Record<string, { doc: string; shape: Shape }>),
    "## Commands",
    "",
    ...section(commandDefinitions as unknown as Record<string, { doc: string; shape: Shape }>),
  ].join("\n");
}
