// The OpenAI Responses API through the openai SDK: stateless (`store: false`), with the model's
// encrypted reasoning carried from step to step in the history's reasoning items.
// Contract: `complete` never throws; failures come back as values the retry loop can judge.
import type OpenAI from "openai";
import type { ClientOptions, ModelClient, ModelOutcome, ModelRequest, StreamHandlers } from "../model-client.js";
import { capWholeReply, REPLY_CAPS } from "../reply-caps.js";
import type { RequestWatchdog } from "../watchdog.js";
import {
  abortedOutcome,
  connectionReturned,
  errorMessage,
  expiredOutcome,
  failure,
  failureOf,
  loadSdk,
  parseJsonObject,
  readWhole,
  sdkLoader,
  tailGuard,
  watchdogFor,
} from "./openai-sdk.js";
import { ResponsesAssembler, type WireEvent, type WireResponse } from "./responses-reply.js";
import { responsesInput, responsesTools } from "./responses-input.js";

type ResponsesBody = Omit<OpenAI.Responses.ResponseCreateParamsStreaming, "stream">;

/** The request body, streamed or not. */
export function responsesBody(request: ModelRequest): ResponsesBody {
  const { instructions, input } = responsesInput(request.messages);
  return {
    model: request.model,
    ...(instructions !== undefined ? { instructions } : {}),
    // Our item shapes are the wire's (responses-input.ts); the SDK's union wants ids we do not keep.
    input: input as OpenAI.Responses.ResponseInput,
    ...(request.tools.length > 0 ? { tools: responsesTools(request.tools) } : {}),
    // No server-side state: the encrypted reasoning comes back to us and goes out with the next step.
    store: false,
    include: ["reasoning.encrypted_content"],
    ...(request.thinking !== "off" ? { reasoning: { effort: request.thinking, summary: "auto" } } : {}),
  };
}

export class OpenAIResponsesClient implements ModelClient {
  private readonly sdk: () => Promise<OpenAI>;

  constructor(private readonly options: ClientOptions) {
    this.sdk = sdkLoader(options);
  }

  async complete(request: ModelRequest, handlers: StreamHandlers): Promise<ModelOutcome> {
    const body = responsesBody(request);
    // Loading the SDK (the first request only) is not the model's time: the clock starts after it.
    const sdk = await loadSdk(this.sdk);
    if ("ok" in sdk) return sdk;
    const watch = watchdogFor(this.options, request.signal, handlers);
    const reply = new ResponsesAssembler({ ...REPLY_CAPS, ...this.options.caps }, handlers, () => watch.activity());
    try {
      const outcome = request.stream
        ? await this.streamed(sdk, body, watch, reply)
        : await this.whole(sdk, body, watch, reply);
      return expiredOutcome(watch, request.signal) ?? outcome;
    } catch (error) {
      return failureOf(error, watch, request.signal);
    } finally {
      watch.dispose();
    }
  }

  private async whole(
    sdk: OpenAI,
    body: ResponsesBody,
    watch: RequestWatchdog,
    reply: ResponsesAssembler,
  ): Promise<ModelOutcome> {
    const response = await sdk.responses.create({ ...body, stream: false }, { signal: watch.signal }).asResponse();
    const text = await readWhole(response, watch);
    if (typeof text !== "string") return text;
    const data = parseJsonObject(text);
    if (!data) return failure(`the reply was not valid JSON: ${errorMessage(text).slice(0, 120)}`);
    if (data.object !== "response") return failure(`the reply was not a response: ${errorMessage(text).slice(0, 120)}`);
    reply.whole(data as WireResponse);
    return this.settled(reply, () => capWholeReply(reply.reply(), { ...REPLY_CAPS, ...this.options.caps }));
  }

  private async streamed(
    sdk: OpenAI,
    body: ResponsesBody,
    watch: RequestWatchdog,
    reply: ResponsesAssembler,
  ): Promise<ModelOutcome> {
    const stream = await sdk.responses.create({ ...body, stream: true }, { signal: watch.signal });
    let events = 0;
    // The server ends the body after the final event; one that does not is cut a second later.
    const tail = tailGuard(() => stream.controller.abort());
    try {
      // Leaving the loop early (a cap, a failure) aborts the response: the rest is never read.
      for await (const event of stream) {
        events++;
        reply.event(event as WireEvent);
        if (reply.cut || (reply.ending && !reply.ending.done)) break;
        if (reply.ending) tail.arm();
      }
    } finally {
      tail.dispose();
    }
    await connectionReturned();
    if (reply.cut && !watch.signal.aborted) return { ok: true, reply: reply.reply() };
    // The SDK ends its iteration quietly on an abort: a watchdog limit or a stop, judged by the caller.
    if (watch.signal.aborted) return abortedOutcome();
    if (events === 0) return failure("the stream ended without any data");
    return this.settled(reply, () => reply.reply());
  }

  private settled(reply: ResponsesAssembler, take: () => ReturnType<ResponsesAssembler["reply"]>): ModelOutcome {
    const ending = reply.ending;
    if (ending && !ending.done) return failure(ending.failed);
    // A dropped connection can end the body cleanly; a reply without its final event is incomplete.
    if (!ending && !reply.cut) return failure("the stream ended before the reply was complete (no response.completed)");
    return { ok: true, reply: take() };
  }
}
