// Tool declarations as each provider accepts them: names within the common limit (64 characters of
// [a-zA-Z0-9_-], starting with a letter or "_", Google's rule), mapped back when the model calls
// them; and, for Google's endpoint, parameter schemas cut to the subset its Schema object accepts.
// Contract: the wrapped client sees safe names only; the engine sees the tools' real names only.
import { createHash } from "node:crypto";
import type { ChatMessage } from "../../protocol/messages.js";
import type { OpenAITool } from "../../tools/registry.js";
import type { ModelClient, ModelOutcome, ModelRequest, StreamHandlers } from "../model-client.js";

export const TOOL_NAME_MAX = 64;
const SAFE_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

/**
 * A name every provider takes. A valid name is kept; otherwise invalid characters become "_",
 * and a name still too long (mcp__server__a_long_tool_name) keeps its start and gets 8 hex digits
 * of the full name's SHA-256, so it stays readable, deterministic and distinct.
 */
export function safeToolName(name: string): string {
  if (SAFE_NAME.test(name)) return name;
  let safe = name.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (!/^[a-zA-Z_]/.test(safe)) safe = `_${safe}`;
  if (safe.length <= TOOL_NAME_MAX) return safe;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${safe.slice(0, TOOL_NAME_MAX - 9)}_${hash}`;
}

/** Both directions for one request's tools; two names that collapse to one get hashed apart. */
export class ToolNameMap {
  private readonly toSafe = new Map<string, string>();
  private readonly toReal = new Map<string, string>();

  constructor(names: string[]) {
    for (const name of names) {
      let safe = safeToolName(name);
      if (this.toReal.has(safe) && this.toReal.get(safe) !== name) {
        const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
        safe = `${safe.slice(0, TOOL_NAME_MAX - 9)}_${hash}`;
      }
      this.toSafe.set(name, safe);
      this.toReal.set(safe, name);
    }
  }

  /** Whether any name changes (nothing to rewrite otherwise). */
  get renames(): boolean {
    for (const [real, safe] of this.toSafe) if (real !== safe) return true;
    return false;
  }

  safe(name: string): string {
    return this.toSafe.get(name) ?? safeToolName(name);
  }

  real(name: string): string {
    return this.toReal.get(name) ?? name;
  }
}

/** The keys of Google's Schema object (as Hermes's sanitize_gemini_schema lists them); the rest are refused. */
export const GEMINI_SCHEMA_KEYS: ReadonlySet<string> = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A copy of `schema` Google's endpoint accepts: unknown keys ($schema, additionalProperties,
 * oneOf, const, ...) dropped at every level; enum values as strings (it wants strings even for
 * numbers); `required` only naming properties that exist; an array without `items` given `{}`
 * (a bare array fails the whole request). A union type (["string","null"]) becomes its first
 * non-null type with nullable.
 */
export function sanitizeGeminiSchema(schema: unknown): Record<string, unknown> {
  if (!isRecord(schema)) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!GEMINI_SCHEMA_KEYS.has(key)) continue;
    if (key === "properties") {
      if (!isRecord(value)) continue;
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, sanitizeGeminiSchema(sub)]),
      );
    } else if (key === "items") out.items = sanitizeGeminiSchema(value);
    else if (key === "anyOf") {
      if (Array.isArray(value)) out.anyOf = value.filter(isRecord).map(sanitizeGeminiSchema);
    } else if (key === "type" && Array.isArray(value)) {
      const types = value.filter((t): t is string => typeof t === "string");
      const first = types.find((t) => t !== "null");
      if (first) out.type = first;
      if (types.includes("null")) out.nullable = true;
    } else out[key] = value;
  }
  if (Array.isArray(out.enum)) {
    const values = [...new Set(out.enum.filter((v) => ["string", "number", "boolean"].includes(typeof v)).map(String))];
    if (values.length > 0) out.enum = values;
    else delete out.enum;
  }
  if (Array.isArray(out.required)) {
    const props = isRecord(out.properties) ? out.properties : {};
    const required = out.required.filter((r): r is string => typeof r === "string" && r in props);
    if (required.length > 0) out.required = required;
    else delete out.required;
  }
  if (out.type === "array" && out.items === undefined) out.items = {};
  return out;
}

/** Tool parameters for Google: an object schema at the top, whatever came in. */
export function geminiParameters(parameters: unknown): Record<string, unknown> {
  const cleaned = sanitizeGeminiSchema(parameters);
  return Object.keys(cleaned).length > 0 ? cleaned : { type: "object", properties: {} };
}

export type SchemaDialect = "gemini" | undefined;

/** The request as the provider should see it: safe names in the tools and in earlier assistant calls. */
export function providerRequest(request: ModelRequest, names: ToolNameMap, dialect: SchemaDialect): ModelRequest {
  const renames = names.renames;
  if (!renames && dialect === undefined) return request;
  const tools: OpenAITool[] = request.tools.map((t) => ({
    type: "function",
    function: {
      ...t.function,
      name: names.safe(t.function.name),
      parameters: dialect === "gemini" ? geminiParameters(t.function.parameters) : t.function.parameters,
    },
  }));
  const messages: ChatMessage[] = !renames
    ? request.messages
    : request.messages.map((m) =>
        m.role === "assistant" && m.tool_calls?.length
          ? {
              ...m,
              tool_calls: m.tool_calls.map((c) => ({
                ...c,
                function: { ...c.function, name: names.safe(c.function.name) },
              })),
            }
          : m,
      );
  return { ...request, tools, messages };
}

/** Wraps a provider's client: declarations rewritten on the way out, called names mapped back on the way in. */
export function withToolSchemas(client: ModelClient, dialect: SchemaDialect): ModelClient {
  return {
    async complete(request: ModelRequest, handlers: StreamHandlers): Promise<ModelOutcome> {
      const names = new ToolNameMap(request.tools.map((t) => t.function.name));
      const outcome = await client.complete(providerRequest(request, names, dialect), handlers);
      if (!outcome.ok || !names.renames) return outcome;
      return {
        ok: true,
        reply: {
          ...outcome.reply,
          toolCalls: outcome.reply.toolCalls.map((c) => ({ ...c, name: names.real(c.name) })),
        },
      };
    },
  };
}
