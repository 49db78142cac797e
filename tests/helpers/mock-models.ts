// A model-list endpoint for `nanohermes models`: GET .../models answers with the given ids in the
// OpenAI-compatible shape ({object: "list", data: [{id}]}, which Anthropic's list shares), or with
// an error status; every request's path and headers are recorded.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ModelsServer {
  /** Base URL ending in /v1. */
  url: string;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function startModelsServer(ids: string[], opts: { status?: number } = {}): Promise<ModelsServer> {
  const requests: ModelsServer["requests"] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? "/";
    requests.push({ path, headers: { ...req.headers } });
    const ok = req.method === "GET" && /\/models(\?|$)/.test(path);
    const status = ok ? (opts.status ?? 200) : 404;
    const body =
      status === 200
        ? {
            object: "list",
            data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: "mock" })),
            has_more: false,
          }
        : { error: { message: `mock ${status}` } };
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
