import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Runs tsc over test/ai-sdk (the type tests in `*.test-d.ts` and the tests themselves). Only errors in the adapter's own
 * files and its type tests count: another module's errors are that module's tests' business.
 */
test("the ai-sdk adapter, its tests and its type tests (test/ai-sdk/*.test-d.ts) compile", async () => {
  const tsc = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));
  const output = await promisify(execFile)(
    process.execPath,
    [tsc, "-p", "test/ai-sdk/tsconfig.json", "--pretty", "false"],
    { cwd: root },
  ).then(
    (result) => result.stdout,
    (error: { stdout?: string; message?: string }) => error.stdout || `tsc did not run: ${error.message}`,
  );
  const lines = output.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("  "));
  // Every line is a tsc diagnostic (so a tsc that failed to start cannot pass this test)...
  expect(lines.filter((line) => !/^\S+\(\d+,\d+\): error TS\d+:/.test(line))).toStrictEqual([]);
  // ...and none is in the adapter's files or its type tests.
  expect(lines.filter((line) => /^(src|test)\/ai-sdk\//.test(line))).toStrictEqual([]);
});
