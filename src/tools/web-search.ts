// web_search: a query to one of three backends (DuckDuckGo's keyless HTML page by default,
// a user's SearXNG instance, the Brave Search API), answered as a numbered list of results.
import { defineTool, ToolError, type AnyTool } from "./define.js";
import {
  decodeBody,
  decodeEntities,
  guardedGet,
  htmlToPlainText,
  webOptionsOf,
  type GetResponse,
  type Lookup,
  type WebLimits,
  type WebToolOptions,
} from "./web-http.js";
import { MAX_RESULTS, webSearchSpec } from "./specs/web-search.js";

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export type SearchBackend = NonNullable<WebToolOptions["search"]>["backend"];

const MAX_SNIPPET = 400;
const DEFAULT_BASE: Record<SearchBackend, string | null> = {
  duckduckgo: "https://html.duckduckgo.com",
  brave: "https://api.search.brave.com",
  searxng: null,
};
const BACKEND_NAMES: Record<SearchBackend, string> = {
  duckduckgo: "DuckDuckGo",
  searxng: "SearXNG",
  brave: "Brave Search",
};

function clean(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_SNIPPET ? `${flat.slice(0, MAX_SNIPPET - 1)}…` : flat;
}

/**
 * The target of a DuckDuckGo result link: its links go through `//duckduckgo.com/l/?uddg=<url>`;
 * ads go through `/y.js` and give null.
 */
export function decodeDuckDuckGoLink(href: string): string | null {
  let url: URL;
  try {
    url = new URL(decodeEntities(href), "https://duckduckgo.com/");
  } catch {
    return null;
  }
  if (url.hostname === "duckduckgo.com" || url.hostname.endsWith(".duckduckgo.com")) {
    if (url.pathname === "/l/") return url.searchParams.get("uddg");
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
}

/**
 * Contract: reads the results of html.duckduckgo.com/html/ -- each `a.result__a` (title and link)
 * and the `.result__snippet` that follows it before the next result. Ads and duplicates are skipped.
 */
export function parseDuckDuckGo(html: string): SearchResult[] {
  const anchors = [...html.matchAll(/<a\b([^>]*\bclass="[^"]*\bresult__a\b[^"]*"[^>]*)>([\s\S]*?)<\/a>/gi)];
  const results: SearchResult[] = [];
  const seen = new Set<string>();
  anchors.forEach((m, i) => {
    const href = /\bhref="([^"]*)"/i.exec(m[1]!)?.[1];
    const url = href ? decodeDuckDuckGoLink(href) : null;
    if (!url || seen.has(url)) return;
    seen.add(url);
    const segment = html.slice(m.index + m[0].length, anchors[i + 1]?.index ?? html.length);
    const snippet =
      /<(a|div|td|span)\b[^>]*\bclass="[^"]*\bresult__snippet\b[^"]*"[^>]*>([\s\S]*?)<\/\1>/i.exec(segment)?.[2] ?? "";
    results.push({ title: clean(htmlToPlainText(m[2]!)) || url, url, snippet: clean(htmlToPlainText(snippet)) });
  });
  return results;
}

function parseJson(res: GetResponse, backend: string): unknown {
  try {
    return JSON.parse(decodeBody(res.body, res.contentType));
  } catch {
    throw new ToolError(
      `${backend} did not return JSON (${res.status}, ${res.contentType || "no content type"}${res.truncated ? ", cut at the size limit" : ""})`,
    );
  }
}

function field(item: unknown, key: string): string {
  const value = (item as Record<string, unknown> | null)?.[key];
  return typeof value === "string" ? value : "";
}

/** SearXNG's `/search?format=json`: `{results: [{title, url, content, engine, ...}], ...}`. */
export function parseSearxng(data: unknown): SearchResult[] {
  const list = (data as { results?: unknown } | null)?.results;
  if (!Array.isArray(list)) throw new ToolError("SearXNG answered without a results list");
  return list
    .map((item) => ({
      title: clean(field(item, "title")),
      url: field(item, "url"),
      snippet: clean(field(item, "content")),
    }))
    .filter((r) => /^https?:\/\//i.test(r.url));
}

/** Brave's `/res/v1/web/search`: `{web: {results: [{title, url, description}]}}`, descriptions with <strong>. */
export function parseBrave(data: unknown): SearchResult[] {
  const list = (data as { web?: { results?: unknown } } | null)?.web?.results;
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new ToolError("Brave Search answered without a results list");
  return list
    .map((item) => ({
      title: clean(htmlToPlainText(field(item, "title"))),
      url: field(item, "url"),
      snippet: clean(htmlToPlainText(field(item, "description"))),
    }))
    .filter((r) => /^https?:\/\//i.test(r.url));
}

/** The endpoint URL of a backend, from its base (which may carry a path, as SearXNG often does). */
function endpoint(base: string, path: string, query: Record<string, string>): string {
  let url: URL;
  try {
    url = new URL(path, base.endsWith("/") ? base : `${base}/`);
  } catch {
    throw new ToolError(`the configured search URL is not valid: ${JSON.stringify(base)}`);
  }
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return url.href;
}

export function formatResults(query: string, backend: SearchBackend, results: SearchResult[]): string {
  const name = BACKEND_NAMES[backend];
  if (results.length === 0) return `No results for ${JSON.stringify(query)} (${name}).`;
  const lines = [`Results for ${JSON.stringify(query)} (${name}):`];
  results.forEach((r, i) => {
    lines.push("", `${i + 1}. ${r.title}`, `   ${r.url}`);
    if (r.snippet) lines.push(`   ${r.snippet}`);
  });
  return lines.join("\n");
}

/** Seams for tests and embedders: shorter limits, a chosen DNS, web options when ctx has none, the environment. */
export interface WebSearchDeps {
  limits?: Partial<WebLimits>;
  lookup?: Lookup;
  web?: WebToolOptions;
  env?: Record<string, string | undefined>;
}

export function createWebSearchTool(deps: WebSearchDeps = {}): AnyTool {
  return defineTool({
    ...webSearchSpec,
    async run(args, ctx) {
      const web = { ...deps.web, ...webOptionsOf(ctx) };
      const backend: SearchBackend = web.search?.backend ?? "duckduckgo";
      const base = web.search?.url ?? DEFAULT_BASE[backend];
      const name = BACKEND_NAMES[backend];
      const limit = args.limit ?? MAX_RESULTS;
      const get = (url: string, extra: { headers?: Record<string, string>; trustedOrigins?: string[] } = {}) =>
        guardedGet({
          url,
          signal: ctx.signal,
          allowPrivate: web.allowPrivate === true,
          ...(deps.limits ? { limits: deps.limits } : {}),
          ...(deps.lookup ? { lookup: deps.lookup } : {}),
          ...extra,
        });

      let results: SearchResult[];
      switch (backend) {
        case "duckduckgo": {
          const res = await get(endpoint(base!, "html/", { q: args.query }));
          if (res.status >= 400) throw new ToolError(`${name} answered ${res.status} ${res.statusText}`.trim());
          const html = decodeBody(res.body, res.contentType, true);
          results = parseDuckDuckGo(html);
          // Too many queries from one address get a bot check (status 202) instead of results.
          if (results.length === 0 && (res.status === 202 || /anomaly-modal|challenge-form/.test(html))) {
            throw new ToolError(
              `${name} asked for a bot check instead of answering; try again later, or configure "web": {"search": {"backend": "searxng", "url": ...}} or "brave"`,
            );
          }
          break;
        }
        case "searxng": {
          if (!base)
            throw new ToolError(
              'the searxng backend needs its URL in the config: "web": {"search": {"backend": "searxng", "url": "http://localhost:8888"}}',
            );
          const url = endpoint(base, "search", { q: args.query, format: "json" });
          // The user chose this instance; it may well live on their own network.
          const res = await get(url, {
            trustedOrigins: [new URL(url).origin],
            headers: { accept: "application/json" },
          });
          if (res.status === 403)
            throw new ToolError(
              `${name} refused format=json (403): enable "json" under search.formats in the instance's settings.yml`,
            );
          if (res.status >= 400) throw new ToolError(`${name} answered ${res.status} ${res.statusText}`.trim());
          results = parseSearxng(parseJson(res, name));
          break;
        }
        case "brave": {
          const key = (deps.env ?? process.env).BRAVE_API_KEY;
          if (!key) throw new ToolError("the brave backend needs an API key in the environment variable BRAVE_API_KEY");
          const res = await get(endpoint(base!, "res/v1/web/search", { q: args.query, count: String(limit) }), {
            headers: { accept: "application/json", "x-subscription-token": key },
          });
          if (res.status === 401 || res.status === 403)
            throw new ToolError(`${name} rejected the API key in BRAVE_API_KEY (${res.status})`);
          if (res.status === 429) throw new ToolError(`${name} rate limit reached (429); wait and try again`);
          if (res.status >= 400) throw new ToolError(`${name} answered ${res.status} ${res.statusText}`.trim());
          results = parseBrave(parseJson(res, name));
          break;
        }
        default:
          throw new ToolError(`unknown search backend ${JSON.stringify(backend satisfies never)}`);
      }
      const shown = results.slice(0, limit);
      return { forModel: formatResults(args.query, backend, shown), display: `${shown.length} results (${name})` };
    },
  });
}

export const webSearchTool = createWebSearchTool();
