// web_search's spec: what the model sees of it (the implementation is src/tools/web-search.ts).
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";

export const MAX_RESULTS = 10;

export const webSearchSpec = defineSpec({
  name: "web_search",
  kind: "net",
  description:
    "Search the web. Returns up to 10 results as a numbered list: title, URL and a snippet each. " +
    "Use web_fetch on a result's URL to read the page.",
  params: z.object({
    query: z
      .string()
      .check(z.minLength(1), z.describe("What to search for, as you would type it into a search engine.")),
    limit: z
      .optional(z.int().check(z.minimum(1), z.maximum(MAX_RESULTS)))
      .check(z.describe(`How many results (1-${MAX_RESULTS}, default ${MAX_RESULTS}).`)),
  }),
  summarize: (a) => a.query,
});
