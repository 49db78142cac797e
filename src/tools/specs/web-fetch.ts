// web_fetch's spec: what the model sees of it (the implementation is src/tools/web-fetch.ts).
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";

export const webFetchSpec = defineSpec({
  name: "web_fetch",
  kind: "net",
  description:
    "Fetch one http(s) URL and return its content as text: HTML pages as Markdown (scripts, styles, navigation, headers and footers removed; links kept as absolute URLs), " +
    "JSON pretty-printed, other text as sent. Binary files (images, PDFs, archives) are refused. The first line gives the final URL, status, content type and size. " +
    "Bodies over 2 MB are cut, and results over 20 KB show only their start. Only public internet addresses can be reached.",
  params: z.object({
    url: z.string().check(z.minLength(1), z.describe("The absolute http:// or https:// URL to fetch.")),
  }),
  truncate: "head",
  moreHint:
    "Only the start of the page is shown; fetch a more specific URL (a section, an API endpoint or the raw file) for the rest.",
  summarize: (a) => a.url,
});
