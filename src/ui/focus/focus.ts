import type { Controller } from "../controller/controller.js";
import type { InputEvent } from "../input/keys.js";

/**
 * What one focus area does with keys while it has focus. The controller asks, in order: the open
 * dialog, the approval card, the area's `keys`, the global keys, then the area's `typing`.
 */
export interface FocusSpec {
  /** The area's own keys, before the global ones; true when it used the key. */
  keys(ctl: Controller, event: InputEvent): boolean;
  /** What the global keys left: typing into the composer (only the areas that type there). */
  typing?(ctl: Controller, event: InputEvent): void;
}
