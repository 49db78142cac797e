// Short random ids for tasks, requests, turns and temp files. Not secrets: Math.random is enough,
// and node:crypto (OpenSSL bindings) would cost start-up time to load.
const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** `length` random characters from [0-9a-z]. */
export function randomId(length = 8): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(Math.random() * ALPHABET.length)];
  return out;
}
