// Runs before each test file (vitest `setupFiles`): the temp folders the file makes with
// tempDir (tests/helpers/cli.ts) are removed when it ends, after its own afterAll hooks (vitest
// runs after-hooks in reverse order of registration, and these are registered first). Tests
// used to leave every home, workspace and session folder behind: tens of thousands in /tmp.
import { afterAll } from "vitest";
import { removeTempDirs } from "./helpers/cli.js";

afterAll(() => removeTempDirs());
