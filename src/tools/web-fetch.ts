// web_fetch: one URL as text for the model. HTML becomes Markdown (turndown, loaded on first use),
// JSON is pretty-printed, other text passes through, binaries are refused; the GET is web-http's.
import { binaryKind } from "./binary.js";
import { defineTool, ToolError, type AnyTool } from "./define.js";
import {
  decodeBody,
  guardedGet,
  htmlToPlainText,
  stripBlocks,
  webOptionsOf,
  type Lookup,
  type WebLimits,
  type WebToolOptions,
} from "./web-http.js";
import { webFetchSpec } from "./specs/web-fetch.js";

/** How a body is shown, from its Content-Type (or its bytes when the type says nothing). */
type BodyKind = "html" | "json" | "text" | "binary" | "sniff";

const TEXT_TYPES = new Set([
  "application/xml",
  "application/javascript",
  "application/x-javascript",
  "application/ecmascript",
  "application/typescript",
  "application/x-sh",
  "application/x-yaml",
  "application/yaml",
  "application/toml",
  "application/sql",
  "application/graphql",
  "application/x-ndjson",
  "application/x-www-form-urlencoded",
  "application/x-tex",
  "application/rtf",
]);

export function bodyKindOf(contentType: string): BodyKind {
  const mime = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  if (mime === "" || mime === "application/octet-stream" || mime === "binary/octet-stream") return "sniff";
  if (mime === "text/html" || mime === "application/xhtml+xml") return "html";
  if (mime === "application/json" || mime === "text/json" || mime.endsWith("+json")) return "json";
  if (mime.startsWith("text/") || mime.endsWith("+xml") || TEXT_TYPES.has(mime)) return "text";
  return "binary";
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** The parts of a DOM node the turndown rules below read (the project compiles without the DOM lib). */
interface DomNode {
  nodeName: string;
  parentNode: DomNode | null;
  getAttribute(name: string): string | null;
}

/** Page chrome: dropped, except a header or footer inside an article, which belongs to the text. */
function isChrome(node: DomNode): boolean {
  const name = node.nodeName;
  if (
    [
      "NAV",
      "ASIDE",
      "SVG",
      "IFRAME",
      "SCRIPT",
      "STYLE",
      "NOSCRIPT",
      "TEMPLATE",
      "HEAD",
      "FORM",
      "BUTTON",
      "SELECT",
      "CANVAS",
      "OBJECT",
      "EMBED",
    ].includes(name)
  )
    return true;
  if (name !== "HEADER" && name !== "FOOTER") return false;
  for (let p = node.parentNode; p; p = p.parentNode)
    if (p.nodeName === "ARTICLE" || p.nodeName === "MAIN") return false;
  return true;
}

function absolute(href: string, base: string): string | null {
  try {
    const url = new URL(href, base);
    return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:" ? url.href : null;
  } catch {
    return null;
  }
}

// Elements that never nest (void) or that the parser closes by itself (p, li ...): not counted.
const NOT_NESTING = new Set(
  "area base br col embed hr img input link meta source track wbr p li dt dd option optgroup tr td th tbody thead tfoot colgroup caption rp rt".split(
    " ",
  ),
);
// The HTML parser slows quadratically with depth (40,000 levels: 18 s); real pages stay far below.
const MAX_DEPTH = 1000;

/** An upper estimate of the element nesting depth, from open and close tags, in one linear scan. */
export function nestingDepth(html: string): number {
  let depth = 0;
  let max = 0;
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^<>]*?(\/?)>/g)) {
    const name = m[2]!.toLowerCase();
    if (NOT_NESTING.has(name) || m[3]) continue;
    depth = m[1] ? Math.max(0, depth - 1) : depth + 1;
    if (depth > max) max = depth;
  }
  return max;
}

function titleOf(html: string): string {
  const lower = html.slice(0, 256 * 1024).toLowerCase();
  const open = lower.indexOf("<title");
  const start = open < 0 ? -1 : lower.indexOf(">", open);
  const end = start < 0 ? -1 : lower.indexOf("</title", start);
  if (end < 0) return "";
  return htmlToPlainText(html.slice(start + 1, end))
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * HTML to Markdown. Inline scripts, styles and SVG are cut by pattern first: they are most of a
 * modern page's bytes and the parser would build them only for turndown to drop them.
 */
export async function htmlToMarkdown(
  html: string,
  baseUrl: string,
): Promise<{ title: string; markdown: string; note?: string }> {
  const title = titleOf(html);
  const lean = stripBlocks(html, ["script", "style", "svg", "noscript", "template", "iframe", "head", "title"]);
  if (nestingDepth(lean) > MAX_DEPTH) {
    return {
      title,
      markdown: htmlToPlainText(lean),
      note: "the page nests too deeply for the HTML converter; shown as plain text",
    };
  }
  let markdown: string;
  try {
    const { default: TurndownService } = await import("turndown");
    const td = new TurndownService({
      headingStyle: "atx",
      codeBlockStyle: "fenced",
      bulletListMarker: "-",
      emDelimiter: "*",
    });
    // Markdown escapes (my\_var, 1\.) only make text harder to read for the model.
    td.escape = (text: string) => text;
    td.remove((node) => isChrome(node as unknown as DomNode));
    td.addRule("links", {
      filter: (node) =>
        (node as unknown as DomNode).nodeName === "A" && !!(node as unknown as DomNode).getAttribute("href"),
      replacement: (content, node) => {
        const text = content.replace(/\s+/g, " ").trim();
        const href = absolute((node as unknown as DomNode).getAttribute("href") ?? "", baseUrl);
        if (!text) return "";
        return href ? `[${text}](${href})` : text;
      },
    });
    // Image URLs (often data: URIs) cost many bytes and say little; the alt text stays.
    td.addRule("images", {
      filter: "img",
      replacement: (_content, node) => {
        const alt = ((node as unknown as DomNode).getAttribute("alt") ?? "").trim();
        return alt ? `[image: ${alt}]` : "";
      },
    });
    markdown = td.turndown(lean);
  } catch (error) {
    // The parser and turndown recurse per nesting level; a pathological page overflows the stack.
    if (!(error instanceof RangeError)) throw error;
    return {
      title,
      markdown: htmlToPlainText(lean),
      note: "the page nests too deeply for the HTML converter; shown as plain text",
    };
  }
  markdown = markdown
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title, markdown };
}

function prettyJson(text: string): { text: string; note?: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { text, note: "not valid JSON; shown as sent" };
  }
  try {
    return { text: JSON.stringify(value, null, 2) };
  } catch {
    return { text }; // nested too deeply to print
  }
}

/** Seams for tests and embedders: shorter limits, a chosen DNS, web options when ctx has none. */
export interface WebFetchDeps {
  limits?: Partial<WebLimits>;
  lookup?: Lookup;
  web?: WebToolOptions;
}

export function createWebFetchTool(deps: WebFetchDeps = {}): AnyTool {
  return defineTool({
    ...webFetchSpec,
    async run(args, ctx) {
      const web = { ...deps.web, ...webOptionsOf(ctx) };
      const res = await guardedGet({
        url: args.url.trim(),
        signal: ctx.signal,
        allowPrivate: web.allowPrivate === true,
        ...(deps.limits ? { limits: deps.limits } : {}),
        ...(deps.lookup ? { lookup: deps.lookup } : {}),
        wantBody: (type) => bodyKindOf(type) !== "binary",
      });
      const mime = (res.contentType.split(";")[0] ?? "").trim().toLowerCase() || "no content type";
      const maxBytes = deps.limits?.maxBytes ?? 2 * 1024 * 1024;
      if (res.skipped) {
        const size = res.declaredLength === null ? "size not given" : formatBytes(res.declaredLength);
        throw new ToolError(`refused: ${res.url} is ${mime} (${size}), a binary format; web_fetch only returns text`);
      }
      let kind = bodyKindOf(res.contentType);
      const sample = res.body.subarray(0, 8192);
      const binary = binaryKind(sample);
      if (binary && kind !== "html" && kind !== "json") {
        const size = res.truncated ? `over ${formatBytes(maxBytes)}` : formatBytes(res.body.length);
        throw new ToolError(
          `refused: ${res.url} is ${mime} (${size}) and looks like ${binary}; web_fetch only returns text`,
        );
      }
      if (kind === "sniff") kind = /^\s*(<!doctype html|<html[\s>])/i.test(sample.toString("latin1")) ? "html" : "text";

      const text = decodeBody(res.body, res.contentType, kind === "html");
      const notes: string[] = [];
      let content: string;
      let title = "";
      if (kind === "html") {
        const page = await htmlToMarkdown(text, res.url);
        content = page.markdown;
        title = page.title;
        if (page.note) notes.push(page.note);
      } else if (kind === "json") {
        const json = prettyJson(text);
        content = json.text;
        if (json.note && !res.truncated) notes.push(json.note);
      } else {
        content = text;
      }

      const size = res.truncated
        ? `first ${formatBytes(res.body.length)}; cut at the ${formatBytes(maxBytes)} limit, the rest was not read`
        : formatBytes(res.body.length);
      const from = res.redirects > 0 ? ` (redirected from ${args.url.trim()})` : "";
      const header = `URL: ${res.url}${from} · ${res.status} ${res.statusText} · ${mime} · ${size}`.replace(
        / {2,}/g,
        " ",
      );
      const lines = [header];
      if (title) lines.push(`Title: ${title}`);
      for (const note of notes) lines.push(`[${note}]`);
      const body = content.trim() === "" ? "(empty body)" : content;
      return {
        forModel: `${lines.join("\n")}\n\n${body}`,
        display: `${res.status} ${mime} ${formatBytes(res.body.length)}${res.truncated ? " (cut)" : ""}`,
        ...(res.status >= 400 ? { isError: true } : {}),
      };
    },
  });
}

export const webFetchTool = createWebFetchTool();
