// A tool's parameters as the JSON Schema sent to the model, for the part of zod the built-in tools
// use: objects, arrays and records of strings, numbers, integers, booleans and enums, optional or
// not, with length and range checks and descriptions. zod's own converter (z.toJSONSchema) handles
// every type, with references and cycles, and cost ~8 ms of every one-shot run's start-up for the
// tools' schemas. tests/tools/json-schema.test.ts checks this gives what zod's converter gives for
// every built-in tool; a type outside the subset throws, so a new kind of parameter cannot go out wrong.
import * as z from "../protocol/zod.js";

type Json = Record<string, unknown>;

interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  innerType?: z.core.$ZodType;
  element?: z.core.$ZodType;
  keyType?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  entries?: Record<string, string | number>;
  checks?: z.core.$ZodCheck[];
  /** Set on a number format (z.int()). */
  format?: string;
}

interface CheckDef {
  check: string;
  value?: number;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
  format?: string;
}

/** Contract: the JSON Schema zod's converter gives, less `$schema` and z.int()'s safe-integer bounds. */
export function jsonSchemaOf(params: z.ZodMiniObject): Json {
  return convert(params);
}

function convert(schema: z.core.$ZodType): Json {
  const def = schema._zod.def as unknown as Def;
  if (def.type === "optional") return describe(schema, convert(def.innerType!));
  const out: Json = {};
  switch (def.type) {
    case "object": {
      const properties: Json = {};
      const required: string[] = [];
      for (const [key, value] of Object.entries(def.shape!)) {
        properties[key] = convert(value);
        if ((value._zod.def as unknown as Def).type !== "optional") required.push(key);
      }
      out.type = "object";
      out.properties = properties;
      if (required.length > 0) out.required = required;
      out.additionalProperties = false;
      break;
    }
    case "string":
    case "boolean":
      out.type = def.type;
      break;
    case "number":
      out.type = def.format === "safeint" || def.format === "int32" ? "integer" : "number";
      break;
    case "array":
      out.type = "array";
      out.items = convert(def.element!);
      break;
    case "record":
      out.type = "object";
      out.propertyNames = convert(def.keyType!);
      out.additionalProperties = convert(def.valueType!);
      break;
    case "enum": {
      const values = Object.values(def.entries!);
      out.type = values.every((v) => typeof v === "string") ? "string" : "number";
      out.enum = values;
      break;
    }
    default:
      throw new Error(`jsonSchemaOf: a ${def.type} parameter is outside what src/tools/json-schema.ts converts`);
  }
  for (const check of def.checks ?? []) applyCheck(out, check._zod.def as unknown as CheckDef);
  return describe(schema, out);
}

function applyCheck(out: Json, c: CheckDef): void {
  // A length is an array's number of items, a string's number of characters.
  const [min, max] = out.type === "array" ? ["minItems", "maxItems"] : ["minLength", "maxLength"];
  switch (c.check) {
    case "min_length":
      out[min] = Math.max(c.minimum!, (out[min] as number | undefined) ?? -Infinity);
      break;
    case "max_length":
      out[max] = Math.min(c.maximum!, (out[max] as number | undefined) ?? Infinity);
      break;
    case "greater_than":
      out[c.inclusive ? "minimum" : "exclusiveMinimum"] = c.value;
      break;
    case "less_than":
      out[c.inclusive ? "maximum" : "exclusiveMaximum"] = c.value;
      break;
    case "number_format":
      if (c.format === "safeint" || c.format === "int32") out.type = "integer";
      else throw new Error(`jsonSchemaOf: a ${c.format} number is outside what src/tools/json-schema.ts converts`);
      break;
    case "describe":
      break;
    default:
      throw new Error(`jsonSchemaOf: a ${c.check} check is outside what src/tools/json-schema.ts converts`);
  }
}

function describe(schema: z.core.$ZodType, out: Json): Json {
  const description = z.globalRegistry.get(schema)?.description;
  return description === undefined ? out : { ...out, description };
}
