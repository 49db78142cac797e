// The tool schemas sent to the model come from src/tools/json-schema.ts, a converter for the part
// of zod the tools use; zod's own converter (z.toJSONSchema) is the reference it must agree with,
// for every built-in tool and for each kind of parameter and check the converter knows.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Subagents } from "../../src/agent/subagents.js";
import type { McpManager } from "../../src/mcp/manager.js";
import { mcpHelperTools } from "../../src/mcp/tools.js";
import { MemoryStore } from "../../src/memory/store.js";
import { memoryTools } from "../../src/memory/tools.js";
import * as z from "../../src/protocol/zod.js";
import { sessionSearchTool } from "../../src/session/search-tool.js";
import { skillTool } from "../../src/skills/skill-tool.js";
import type { AnyTool } from "../../src/tools/define.js";
import { builtinTools } from "../../src/tools/index.js";
import { jsonSchemaOf } from "../../src/tools/json-schema.js";
import { tempDir } from "../helpers/cli.js";

const SAFE = Number.MAX_SAFE_INTEGER;

/** zod's converter, less `$schema` and the safe-integer bounds z.int() adds (which the model need not see). */
function byZod(params: z.ZodMiniObject): Record<string, unknown> {
  const schema = z.toJSONSchema(params) as Record<string, unknown>;
  delete schema.$schema;
  const strip = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    const obj = node as Record<string, unknown>;
    if (obj.minimum === -SAFE) delete obj.minimum;
    if (obj.maximum === SAFE) delete obj.maximum;
    for (const value of Object.values(obj)) strip(value);
  };
  strip(schema);
  return schema;
}

function everyTool(): AnyTool[] {
  const subagents = new Subagents({
    config: { agents: { helper: { description: "helps", prompt: "help" } } },
    spawn: () => {
      throw new Error("not in this test");
    },
  } as unknown as ConstructorParameters<typeof Subagents>[0]);
  return [
    ...builtinTools(),
    ...memoryTools(new MemoryStore(join(tempDir(), "memory.json")), { workspace: tempDir() }),
    sessionSearchTool(() => Promise.reject(new Error("unused")), tempDir()),
    skillTool([]),
    ...mcpHelperTools({} as McpManager),
    ...subagents.tools(0),
  ];
}

describe("tool schemas", () => {
  const tools = everyTool();

  it("cover the tools a turn can offer", () => {
    const names = tools.map((t) => t.name);
    for (const name of ["read_file", "edit_file", "run_command", "memory_save", "session_search", "skill", "subagent"])
      expect(names).toContain(name);
  });

  it.each(tools.map((t) => [t.name, t] as const))("%s: the same schema as zod's converter", (_, tool) => {
    expect(jsonSchemaOf(tool.params)).toEqual(byZod(tool.params));
  });

  it("agree with zod on each parameter kind and check the converter knows", () => {
    const params = z.object({
      path: z.string().check(z.minLength(1), z.maxLength(4096), z.describe("A path.")),
      count: z.optional(z.int().check(z.minimum(1), z.maximum(500), z.describe("How many."))),
      ratio: z.number().check(z.gt(0), z.lt(1)),
      level: z.number().check(z.minimum(-3)),
      mode: z.enum(["fast", "slow"]),
      flag: z.optional(z.boolean()),
      // A description on the optional wrapper wins over the inner one, as in zod.
      note: z.optional(z.string().check(z.describe("inner"))).check(z.describe("outer")),
      empty: z.object({}),
      tags: z.array(z.string().check(z.minLength(1))).check(z.minLength(1), z.maxLength(5)),
      env: z.optional(z.record(z.string(), z.string())),
    });
    expect(jsonSchemaOf(params)).toEqual(byZod(params));
    expect(jsonSchemaOf(params)).toMatchObject({
      required: ["path", "ratio", "level", "mode", "empty", "tags"],
      additionalProperties: false,
      properties: { count: { type: "integer", minimum: 1, maximum: 500, description: "How many." } },
    });
  });

  it("refuses a parameter kind it does not convert, instead of sending a wrong schema", () => {
    expect(() => jsonSchemaOf(z.object({ either: z.union([z.string(), z.number()]) }))).toThrow(/union parameter/);
    expect(() => jsonSchemaOf(z.object({ id: z.string().check(z.regex(/^a/)) }))).toThrow(/string_format check/);
  });
});
