// How front ends say a model retry (model.retrying) in words, so the transcript, the one-shot
// printer's stderr and any other front end say it alike: which attempt comes, of how many, and when.

/** The facts of a retry the sentence needs (model.retrying's fields). */
export interface RetryFacts {
  /** The retry about to be made: 1 is the first retry, so the request's second attempt. */
  attempt: number;
  /** How many times the request is sent in all (the first try and its retries), when known. */
  attempts?: number | undefined;
  delayMs: number;
  error: string;
}

/** "retrying, attempt 2 of 3 in 1.0 s: 503 overloaded". */
export const retryText = (r: RetryFacts): string =>
  `retrying, attempt ${r.attempt + 1}${r.attempts ? ` of ${r.attempts}` : ""} in ${(r.delayMs / 1000).toFixed(1)} s: ${r.error}`;
