// Compaction: the size measure, the budget rule, where the fold may cut (hand-made histories and
// a property test over random tool-call chains), the summary request, and compact() end to end.
import { describe, expect, it } from "vitest";
import {
  applyFold,
  compact,
  CONTEXT_CHAR_BUDGET,
  contextBudget,
  contextChars,
  cutMiddle,
  isSummaryMessage,
  KEEP_RECENT,
  needsCompaction,
  OMITTED_NOTE,
  selectFold,
  SUMMARY_INPUT_CAP,
  SUMMARY_PREFIX,
  summaryRequest,
} from "../../src/agent/compaction.js";
import type { ModelClient, ModelOutcome, ModelRequest } from "../../src/agent/model-client.js";
import type { AssistantMessage, ChatMessage } from "../../src/protocol/messages.js";

const sys: ChatMessage = { role: "system", content: "You are NanoHermes." };
const user = (text: string): ChatMessage => ({ role: "user", content: text });
const say = (text: string): ChatMessage => ({ role: "assistant", content: text });
const call = (...ids: string[]): AssistantMessage => ({
  role: "assistant",
  content: null,
  tool_calls: ids.map((id) => ({
    id,
    type: "function" as const,
    function: { name: "read_file", arguments: `{"path":"${id}.ts"}` },
  })),
});
const result = (id: string, text = `contents of ${id}`): ChatMessage => ({
  role: "tool",
  tool_call_id: id,
  content: text,
});
const summary = (text: string): ChatMessage => ({ role: "system", content: `${SUMMARY_PREFIX}\n${text}` });

/** Roles as letters, to compare cuts at a glance. */
const shape = (ms: ChatMessage[]) => ms.map((m) => m.role[0]).join("");

describe("contextChars", () => {
  it("counts text, tool-call names and arguments, tool results, and 4,000 per image", () => {
    expect(contextChars([sys])).toBe(19);
    expect(contextChars([{ role: "assistant", content: null, reasoning_content: "not sent back" }])).toBe(0);
    expect(contextChars([call("a")])).toBe("read_file".length + '{"path":"a.ts"}'.length);
    expect(contextChars([result("a", "12345")])).toBe(5);
    const withImage: ChatMessage = {
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
      ],
    };
    expect(contextChars([withImage])).toBe(4 + 4_000);
    expect(contextChars([sys, user("hi"), say("hello")])).toBe(19 + 2 + 5);
  });
});

describe("contextBudget", () => {
  it("is 120,000 when the window is unknown, else half the window at 4 chars a token, at least 20,000", () => {
    expect(contextBudget()).toBe(CONTEXT_CHAR_BUDGET);
    expect(contextBudget(0)).toBe(CONTEXT_CHAR_BUDGET);
    expect(contextBudget(Number.NaN)).toBe(CONTEXT_CHAR_BUDGET);
    expect(contextBudget(128_000)).toBe(256_000);
    expect(contextBudget(32_768)).toBe(65_536);
    expect(contextBudget(8_000)).toBe(20_000);
    expect(contextBudget(1_000.7)).toBe(20_000);
  });

  it("needsCompaction: over budget and something to fold", () => {
    const long = [sys, ...Array.from({ length: 20 }, (_, i) => (i % 2 ? say("x".repeat(100)) : user("y".repeat(100))))];
    expect(needsCompaction(long, 1_000)).toBe(true);
    expect(needsCompaction(long, 100_000)).toBe(false);
    expect(needsCompaction([sys, user("z".repeat(5_000))], 1_000)).toBe(false);
  });
});

describe("selectFold", () => {
  const turns = (k: number) => Array.from({ length: k }, (_, i) => (i % 2 ? say(`a${i}`) : user(`u${i}`)));

  it("keeps the last KEEP_RECENT when the cut lands on a plain message", () => {
    const ms = [sys, ...turns(15)];
    expect(selectFold(ms)).toEqual({ end: 6 });
    expect(selectFold(ms, 3)).toEqual({ end: 13 });
  });

  it("is null when there are too few messages", () => {
    expect(selectFold([sys])).toBeNull();
    expect(selectFold([sys, ...turns(KEEP_RECENT)])).toBeNull();
    expect(selectFold([sys, ...turns(KEEP_RECENT + 1)])).toEqual({ end: 2 });
  });

  it("moves a cut that lands on a tool message back to the assistant that called it", () => {
    const ms = [
      sys,
      user("1"),
      say("2"),
      user("3"),
      call("x", "y", "z"),
      result("x"),
      result("y"),
      result("z"),
      say("4"),
      user("5"),
      say("6"),
      user("7"),
      say("8"),
      user("9"),
      say("10"),
    ];
    expect(ms.length - KEEP_RECENT).toBe(5);
    expect(ms[5]!.role).toBe("tool");
    expect(selectFold(ms)).toEqual({ end: 4 });
  });

  it("keeps parallel results with their call when the cut lands after the call but among its results", () => {
    const ms = [
      sys,
      user("go"),
      call("a", "b", "c", "d"),
      result("a"),
      result("b"),
      result("c"),
      result("d"),
      say("done"),
      ...turns(6),
    ];
    for (const keep of [8, 9, 10]) expect(selectFold(ms, keep)).toEqual({ end: 2 });
    expect(selectFold(ms, 7)).toEqual({ end: 7 });
  });

  it("moves the cut earlier when a kept result's assistant would be folded, even if the cut is not on a tool message", () => {
    // Results out of call order with a user steer between them would still tie the chain together.
    const ms = [
      sys,
      user("go"),
      say("thinking"),
      call("a", "b"),
      result("a"),
      user("steer"),
      result("b"),
      say("ok"),
      user("next"),
      say("fine"),
    ];
    expect(ms[5]!.role).toBe("user");
    expect(selectFold(ms, 5)).toEqual({ end: 3 });
  });

  it("folds an existing summary at index 1 again, but never only the summary", () => {
    const ms = [sys, summary("old"), ...turns(12)];
    expect(selectFold(ms)).toEqual({ end: 4 });
    expect(selectFold([sys, summary("old"), ...turns(11)])).toEqual({ end: 3 });
    expect(selectFold([sys, summary("old"), ...turns(10)])).toBeNull();
    const folded = applyFold(ms, 4, "new").folded;
    expect(isSummaryMessage(folded[0])).toBe(true);
  });

  it("moves the cut later past a chain when moving it earlier would fold nothing", () => {
    const ms = [
      sys,
      summary("old"),
      call("a", "b", "c"),
      result("a"),
      result("b"),
      result("c"),
      say("done"),
      user("more"),
      say("ok"),
    ];
    expect(selectFold(ms, 5)).toEqual({ end: 6 });
    // Past the chain there is nothing left to keep: no fold.
    expect(selectFold([sys, call("a", "b"), result("a"), result("b")], 2)).toBeNull();
  });

  it("matches results to the nearest earlier call when providers reuse ids across replies", () => {
    const ms = [
      sys,
      user("1"),
      call("call_1"),
      result("call_1"),
      say("2"),
      user("3"),
      call("call_1"),
      result("call_1"),
      say("4"),
    ];
    expect(selectFold(ms, 2)).toEqual({ end: 6 });
    expect(shape(applyFold(ms, 6, "s").messages)).toBe("ssata");
  });
});

// ---------------------------------------------------------------- property test over random histories

/** mulberry32: a small seeded PRNG, so a failure names the seed that reproduces it. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A valid history: system prompt, maybe a summary, then turns of a user message followed by
 * steps of assistant calls (1-4 in parallel, results in call order or shuffled, ids unique or
 * reused per reply) and a final answer (sometimes missing, as after a stop).
 */
function randomHistory(rand: () => number, startWithChain = false): ChatMessage[] {
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const text = () => "x".repeat(int(0, 3) === 0 ? int(1_000, 20_000) : int(1, 200));
  const ms: ChatMessage[] = [sys];
  if (rand() < 0.3) ms.push(summary(text()));
  let serial = 0;
  const chain = () => {
    const reuse = rand() < 0.3;
    const ids = Array.from({ length: int(1, 4) }, (_, i) => (reuse ? `call_${i + 1}` : `c${serial++}`));
    ms.push({ ...call(...ids), content: rand() < 0.5 ? null : text() });
    const order = [...ids];
    if (rand() < 0.3) order.sort(() => rand() - 0.5);
    for (const id of order) ms.push(result(id, text()));
  };
  if (startWithChain) chain();
  for (let t = int(0, 8); t > 0; t--) {
    ms.push(
      rand() < 0.1
        ? {
            role: "user",
            content: [
              { type: "text", text: text() },
              { type: "image_url", image_url: { url: "data:," } },
            ],
          }
        : user(text()),
    );
    for (let s = int(0, 4); s > 0; s--) chain();
    if (rand() < 0.8) ms.push(say(text()));
  }
  return ms;
}

/** The structural problems of a history, as strings (empty when it is sound). */
function chainProblems(ms: ChatMessage[]): string[] {
  const problems: string[] = [];
  const owner = new Map<string, number>();
  const answered = new Map<number, Map<string, number>>();
  ms.forEach((m, i) => {
    if (m.role === "assistant")
      for (const c of m.tool_calls ?? []) {
        owner.set(c.id, i);
        answered.set(i, new Map([...(answered.get(i) ?? []), [c.id, 0]]));
      }
    if (m.role === "tool") {
      const a = owner.get(m.tool_call_id);
      if (a === undefined) problems.push(`tool ${i} answers ${m.tool_call_id}, which no earlier assistant called`);
      else answered.get(a)!.set(m.tool_call_id, answered.get(a)!.get(m.tool_call_id)! + 1);
    }
  });
  for (const [a, ids] of answered)
    for (const [id, count] of ids) if (count !== 1) problems.push(`call ${id} at ${a} has ${count} results`);
  return problems;
}

function foldProblems(ms: ChatMessage[], keep: number): string[] {
  const sel = selectFold(ms, keep);
  const n = ms.length;
  if (!sel) {
    const tooFew = n - 1 <= keep || (isSummaryMessage(ms[1]) && n - keep === 2);
    return tooFew ? [] : [`null for ${n} messages`];
  }
  const r = applyFold(ms, sel.end, "the summary");
  const out = r.messages;
  const problems = chainProblems(out);
  if (out[0] !== ms[0]) problems.push("index 0 changed");
  if (!isSummaryMessage(out[1]) || out.filter(isSummaryMessage).length !== 1)
    problems.push("index 1 is not the one summary");
  if (out[2]?.role === "tool") problems.push("kept part starts with a tool message");
  if (JSON.stringify(out.slice(2)) !== JSON.stringify(ms.slice(sel.end)))
    problems.push("kept tail differs from the original tail");
  if (r.kept < Math.min(keep, n - 1)) problems.push(`kept ${r.kept} < ${keep}`);
  if (r.foldedCount + r.kept !== n - 1 || sel.end < 2) problems.push("counts do not add up");
  return problems;
}

describe("selectFold + applyFold over random valid histories", () => {
  it("keeps index 0, one summary at 1, whole tool-call chains and the original tail of at least KEEP_RECENT", () => {
    const failures: string[] = [];
    for (let seed = 1; seed <= 3_000; seed++) {
      const rand = prng(seed);
      const ms = randomHistory(rand);
      expect(chainProblems(ms)).toEqual([]);
      const keep = seed % 3 === 0 ? 1 + Math.floor(rand() * 12) : KEEP_RECENT;
      for (const p of foldProblems(ms, keep)) failures.push(`seed ${seed} keep ${keep}: ${p}`);
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });

  it("never breaks a chain when the history starts with one (a cut may then move later)", () => {
    const failures: string[] = [];
    for (let seed = 1; seed <= 2_000; seed++) {
      const rand = prng(seed * 7919);
      const ms = randomHistory(rand, true);
      const sel = selectFold(ms);
      if (!sel) continue;
      const out = applyFold(ms, sel.end, null).messages;
      const problems = chainProblems(out);
      if (out[2]?.role === "tool") problems.push("kept part starts with a tool message");
      if (out.length < 3) problems.push("nothing kept");
      for (const p of problems) failures.push(`seed ${seed}: ${p}`);
    }
    expect(failures.slice(0, 5)).toEqual([]);
  });
});

// ---------------------------------------------------------------- the summary request

describe("summaryRequest", () => {
  it("asks for goal, decisions, files, commands and next steps, with the focus, and no tools in the text", () => {
    const req = summaryRequest(
      [user("fix the parser"), call("a"), result("a"), say("fixed")],
      "the parser's error messages",
    );
    expect(req.map((m) => m.role)).toEqual(["system", "user"]);
    const [instructions, body] = req.map((m) => m.content as string);
    for (const s of ["Goal", "Decisions", "Files", "Commands", "next steps"]) expect(instructions).toContain(s);
    expect(body).toContain("fix the parser");
    expect(body).toContain("[tool call read_file]");
    expect(body).toContain("[tool result read_file]");
    expect(body).toContain("The user asked to keep this in detail: the parser's error messages");
    expect(summaryRequest([user("x")]).at(-1)!.content).not.toContain("keep this in detail");
  });

  it("caps the transcript, keeping its start and end, and shortens tool results", () => {
    const big = "r".repeat(50_000);
    const folded = [
      user("FIRST TASK"),
      ...Array.from({ length: 40 }, (_, i) => [call(`k${i}`), result(`k${i}`, big)]).flat(),
      say("m".repeat(30_000)),
      user("LAST WORDS"),
    ];
    const body = summaryRequest(folded).at(-1)!.content as string;
    expect(body.length).toBeLessThan(SUMMARY_INPUT_CAP + 500);
    expect(body).toContain("FIRST TASK");
    expect(body).toContain("LAST WORDS");
    expect(body).not.toContain("r".repeat(2_000));
    expect(body).toMatch(/characters left out/);
  });

  it("passes a previous summary whole and apart from the capped transcript", () => {
    const old = summary(`OLD START ${"s".repeat(70_000)} OLD END`);
    const body = summaryRequest([old, user("u".repeat(100_000))]).at(-1)!.content as string;
    expect(body).toContain("<previous-summary>\nOLD START");
    expect(body).toContain("OLD END\n</previous-summary>");
    expect(body).not.toContain(SUMMARY_PREFIX);
  });

  it("cutMiddle never splits a surrogate pair", () => {
    const s = "😀".repeat(100);
    for (let max = 40; max < 120; max++) {
      const out = cutMiddle(s, max);
      expect(out.length).toBeLessThanOrEqual(max + 1);
      expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  });
});

// ---------------------------------------------------------------- compact() with fake clients

const okReply = (content: string): ModelOutcome => ({
  ok: true,
  reply: { content, reasoning: "", toolCalls: [], finishReason: "stop", usage: undefined },
});

function fakeClient(answer: (req: ModelRequest) => Promise<ModelOutcome>): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    requests,
    complete: (req) => {
      requests.push(req);
      return answer(req);
    },
  };
}

const history = [sys, ...Array.from({ length: 14 }, (_, i) => (i % 2 ? say(`answer ${i}`) : user(`question ${i}`)))];

describe("compact", () => {
  it("folds into the model's summary, with the focus in the request", async () => {
    const client = fakeClient(async () => okReply("  The user wants X. Files: a.ts.  "));
    const r = await compact(history, { client, model: "m", focus: "a.ts" });
    expect(r).not.toBeNull();
    expect(client.requests).toHaveLength(1);
    const req = client.requests[0]!;
    expect(req).toMatchObject({ model: "m", tools: [], stream: false, thinking: "off" });
    expect(req.messages.at(-1)!.content).toContain("keep this in detail: a.ts");
    expect(req.messages.at(-1)!.content).toContain("question 0");
    expect(r!.messages[0]).toBe(sys);
    expect(r!.messages[1]).toEqual({ role: "system", content: `${SUMMARY_PREFIX}\nThe user wants X. Files: a.ts.` });
    expect(r!.messages.slice(2)).toEqual(history.slice(-KEEP_RECENT));
    expect(r).toMatchObject({ failed: false, foldedCount: 4, kept: KEEP_RECENT, summaryChars: r!.summary.length });
    expect(r!.error).toBeUndefined();
  });

  it("uses the omission note when the call throws, or fails, or says nothing", async () => {
    const throwing = fakeClient(async () => {
      throw new Error("socket hang up");
    });
    const r = await compact(history, { client: throwing, model: "m" });
    expect(r!.messages[1]).toEqual({ role: "system", content: OMITTED_NOTE });
    expect(r).toMatchObject({ failed: true, summary: OMITTED_NOTE, error: "socket hang up", kept: KEEP_RECENT });
    expect(isSummaryMessage(r!.messages[1])).toBe(true);

    const refused = fakeClient(async () => ({
      ok: false,
      error: { status: 400, message: "context too long", aborted: false, retryAfterMs: undefined },
    }));
    expect(await compact(history, { client: refused, model: "m" })).toMatchObject({
      failed: true,
      error: "400 context too long",
    });
    expect(refused.requests).toHaveLength(1);

    const empty = fakeClient(async () => okReply("  "));
    expect(await compact(history, { client: empty, model: "m" })).toMatchObject({
      failed: true,
      summary: OMITTED_NOTE,
    });
  });

  it("retries a retryable failure before giving up", async () => {
    const flaky = fakeClient(async () => ({
      ok: false,
      error: { status: 503, message: "busy", aborted: false, retryAfterMs: undefined },
    }));
    const r = await compact(history, {
      client: flaky,
      model: "m",
      retry: { maxRetries: 2, baseMs: 1, fallbackModel: undefined },
    });
    expect(flaky.requests).toHaveLength(3);
    expect(r!.failed).toBe(true);
  });

  it("keeps an earlier summary's text when a later summary call fails", async () => {
    const ms = [sys, summary("the user wants a parser"), ...history.slice(1)];
    const r = await compact(ms, { client: fakeClient(async () => okReply("")), model: "m" });
    expect(r!.messages[1]!.content).toBe(`${SUMMARY_PREFIX}\nthe user wants a parser\n\n${OMITTED_NOTE}`);
    expect(isSummaryMessage(r!.messages[1])).toBe(true);
  });

  it("returns null without calling the model when nothing can be folded", async () => {
    const client = fakeClient(async () => okReply("never"));
    expect(await compact(history.slice(0, KEEP_RECENT + 1), { client, model: "m" })).toBeNull();
    expect(client.requests).toHaveLength(0);
  });

  it("rejects when the signal is aborted, before or during the call", async () => {
    const before = new AbortController();
    before.abort();
    const client = fakeClient(async () => okReply("never"));
    await expect(compact(history, { client, model: "m", signal: before.signal })).rejects.toThrow();
    expect(client.requests).toHaveLength(0);

    const during = new AbortController();
    const waiting = fakeClient(
      (req) =>
        new Promise((resolve) => {
          req.signal.addEventListener("abort", () =>
            resolve({
              ok: false,
              error: { status: undefined, message: "aborted", aborted: true, retryAfterMs: undefined },
            }),
          );
        }),
    );
    const pending = compact(history, { client: waiting, model: "m", signal: during.signal });
    setTimeout(() => during.abort(), 5);
    await expect(pending).rejects.toThrow(/abort/i);
    expect(waiting.requests).toHaveLength(1);
  });
});
