// web_fetch and the guarded GET against real local servers: conversion, limits, timeouts,
// redirects, decompression bombs and the SSRF guard (the address table is in net-guard.test.ts).
import { tmpdir } from "node:os";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebFetchTool, htmlToMarkdown, nestingDepth } from "../../src/tools/web-fetch.js";
import { guardedGet, type Lookup } from "../../src/tools/web-http.js";
import { callTool } from "../helpers/tools.js";
import { fixture, serve, type LocalServer } from "../fixtures/web/local-server.js";

const MB = 1024 * 1024;
const local = createWebFetchTool({ web: { allowPrivate: true } });
const strict = createWebFetchTool();
const ws = tmpdir();
const fetchUrl = (url: string, tool = local, signal?: AbortSignal) => callTool(tool, { url }, ws, signal);

/** Resolves every name to the given addresses, as a DNS server controlled by an attacker might. */
const fakeDns =
  (table: Record<string, string[]>): Lookup =>
  async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

function send(res: ServerResponse, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(200, { "content-type": type, "content-length": String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

/** Writes `total` bytes of text in 64 KB chunks, respecting backpressure. */
function stream(res: ServerResponse, total: number): void {
  res.writeHead(200, { "content-type": "text/plain" });
  const chunk = Buffer.alloc(64 * 1024, "x");
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    res.end();
  };
  pump();
}

const bomb = gzipSync(Buffer.alloc(64 * MB, "a"), { level: 9 });
const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  "/article": (_q, res) => send(res, "text/html; charset=utf-8", fixture("article.html")),
  "/json": (_q, res) => send(res, "application/json", '{"name":"nh","tags":["a","b"],"nested":{"ok":true}}'),
  "/broken-json": (_q, res) => send(res, "application/json", '{"name": "nh",'),
  "/text": (_q, res) => send(res, "text/plain; charset=utf-8", "line one\nline two\n"),
  "/latin1": (_q, res) => send(res, "text/plain; charset=iso-8859-1", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])),
  "/meta-charset": (_q, res) =>
    send(
      res,
      "text/html",
      Buffer.concat([
        Buffer.from('<html><head><meta charset="windows-1252"></head><body><p>na'),
        Buffer.from([0xef, 0x76, 0x65]),
        Buffer.from("</p></body></html>"),
      ]),
    ),
  "/png": (_q, res) =>
    send(
      res,
      "image/png",
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1992)]),
    ),
  "/octet-png": (_q, res) =>
    send(res, "application/octet-stream", Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(96)])),
  "/octet-text": (_q, res) => send(res, "application/octet-stream", "# README\nplain words\n"),
  "/stall-headers": () => {},
  "/stall-body": (_q, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.write("a start and then nothing");
  },
  "/3mb": (_q, res) => stream(res, 3 * MB),
  "/long-html": (_q, res) =>
    send(
      res,
      "text/html",
      `<html><body>${Array.from({ length: 3000 }, (_, i) => `<p>Paragraph ${i} with some words in it.</p>`).join("")}</body></html>`,
    ),
  "/bomb": (_q, res) => send(res, "text/plain", bomb, { "content-encoding": "gzip" }),
  "/gzip": (_q, res) => send(res, "text/plain", gzipSync("gzipped text"), { "content-encoding": "gzip" }),
  "/br": (_q, res) => send(res, "text/plain", brotliCompressSync("brotli text"), { "content-encoding": "br" }),
  "/deflate": (_q, res) => send(res, "text/plain", deflateSync("deflated text"), { "content-encoding": "deflate" }),
  "/bad-gzip": (_q, res) => send(res, "text/plain", Buffer.from("not gzip at all"), { "content-encoding": "gzip" }),
  "/zstd": (_q, res) => send(res, "text/plain", Buffer.from("??"), { "content-encoding": "zstd" }),
  "/missing": (_q, res) => {
    res.writeHead(404, { "content-type": "text/html" });
    res.end("<html><body><h1>Not Found</h1><p>No such page.</p></body></html>");
  },
  "/deep": (_q, res) =>
    send(res, "text/html", `<html><body>${"<div>".repeat(60_000)}deep words${"</div>".repeat(60_000)}</body></html>`),
  "/host": (req, res) => send(res, "text/plain", `host=${req.headers.host}`),
};

let server: LocalServer;
let other: LocalServer;
beforeAll(async () => {
  server = await serve((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const hop = /^\/r\/(\d+)$/.exec(path);
    if (hop) {
      const n = Number(hop[1]);
      res.writeHead(n > 0 ? 302 : 200, n > 0 ? { location: `/r/${n - 1}` } : { "content-type": "text/plain" });
      return void res.end(n > 0 ? "" : "end of the chain");
    }
    if (path === "/to-other") {
      res.writeHead(301, { location: `${other.origin}/host` });
      return void res.end();
    }
    const route = routes[path];
    if (route) return route(req, res);
    res.writeHead(500).end();
  });
  other = await serve((req, res) => send(res, "text/plain", `other saw key=${req.headers["x-api-key"] ?? "none"}`));
});
afterAll(async () => {
  await server.close();
  await other.close();
});

describe("web_fetch content", () => {
  it("turns HTML into Markdown: chrome and code stripped, headings, links, lists and code kept", async () => {
    const r = await fetchUrl(`${server.origin}/article`);
    expect(r.status).toBe("ok");
    const [header, title] = r.forModel.split("\n");
    expect(header).toMatch(new RegExp(`^URL: ${server.origin}/article · 200 OK · text/html · \\d+\\.\\d KB$`));
    expect(title).toBe("Title: Streams & Backpressure | Example Docs");
    const text = r.forModel;
    for (const gone of [
      "SCRIPT_MARKER",
      "STYLE_MARKER",
      "LDJSON_MARKER",
      "NAV_MARKER",
      "SITE_HEADER_MARKER",
      "ASIDE_MARKER",
      "SVG_MARKER",
      "IFRAME_MARKER",
      "NOSCRIPT_MARKER",
      "SITE_FOOTER_MARKER",
      "FORM_MARKER",
      "COMMENT_MARKER",
      "data:image",
    ]) {
      expect(text, gone).not.toContain(gone);
    }
    expect(text).toContain("# Streams and Backpressure");
    expect(text).toContain("## Why it matters");
    expect(text).toContain("ARTICLE_HEADER_KEPT");
    expect(text).toContain("ARTICLE_FOOTER_KEPT");
    expect(text).toContain(`[Readable API](${server.origin}/api/stream.html#readable)`);
    expect(text).toContain("[official guide](https://nodejs.org/en/learn/modules/backpressuring-in-streams)");
    expect(text).toMatch(/^- +Memory stays bounded$/m);
    expect(text).toMatch(/^1\. +Check the return value of `write\(\)`$/m);
    expect(text).toContain('```js\nconst ok = stream.write(chunk);\nif (!ok) await once(stream, "drain");\n```');
    expect(text).toContain("[image: A diagram of a pipe]");
    expect(text).not.toMatch(/\n{3}/);
  });

  it("pretty-prints JSON and shows invalid JSON as sent", async () => {
    const r = await fetchUrl(`${server.origin}/json`);
    expect(r.forModel).toContain(
      '{\n  "name": "nh",\n  "tags": [\n    "a",\n    "b"\n  ],\n  "nested": {\n    "ok": true\n  }\n}',
    );
    const broken = await fetchUrl(`${server.origin}/broken-json`);
    expect(broken.forModel).toContain('[not valid JSON; shown as sent]\n\n{"name": "nh",');
  });

  it("passes text through and honours the charset, declared or in a meta tag", async () => {
    expect((await fetchUrl(`${server.origin}/text`)).forModel).toMatch(/· text\/plain · 18 B\n\nline one\nline two\n$/);
    expect((await fetchUrl(`${server.origin}/latin1`)).forModel).toMatch(/\n\ncafé\n$/);
    expect((await fetchUrl(`${server.origin}/meta-charset`)).forModel).toMatch(/\n\nnaïve$/);
    expect((await fetchUrl(`${server.origin}/octet-text`)).forModel).toMatch(/\n\n# README\nplain words\n$/);
  });

  it("refuses binaries, naming their type and size", async () => {
    const png = await fetchUrl(`${server.origin}/png`);
    expect(png).toMatchObject({
      status: "error",
      forModel: `refused: ${server.origin}/png is image/png (2.0 KB), a binary format; web_fetch only returns text`,
    });
    const sniffed = await fetchUrl(`${server.origin}/octet-png`);
    expect(sniffed.forModel).toBe(
      `refused: ${server.origin}/octet-png is application/octet-stream (100 B) and looks like PNG image; web_fetch only returns text`,
    );
  });

  it("returns an error page as an error result with its text", async () => {
    const r = await fetchUrl(`${server.origin}/missing`);
    expect(r.status).toBe("error");
    expect(r.forModel).toMatch(/· 404 Not Found · text\/html ·[\s\S]*# Not Found\n\nNo such page\./);
  });

  it("falls back to plain text when a page nests too deeply for the converter", async () => {
    const r = await fetchUrl(`${server.origin}/deep`);
    expect(r.status).toBe("ok");
    expect(r.forModel).toContain("[the page nests too deeply for the HTML converter; shown as plain text]");
    expect(r.forModel).toMatch(/deep words$/);
  });

  // A quadratic converter would not get through 2 MB of these within the test's timeout; how fast
  // the linear one is belongs to a benchmark, not to an assertion on a shared machine.
  it("converts hostile markup in linear time", async () => {
    for (const html of [
      "<script".repeat(300_000),
      "<".repeat(2 * MB),
      "<!--".repeat(400_000),
      "<title>".repeat(200_000),
      "<div><span>".repeat(150_000),
    ]) {
      expect(typeof (await htmlToMarkdown(html, "http://a.test/")).markdown).toBe("string");
    }
  });

  it("estimates nesting depth without counting void or self-closing elements", () => {
    expect(nestingDepth("<div><p>a<p>b<br><img src=x><span>c</span></div>")).toBe(2);
    expect(nestingDepth("<div>".repeat(50) + "</div>".repeat(50) + "<section/>")).toBe(50);
  });

  it("keeps converted HTML free of Markdown escapes", async () => {
    const { markdown } = await htmlToMarkdown("<p>my_var * 2 = 1. [x]</p>", "http://a.test/");
    expect(markdown).toBe("my_var * 2 = 1. [x]");
  });
});

describe("web_fetch limits", () => {
  it("cuts a 3 MB body at 2 MB while streaming and says so", async () => {
    const res = await guardedGet({
      url: `${server.origin}/3mb`,
      signal: new AbortController().signal,
      allowPrivate: true,
    });
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(2 * MB);
    const r = await fetchUrl(`${server.origin}/3mb`);
    expect(r.forModel.split("\n")[0]).toBe(
      `URL: ${server.origin}/3mb · 200 OK · text/plain · first 2.0 MB; cut at the 2.0 MB limit, the rest was not read`,
    );
  });

  it("stops a gzip bomb at 2 MB of decompressed text", async () => {
    expect(bomb.length).toBeLessThan(MB);
    const before = process.memoryUsage().rss;
    const res = await guardedGet({
      url: `${server.origin}/bomb`,
      signal: new AbortController().signal,
      allowPrivate: true,
    });
    expect(res.truncated).toBe(true);
    expect(res.body.length).toBe(2 * MB);
    expect(res.body.every((b) => b === 0x61)).toBe(true);
    // Inflating the whole 64 MB would show here; the cut keeps growth far below it.
    expect(process.memoryUsage().rss - before).toBeLessThan(48 * MB);
  });

  it("decompresses gzip, brotli and deflate, and reports broken or unknown encodings", async () => {
    expect((await fetchUrl(`${server.origin}/gzip`)).forModel).toMatch(/\n\ngzipped text$/);
    expect((await fetchUrl(`${server.origin}/br`)).forModel).toMatch(/\n\nbrotli text$/);
    expect((await fetchUrl(`${server.origin}/deflate`)).forModel).toMatch(/\n\ndeflated text$/);
    expect((await fetchUrl(`${server.origin}/bad-gzip`)).forModel).toMatch(/^could not decompress the gzip body: /);
    expect((await fetchUrl(`${server.origin}/zstd`)).forModel).toBe(
      "the server sent an unsupported content encoding: zstd",
    );
  });

  it("gives up on a server that stalls, before or after its headers, at the total timeout", async () => {
    const quick = createWebFetchTool({ web: { allowPrivate: true }, limits: { totalTimeoutMs: 300 } });
    for (const path of ["/stall-headers", "/stall-body"]) {
      // The message comes from the total timeout (0.3 s), not from the stalled server ending.
      const r = await fetchUrl(`${server.origin}${path}`, quick);
      expect(r).toMatchObject({ status: "error", forModel: `timed out after 0.3 s fetching ${server.origin}${path}` });
    }
  });

  it("gives up on a connection whose TLS handshake never completes, at the connect timeout", async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as { port: number }).port;
    const tool = createWebFetchTool({ web: { allowPrivate: true }, limits: { connectTimeoutMs: 200 } });
    const r = await fetchUrl(`https://127.0.0.1:${port}/`, tool);
    expect(r.forModel).toBe(`could not connect to 127.0.0.1:${port} within 0.2 s`);
    for (const socket of sockets) socket.destroy();
    silent.close();
  });

  it("reports a TLS failure by name", async () => {
    const tool = createWebFetchTool({ web: { allowPrivate: true }, lookup: fakeDns({ "tls.test": ["127.0.0.1"] }) });
    const r = await fetchUrl(`https://tls.test:${server.port}/text`, tool);
    expect(r.forModel).toBe(`TLS error from tls.test:${server.port}: wrong version number`);
  });

  it("stops when the signal aborts", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    // The body stalls for good: only the abort can end the fetch.
    const r = await fetchUrl(`${server.origin}/stall-body`, local, controller.signal);
    expect(r.status).toBe("aborted");
  });

  it("comes back through the registry at 20 KB or less, with the note", async () => {
    const r = await fetchUrl(`${server.origin}/long-html`);
    expect(Buffer.byteLength(r.forModel)).toBeLessThanOrEqual(20 * 1024);
    expect(r.forModel).toContain("Paragraph 0 with some words");
    expect(r.forModel).toMatch(
      /more bytes cut: the result was \d+ bytes, the limit is 20480\. Only the start of the page is shown/,
    );
  });
});

describe("web_fetch redirects and addresses", () => {
  it("follows up to 5 redirects and names the limit past it", async () => {
    const ok = await fetchUrl(`${server.origin}/r/5`);
    expect(ok.forModel).toMatch(
      new RegExp(`^URL: ${server.origin}/r/0 \\(redirected from ${server.origin}/r/5\\) · 200 OK`),
    );
    expect(ok.forModel).toMatch(/end of the chain$/);
    const tooMany = await fetchUrl(`${server.origin}/r/6`);
    expect(tooMany.status).toBe("error");
    expect(tooMany.forModel).toBe(
      `too many redirects: gave up after 5 (the limit), the last one from ${server.origin}/r/1 to /r/0`,
    );
  });

  it("re-checks every hop: a redirect from an allowed origin to 127.0.0.1 is refused", async () => {
    const call = guardedGet({
      url: `${server.origin}/to-other`,
      signal: new AbortController().signal,
      trustedOrigins: [server.origin],
    });
    await expect(call).rejects.toThrow("refused: 127.0.0.1 is a loopback address, not the public internet");
    expect(other.requests.length).toBe(0);
  });

  it("sends extra headers to the first origin only", async () => {
    const res = await guardedGet({
      url: `${server.origin}/to-other`,
      signal: new AbortController().signal,
      allowPrivate: true,
      headers: { "x-api-key": "secret" },
    });
    expect(res.body.toString()).toBe("other saw key=none");
  });

  it("connects to the checked address and sends the name as Host", async () => {
    const tool = createWebFetchTool({ web: { allowPrivate: true }, lookup: fakeDns({ "docs.test": ["127.0.0.1"] }) });
    const r = await fetchUrl(`http://docs.test:${server.port}/host`, tool);
    expect(r.forModel).toMatch(new RegExp(`\\n\\nhost=docs.test:${server.port}$`));
  });

  it.each([
    ["http://127.0.0.1/", "127.0.0.1 is a loopback address"],
    ["http://[::1]:8080/", "::1 is a loopback address"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1 is a loopback address"],
    ["http://2130706433/", "127.0.0.1 is a loopback address"],
    ["http://0x7f.1/", "127.0.0.1 is a loopback address"],
    ["http://0177.0.0.1/", "127.0.0.1 is a loopback address"],
    ["http://localhost:3000/", "localhost is a loopback address"],
    ["http://10.1.2.3/", "10.1.2.3 is a private address"],
    ["http://[fd12::1]/", "fd12::1 is a private address"],
    ["http://100.64.1.1/", "100.64.1.1 is a carrier-grade NAT address"],
    ["http://[fe80::1]/", "fe80::1 is a link-local address"],
    ["http://0.0.0.0/", "0.0.0.0 is a unspecified address"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address"],
    ["http://metadata.google.internal/computeMetadata/v1/", "metadata.google.internal is a cloud metadata address"],
    ["http://rebind.test/", "rebind.test resolves to 127.0.0.1, a loopback address"],
    ["http://mixed.test/", "mixed.test resolves to 192.168.1.20, a private address"],
    ["http://v6.test/", "v6.test resolves to fe80::2, a link-local address"],
  ])("refuses %s", async (url, reason) => {
    const tool = createWebFetchTool({
      lookup: fakeDns({
        "rebind.test": ["127.0.0.1"],
        "mixed.test": ["93.184.216.34", "192.168.1.20"],
        "v6.test": ["fe80::2"],
      }),
    });
    const r = await fetchUrl(url, tool);
    expect(r.status).toBe("error");
    expect(r.forModel).toContain(`refused: ${reason}, not the public internet`);
  });

  it("refuses cloud metadata even when private addresses are allowed", async () => {
    const r = await fetchUrl("http://[fd00:ec2::254]/latest/", local);
    expect(r.forModel).toBe(
      "refused: fd00:ec2::254 is a cloud metadata address, not the public internet; metadata endpoints are never fetched",
    );
  });

  it.each([
    "file:///etc/passwd",
    "ftp://example.com/x",
    "data:text/plain,hi",
    "javascript:alert(1)",
    "gopher://example.com/",
  ])("refuses the scheme of %s", async (url) => {
    const r = await fetchUrl(url, strict);
    expect(r.status).toBe("error");
    expect(r.forModel).toMatch(/^refused URL .*: only http:\/\/ and https:\/\/ URLs can be fetched, not [a-z]+:$/);
  });

  it("explains invalid URLs and unresolvable names", async () => {
    expect((await fetchUrl("example.com/docs", strict)).forModel).toBe(
      'not a valid URL: "example.com/docs" (did you mean https://example.com/docs?); give an absolute http:// or https:// URL',
    );
    const tool = createWebFetchTool({ lookup: fakeDns({}) });
    expect((await fetchUrl("https://no-such-host.test/", tool)).forModel).toBe(
      "cannot resolve no-such-host.test: no such host (ENOTFOUND)",
    );
    expect((await callTool(strict, {}, ws)).forModel).toMatch(/^invalid arguments for web_fetch: "url"/);
  });

  it("reports a refused connection", async () => {
    const closed = await serve(() => {});
    const port = closed.port;
    await closed.close();
    expect((await fetchUrl(`http://127.0.0.1:${port}/`)).forModel).toBe(`connection refused by 127.0.0.1:${port}`);
  });
});
