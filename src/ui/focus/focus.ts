import type { AreaKeys } from "../controller/host.js";

/**
 * What one focus area does with keys while it has focus. The controller asks, in order: the open
 * dialog, the approval card, the area's `keys`, the global keys, then the area's `typing`.
 */
export type FocusSpec = AreaKeys;
