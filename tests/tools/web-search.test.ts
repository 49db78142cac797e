// web_search against local servers that answer like DuckDuckGo's HTML page, a SearXNG instance
// and the Brave Search API (fixtures in tests/fixtures/web/, shaped like the real responses).
import { tmpdir } from "node:os";
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createWebSearchTool,
  decodeDuckDuckGoLink,
  parseBrave,
  parseDuckDuckGo,
  parseSearxng,
  type WebSearchDeps,
} from "../../src/tools/web-search.js";
import { callTool } from "../helpers/tools.js";
import { fixture, serve, type LocalServer } from "../fixtures/web/local-server.js";

const ws = tmpdir();
const search = (deps: WebSearchDeps, args: Record<string, unknown>) => callTool(createWebSearchTool(deps), args, ws);

function reply(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { "content-type": type });
  res.end(body);
}

const routes: Record<string, (req: IncomingMessage, res: ServerResponse, url: URL) => void> = {
  "/html/": (_q, res, url) => {
    const q = url.searchParams.get("q");
    if (q === "nothing") return reply(res, 200, "text/html; charset=UTF-8", fixture("duckduckgo-no-results.html"));
    if (q === "bot") return reply(res, 202, "text/html; charset=UTF-8", fixture("duckduckgo-anomaly.html"));
    if (q === "down") return reply(res, 503, "text/html", "<h1>Service Unavailable</h1>");
    reply(res, 200, "text/html; charset=UTF-8", fixture("duckduckgo-results.html"));
  },
  "/searx/search": (_q, res, url) => {
    if (url.searchParams.get("format") !== "json") return reply(res, 400, "text/plain", "format?");
    reply(res, 200, "application/json", fixture("searxng.json"));
  },
  "/locked/search": (_q, res) => reply(res, 403, "text/html", "<html><body>403 Forbidden</body></html>"),
  "/elsewhere/search": (_q, res) => {
    res.writeHead(302, { location: `${other.origin}/search?format=json` });
    res.end();
  },
  "/res/v1/web/search": (req, res) => {
    if (req.headers["x-subscription-token"] !== "brave-key")
      return reply(
        res,
        401,
        "application/json",
        '{"type":"ErrorResponse","error":{"code":"SUBSCRIPTION_TOKEN_INVALID","status":401}}',
      );
    reply(res, 200, "application/json", fixture("brave.json"));
  },
  "/stall/html/": () => {},
};

let server: LocalServer;
let other: LocalServer;
beforeAll(async () => {
  server = await serve((req, res) => {
    const url = new URL(req.url ?? "/", server.origin);
    const route = routes[url.pathname];
    if (route) return route(req, res, url);
    reply(res, 404, "text/plain", "no route");
  });
  other = await serve((_q, res) => reply(res, 200, "application/json", fixture("searxng.json")));
});
afterAll(async () => {
  await server.close();
  await other.close();
});

const ddg = (): WebSearchDeps => ({
  web: { allowPrivate: true, search: { backend: "duckduckgo", url: server.origin } },
});

describe("DuckDuckGo HTML backend", () => {
  it("parses result links, titles and snippets, skipping the ad", () => {
    const results = parseDuckDuckGo(fixture("duckduckgo-results.html").toString());
    expect(results).toHaveLength(11);
    expect(results[0]).toEqual({
      title: "References and Borrowing - The Rust Programming Language",
      url: "https://doc.rust-lang.org/book/ch04-02-references-and-borrowing.html",
      snippet:
        "A reference is like a pointer in that it's an address we can follow to access the data stored at that address; that data is owned by some other variable. The borrow checker enforces these rules at compile time.",
    });
    expect(results[2]!.snippet).toContain("Rust borrow checker & how it helps");
    expect(results[4]!.snippet).toContain("<E0502>");
    expect(results[6]!.url).toBe("https://en.wikipedia.org/wiki/Rust_(programming_language)");
    expect(results.some((r) => r.url.includes("duckduckgo.com") || r.title.includes("RustRover"))).toBe(false);
  });

  it("decodes redirect links and drops ad links", () => {
    expect(decodeDuckDuckGoLink("//duckduckgo.com/l/?uddg=https%3A%2F%2Fa.test%2Fx%3Fy%3D1&amp;rut=abc")).toBe(
      "https://a.test/x?y=1",
    );
    expect(
      decodeDuckDuckGoLink("https://duckduckgo.com/y.js?ad_domain=x.test&amp;u3=https%3A%2F%2Fbing.com"),
    ).toBeNull();
    expect(decodeDuckDuckGoLink("https://direct.test/page")).toBe("https://direct.test/page");
    expect(decodeDuckDuckGoLink("javascript:void(0)")).toBeNull();
  });

  it("answers with a numbered list of at most 10 results from the local server", async () => {
    const r = await search(ddg(), { query: "rust borrow checker" });
    expect(r.status).toBe("ok");
    expect(server.requests.at(-1)!.url).toBe("/html/?q=rust+borrow+checker");
    const lines = r.forModel.split("\n");
    expect(lines[0]).toBe('Results for "rust borrow checker" (DuckDuckGo):');
    expect(lines.slice(1, 5)).toEqual([
      "",
      "1. References and Borrowing - The Rust Programming Language",
      "   https://doc.rust-lang.org/book/ch04-02-references-and-borrowing.html",
      "   A reference is like a pointer in that it's an address we can follow to access the data stored at that address; that data is owned by some other variable. The borrow checker enforces these rules at compile time.",
    ]);
    expect(r.forModel).toMatch(/^10\. Understanding the borrow checker - The Rust Programming Language Forum$/m);
    expect(r.forModel).not.toMatch(/^11\./m);
    expect(r.display).toBe("10 results (DuckDuckGo)");
  });

  it("honours limit and says when nothing was found", async () => {
    const three = await search(ddg(), { query: "rust", limit: 3 });
    expect(three.forModel.match(/^\d+\. /gm)).toEqual(["1. ", "2. ", "3. "]);
    expect((await search(ddg(), { query: "nothing" })).forModel).toBe('No results for "nothing" (DuckDuckGo).');
  });

  it("reports a bot check and a failing service as errors", async () => {
    const bot = await search(ddg(), { query: "bot" });
    expect(bot.status).toBe("error");
    expect(bot.forModel).toMatch(/^DuckDuckGo asked for a bot check instead of answering/);
    expect((await search(ddg(), { query: "down" })).forModel).toBe("DuckDuckGo answered 503 Service Unavailable");
  });

  it("keeps the private-address guard: a base URL on 127.0.0.1 needs allowPrivate", async () => {
    const r = await search({ web: { search: { backend: "duckduckgo", url: server.origin } } }, { query: "x" });
    expect(r.forModel).toContain("refused: 127.0.0.1 is a loopback address");
  });

  it("times out on a stalled backend", async () => {
    const r = await search(
      {
        web: { allowPrivate: true, search: { backend: "duckduckgo", url: `${server.origin}/stall` } },
        limits: { totalTimeoutMs: 200 },
      },
      { query: "x" },
    );
    expect(r.forModel).toMatch(/^timed out after 0\.2 s fetching http:\/\/127\.0\.0\.1:\d+\/stall\/html\/\?q=x$/);
  });
});

describe("SearXNG backend", () => {
  it("parses the JSON results, dropping non-web URLs", () => {
    const results = parseSearxng(JSON.parse(fixture("searxng.json").toString()));
    expect(results.map((r) => r.url)).toEqual([
      "https://doc.rust-lang.org/book/ch04-02-references-and-borrowing.html",
      "https://rustc-dev-guide.rust-lang.org/borrow_check.html",
      "https://github.com/rust-lang/polonius",
    ]);
    // SearXNG content is plain text: a "<" in it is kept, not taken for a tag.
    expect(results[2]!.snippet).toContain("x < y && y > z");
    expect(() => parseSearxng({ error: "x" })).toThrow("SearXNG answered without a results list");
  });

  it("queries the configured instance, which may be private, without allowPrivate", async () => {
    const r = await search(
      { web: { search: { backend: "searxng", url: `${server.origin}/searx` } } },
      { query: "rust borrow checker" },
    );
    expect(r.status).toBe("ok");
    expect(server.requests.at(-1)!.url).toBe("/searx/search?q=rust+borrow+checker&format=json");
    expect(r.forModel).toContain(
      'Results for "rust borrow checker" (SearXNG):\n\n1. References and Borrowing - The Rust Programming Language\n   https://doc.rust-lang.org/',
    );
    expect(r.forModel).toMatch(/^3\. GitHub - rust-lang\/polonius/m);
    expect(r.forModel).not.toContain("magnet:");
  });

  it("trusts only the configured origin: a redirect elsewhere on the network is refused", async () => {
    const r = await search(
      { web: { search: { backend: "searxng", url: `${server.origin}/elsewhere` } } },
      { query: "x" },
    );
    expect(r.forModel).toContain("refused: 127.0.0.1 is a loopback address");
    expect(other.requests).toHaveLength(0);
  });

  it("explains a missing URL and a disabled JSON format", async () => {
    expect((await search({ web: { search: { backend: "searxng" } } }, { query: "x" })).forModel).toMatch(
      /^the searxng backend needs its URL in the config/,
    );
    const locked = await search(
      { web: { search: { backend: "searxng", url: `${server.origin}/locked` } } },
      { query: "x" },
    );
    expect(locked.forModel).toBe(
      'SearXNG refused format=json (403): enable "json" under search.formats in the instance\'s settings.yml',
    );
  });
});

describe("Brave Search API backend", () => {
  const brave = (key?: string): WebSearchDeps => ({
    web: { allowPrivate: true, search: { backend: "brave", url: server.origin } },
    env: key ? { BRAVE_API_KEY: key } : {},
  });

  it("parses web results and strips the highlighting", () => {
    const results = parseBrave(JSON.parse(fixture("brave.json").toString()));
    expect(results).toEqual([
      {
        title: "References and Borrowing - The Rust Programming Language",
        url: "https://doc.rust-lang.org/book/ch04-02-references-and-borrowing.html",
        snippet:
          "The borrow checker enforces that a reference never outlives the data it points to & that there is one writer or many readers.",
      },
      {
        title: "Introducing the Rust borrow checker - LogRocket Blog",
        url: "https://blog.logrocket.com/introducing-rust-borrow-checker/",
        snippet: "In this guide, we'll explore the Rust borrow checker and how it helps you write memory-safe code.",
      },
    ]);
    expect(parseBrave({ type: "search", query: {} })).toEqual([]);
  });

  it("sends the key from BRAVE_API_KEY and the count", async () => {
    const r = await search(brave("brave-key"), { query: "rust borrow checker", limit: 2 });
    expect(r.status).toBe("ok");
    expect(server.requests.at(-1)!.url).toBe("/res/v1/web/search?q=rust+borrow+checker&count=2");
    expect(r.forModel).toMatch(/^Results for "rust borrow checker" \(Brave Search\):\n\n1\. References and Borrowing/);
    expect(r.forModel).toMatch(/^2\. Introducing the Rust borrow checker/m);
  });

  it("explains a missing or rejected key", async () => {
    expect((await search(brave(), { query: "x" })).forModel).toBe(
      "the brave backend needs an API key in the environment variable BRAVE_API_KEY",
    );
    expect((await search(brave("wrong"), { query: "x" })).forModel).toBe(
      "Brave Search rejected the API key in BRAVE_API_KEY (401)",
    );
  });
});

describe("web_search arguments", () => {
  it("rejects an empty query and a limit out of range", async () => {
    const empty = await search(ddg(), { query: "" });
    expect(empty).toMatchObject({ status: "error" });
    expect(empty.forModel).toMatch(/^invalid arguments for web_search: "query"/);
    expect((await search(ddg(), { query: "x", limit: 11 })).forModel).toMatch(
      /^invalid arguments for web_search: "limit": Too big/,
    );
    expect((await search(ddg(), { query: "x", limit: 0 })).forModel).toMatch(
      /^invalid arguments for web_search: "limit": Too small/,
    );
  });
});
