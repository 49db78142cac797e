// The "always" rules of one task: what the user allowed from now on, and --allow. Apart from the
// policy, so a front end can hold them without loading the classifier (the gate loads it with
// the first call that needs it).

/** Rules the user accepted with "always" for one task. */
export interface Remembered {
  /** Exact command texts. */
  commands: Set<string>;
  /** Command prefixes, matched word by word against each part of a command (`npm run test`). */
  prefixes: Set<string>;
  allEdits: boolean;
  /** MCP tools (by their full name) allowed for the rest of the task. */
  tools: Set<string>;
  /** Commands that ask for the network (`network: true`) get it for the rest of the task. Default false. */
  network?: boolean;
}

export const newRemembered = (): Remembered => ({
  commands: new Set(),
  prefixes: new Set(),
  allEdits: false,
  tools: new Set(),
});
