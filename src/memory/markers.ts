// The markers of the per-turn memory block and the kinds of memory, alone so that code which only
// needs them (the loop, checkpoints, the UI) does not load the memory store, tools and schemas.

export const memoryKinds = ["lesson", "preference", "correction", "fact"] as const;
export type MemoryKind = (typeof memoryKinds)[number];

/**
 * Contract: the first and last lines of every non-empty memoryBlock; nothing inside the block
 * can contain them, so the engine can find the previous turn's block and replace it.
 */
export const MEMORY_BLOCK_START = "<memories>";
export const MEMORY_BLOCK_END = "</memories>";
