// The ACP front end's expected failures, each answered with its own JSON-RPC error (run.ts): kept
// apart so the protocol layer knows them without loading the engine.

/** No such session (on this connection, or in the session folder). */
export class UnknownSessionError extends Error {
  constructor(readonly sessionId: string) {
    super(`no session ${sessionId}`);
  }
}

/** The provider key is missing: nothing can be sent (the message says how to set it). */
export class AuthRequiredError extends Error {}

/** A request the session refuses as it stands (a prompt while one runs). */
export class SessionStateError extends Error {}

/** A turn that ended in an error: the prompt request fails with its message. */
export class TurnError extends Error {}

/** A prompt the turn cannot take (audio, binary resources, unknown image types). */
export class PromptContentError extends Error {}
