// The stdin Ink is given: a terminal-like stream that never yields input. The real stdin has one
// reader (app/input.ts); were Ink given it too, the first `useInput` (an ink-text-input field)
// would switch it to Ink's own reading and every key would arrive twice. Fields get their keys
// from the controller instead (input/field-router.ts).
import { EventEmitter } from "node:events";

export function inertStdin(): NodeJS.ReadStream {
  const stream = Object.assign(new EventEmitter(), {
    isTTY: true,
    setRawMode: () => stream,
    setEncoding: () => stream,
    resume: () => stream,
    pause: () => stream,
    ref: () => stream,
    unref: () => stream,
    read: () => null,
  });
  return stream as unknown as NodeJS.ReadStream;
}
