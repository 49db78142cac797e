// The editor's MCP servers in config.json's form (src/acp/sessions.ts).
import { expect, it } from "vitest";
import { mcpConfigOf } from "../../src/acp/sessions.js";

it("turns ACP's stdio, HTTP and SSE servers into config entries", () => {
  expect(
    mcpConfigOf([
      { name: "files", command: "node", args: ["fs.js"], env: [{ name: "K", value: "v" }] },
      { type: "http", name: "web", url: "https://x/mcp", headers: [{ name: "Authorization", value: "Bearer t" }] },
      { type: "sse", name: "old", url: "http://127.0.0.1:3001/sse", headers: [] },
    ]),
  ).toEqual({
    files: { command: "node", args: ["fs.js"], env: { K: "v" } },
    web: { type: "http", url: "https://x/mcp", headers: { Authorization: "Bearer t" } },
    old: { type: "sse", url: "http://127.0.0.1:3001/sse", headers: {} },
  });
});
