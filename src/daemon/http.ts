// Small HTTP helpers for the daemon: capped JSON bodies, JSON answers and errors, the bearer check.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** Request bodies beyond this are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(res, error.status, { error: error.message }, error.headers);
}

/** Reads the body as bytes, at most `cap` (413 beyond, declared or streamed). */
export async function readRaw(req: IncomingMessage, cap: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? NaN);
  if (Number.isFinite(declared) && declared > cap)
    throw new HttpError(413, `the request body is ${declared} bytes; the limit is ${cap}`, { Connection: "close" });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > cap)
      throw new HttpError(413, `the request body is over the limit of ${cap} bytes`, { Connection: "close" });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads the body as JSON, at most `cap` bytes (413 beyond, checked against Content-Length first and
 * again while reading). An empty body is `{}`; anything but a JSON object is a 400.
 */
export async function readJson(req: IncomingMessage, cap = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  const text = (await readRaw(req, cap)).toString("utf8").trim();
  if (text === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new HttpError(400, `the body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new HttpError(400, "the body must be a JSON object");
  return value as Record<string, unknown>;
}

/** The `prompt` field: a non-empty string. */
export function promptOf(body: Record<string, unknown>): string {
  const prompt = body.prompt;
  if (typeof prompt !== "string") throw new HttpError(400, 'the body needs "prompt": a string');
  if (prompt.trim() === "") throw new HttpError(400, "the prompt is empty");
  return prompt;
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/** Whether the Authorization header carries `token`; the comparison takes the same time either way. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(header ?? "");
  const given = match?.[1] ?? "";
  // Hashing first makes both sides the same length, so timingSafeEqual never leaks the token's.
  const equal = timingSafeEqual(digest(given), digest(token));
  return equal && given.length > 0;
}
