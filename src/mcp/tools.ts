// MCP tools as NanoHermes tools: `mcp__<server>__<tool>` names the model's API accepts, results
// turned into text, and the four helpers for resources and prompts.
import { createHash } from "node:crypto";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import * as z from "../protocol/zod.js";
import { defineTool, ToolError, type AnyTool, type ToolOutput } from "../tools/define.js";
import type { ToolSource } from "../tools/registry.js";
import type { McpManager, McpToolEntry } from "./manager.js";

/** OpenAI-compatible APIs accept `^[a-zA-Z0-9_-]{1,64}$` as a function name. */
export const MAX_TOOL_NAME = 64;
const MAX_DESCRIPTION = 2_000;

const hash6 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 6);

/**
 * `mcp__<server>__<tool>`, with characters outside `[A-Za-z0-9_-]` replaced by `_`; a name longer
 * than 64 is cut and given a short hash of the original so that it stays unique.
 */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_");
  if (name.length <= MAX_TOOL_NAME) return name;
  return `${name.slice(0, MAX_TOOL_NAME - 7)}_${hash6(`${server}\u0000${tool}`)}`;
}

/** A schema the chat API accepts: an object schema without `$schema`. */
function inputSchemaOf(tool: Tool): Record<string, unknown> {
  const schema: Record<string, unknown> = { ...(tool.inputSchema as Record<string, unknown>) };
  delete schema.$schema;
  if (schema.type !== "object") return { type: "object", properties: {} };
  schema.properties ??= {};
  return schema;
}

const bytesOfBase64 = (data: string) => Math.floor((data.length * 3) / 4);

/** The text the model gets from a tool result: text blocks as they are, other blocks as short notes. */
export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "image":
      case "audio":
        parts.push(`[${block.type} ${block.mimeType}, ${bytesOfBase64(block.data)} bytes, not shown]`);
        break;
      case "resource": {
        const r = block.resource;
        parts.push(
          "text" in r && typeof r.text === "string"
            ? `[resource ${r.uri}]\n${r.text}`
            : `[resource ${r.uri}${r.mimeType ? ` ${r.mimeType}` : ""}, binary, not shown]`,
        );
        break;
      }
      case "resource_link":
        parts.push(
          `[resource link ${block.uri}${block.name ? ` "${block.name}"` : ""}${block.description ? `: ${block.description}` : ""}]`,
        );
        break;
      default:
        parts.push(`[${(block as { type: string }).type} content, not shown]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent, null, 2));
  return parts.join("\n");
}

function summarizeArgs(args: Record<string, unknown>): string {
  const text = Object.entries(args)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function toolFor(manager: McpManager, entry: McpToolEntry, name: string): AnyTool {
  const { server, tool } = entry;
  const description = (tool.description ?? "").trim() || `The ${tool.name} tool of the MCP server ${server}.`;
  return defineTool({
    name,
    kind: "mcp",
    description: description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description,
    params: z.looseObject({}),
    inputSchema: inputSchemaOf(tool),
    mcp: { server, tool: tool.name, readOnly: tool.annotations?.readOnlyHint === true, trusted: entry.trusted },
    summarize: (args) => summarizeArgs(args as Record<string, unknown>),
    async run(args, ctx): Promise<ToolOutput> {
      let result: CallToolResult;
      try {
        result = await manager.callTool(server, tool.name, args as Record<string, unknown>, {
          signal: ctx.signal,
          onProgress: (text) => ctx.output("stdout", text),
          ...(ctx.traceparent ? { traceparent: ctx.traceparent } : {}),
        });
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        throw new ToolError(`${server}/${tool.name} failed: ${(error as Error).message}`);
      }
      const text = resultText(result);
      const isError = result.isError === true;
      const first = text.split("\n", 1)[0] ?? "";
      return {
        forModel: isError ? `the MCP tool reported an error: ${text}` : text || "(no output)",
        display: `${server}: ${first.length > 100 ? `${first.slice(0, 99)}…` : first}`,
        ...(isError ? { isError } : {}),
      };
    },
  });
}

/** The registry's view of every ready server's tools; rebuilt only when the manager changed. */
export function mcpToolSource(manager: McpManager): ToolSource {
  let cache: { version: number; tools: AnyTool[] } | null = null;
  return {
    version: () => manager.version,
    tools() {
      if (cache?.version === manager.version) return cache.tools;
      const used = new Set<string>();
      const tools = manager.tools().map((entry) => {
        let name = mcpToolName(entry.server, entry.tool.name);
        // Two tools whose names differ only in characters we replace: keep both, apart.
        if (used.has(name))
          name = `${name.slice(0, MAX_TOOL_NAME - 7)}_${hash6(`${entry.server}\u0000${entry.tool.name}`)}`;
        used.add(name);
        return toolFor(manager, entry, name);
      });
      cache = { version: manager.version, tools };
      return tools;
    },
  };
}

const serverArg = z.string().check(z.minLength(1), z.describe("The MCP server's name."));

async function eachServer<T>(
  manager: McpManager,
  server: string | undefined,
  signal: AbortSignal,
  fn: (name: string) => Promise<T[]>,
): Promise<{ rows: T[]; errors: string[] }> {
  const names = server ? [server] : manager.serverNames();
  const rows: T[] = [];
  const errors: string[] = [];
  await Promise.all(
    names.map(async (name) => {
      try {
        rows.push(...(await fn(name)));
      } catch (error) {
        if (signal.aborted) throw error;
        errors.push(`${name}: ${(error as Error).message}`);
      }
    }),
  );
  return { rows, errors };
}

const withErrors = (lines: string[], errors: string[], empty: string) =>
  [...(lines.length ? lines : [empty]), ...errors.map((e) => `(not available: ${e})`)].join("\n");

/** `mcp_list_resources`, `mcp_read_resource`, `mcp_list_prompts`, `mcp_get_prompt`. */
export function mcpHelperTools(manager: McpManager): AnyTool[] {
  const listResources = defineTool({
    name: "mcp_list_resources",
    kind: "read",
    description:
      "List the resources (and resource templates) MCP servers offer, as `server: uri - name`. Read one with mcp_read_resource.",
    params: z.object({ server: z.optional(serverArg) }),
    summarize: (a) => a.server ?? "all servers",
    async run(args, ctx) {
      const { rows, errors } = await eachServer(manager, args.server, ctx.signal, async (name) => {
        const { client } = await manager.client(name, ctx.signal);
        if (!client.getServerCapabilities()?.resources) return [];
        const [resources, templates] = await Promise.all([
          client.listResources(undefined, { signal: ctx.signal }),
          client.listResourceTemplates(undefined, { signal: ctx.signal }).catch(() => ({ resourceTemplates: [] })),
        ]);
        return [
          ...resources.resources.map(
            (r) =>
              `${name}: ${r.uri} - ${r.name}${r.mimeType ? ` (${r.mimeType})` : ""}${r.description ? `: ${r.description}` : ""}`,
          ),
          ...templates.resourceTemplates.map(
            (t) => `${name}: ${t.uriTemplate} (template) - ${t.name}${t.description ? `: ${t.description}` : ""}`,
          ),
        ];
      });
      return withErrors(rows, errors, "no resources");
    },
  });
  const readResource = defineTool({
    name: "mcp_read_resource",
    kind: "read",
    description: "Read one resource of an MCP server by its URI (see mcp_list_resources).",
    params: z.object({ server: serverArg, uri: z.string().check(z.minLength(1)) }),
    summarize: (a) => `${a.server} ${a.uri}`,
    async run(args, ctx) {
      const { client } = await manager.client(args.server, ctx.signal).catch((e: Error) => {
        throw new ToolError(e.message);
      });
      const result = await client.readResource({ uri: args.uri }, { signal: ctx.signal }).catch((e: Error) => {
        if (ctx.signal.aborted) throw e;
        throw new ToolError(`reading ${args.uri} from ${args.server} failed: ${e.message}`);
      });
      const parts = result.contents.map((c) =>
        "text" in c && typeof c.text === "string"
          ? c.text
          : `[${c.uri}: ${c.mimeType ?? "binary"}, ${bytesOfBase64(String((c as { blob?: string }).blob ?? ""))} bytes, not shown]`,
      );
      return parts.join("\n") || "(empty resource)";
    },
  });
  const listPrompts = defineTool({
    name: "mcp_list_prompts",
    kind: "read",
    description:
      "List the prompts MCP servers offer, with their arguments (* = required). Get one with mcp_get_prompt.",
    params: z.object({ server: z.optional(serverArg) }),
    summarize: (a) => a.server ?? "all servers",
    async run(args, ctx) {
      const { rows, errors } = await eachServer(manager, args.server, ctx.signal, async (name) => {
        const { client } = await manager.client(name, ctx.signal);
        if (!client.getServerCapabilities()?.prompts) return [];
        const { prompts } = await client.listPrompts(undefined, { signal: ctx.signal });
        return prompts.map((p) => {
          const params = (p.arguments ?? []).map((a) => `${a.name}${a.required ? "*" : ""}`).join(", ");
          return `${name}: ${p.name}${params ? ` (${params})` : ""}${p.description ? ` - ${p.description}` : ""}`;
        });
      });
      return withErrors(rows, errors, "no prompts");
    },
  });
  const getPrompt = defineTool({
    name: "mcp_get_prompt",
    kind: "read",
    description: "Get a prompt of an MCP server, filled with arguments, as its messages.",
    params: z.object({
      server: serverArg,
      name: z.string().check(z.minLength(1)),
      arguments: z.optional(z.record(z.string(), z.string())),
    }),
    summarize: (a) => `${a.server} ${a.name}`,
    async run(args, ctx) {
      const { client } = await manager.client(args.server, ctx.signal).catch((e: Error) => {
        throw new ToolError(e.message);
      });
      const result = await client
        .getPrompt(
          { name: args.name, ...(args.arguments ? { arguments: args.arguments } : {}) },
          { signal: ctx.signal },
        )
        .catch((e: Error) => {
          if (ctx.signal.aborted) throw e;
          throw new ToolError(`getting prompt ${args.name} from ${args.server} failed: ${e.message}`);
        });
      const lines = result.messages.map((m) => `${m.role}: ${resultText({ content: [m.content] } as CallToolResult)}`);
      return [...(result.description ? [result.description, ""] : []), ...lines].join("\n");
    },
  });
  return [listResources, readResource, listPrompts, getPrompt];
}
