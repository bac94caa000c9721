/**
 * Port of upstream `startup-validation.test.ts` (already over stdio there): the command line's
 * directories are checked at start. Left out: the malformed JSON-RPC test, which pins a
 * transport error line the pinned 2026.8.31 does not print.
 */
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir, runServer } from "./harness.js";

let testDir: string;
let accessibleDir: string;
let accessibleDir2: string;

beforeEach(async () => {
  testDir = await makeTempDir("fs-startup-test-");
  accessibleDir = path.join(testDir, "accessible");
  accessibleDir2 = path.join(testDir, "accessible2");
  await fs.mkdir(accessibleDir, { recursive: true });
  await fs.mkdir(accessibleDir2, { recursive: true });
});

afterEach(async () => {
  await fs.rm(testDir, { recursive: true, force: true });
});

describe("Startup Directory Validation", () => {
  it("should start successfully with all accessible directories", async () => {
    const result = await runServer([accessibleDir, accessibleDir2]);
    expect(result.stderr).toContain("Secure MCP Filesystem Server running on stdio");
    expect(result.stderr).not.toContain("Error:");
  });

  it("should skip inaccessible directory and continue with accessible one", async () => {
    const nonExistentDir = path.join(testDir, "non-existent-dir-12345");
    const result = await runServer([nonExistentDir, accessibleDir]);
    expect(result.stderr).toContain(`Warning: Cannot access directory ${nonExistentDir}, skipping`);
    expect(result.stderr).toContain("Secure MCP Filesystem Server running on stdio");
  });

  it("should exit with error when ALL directories are inaccessible", async () => {
    const result = await runServer([path.join(testDir, "non-existent-1"), path.join(testDir, "non-existent-2")]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("Error: None of the specified directories are accessible");
  });

  it("should warn when path is not a directory", async () => {
    const filePath = path.join(testDir, "not-a-directory.txt");
    await fs.writeFile(filePath, "content");
    const result = await runServer([filePath, accessibleDir]);
    expect(result.stderr).toContain(`Warning: ${filePath} is not a directory, skipping`);
    expect(result.stderr).toContain("Secure MCP Filesystem Server running on stdio");
  });

  it("should start without directories and wait for the client's roots", async () => {
    const result = await runServer([]);
    expect(result.stderr).toContain(
      "Started without allowed directories - waiting for client to provide roots via MCP protocol",
    );
  });
});
