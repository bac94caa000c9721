/**
 * Deny rule paths written in ways a real path never is (a trailing `/`, a directory without
 * `/**`, `..`, `//`, `secret**`): each still refuses the files below the directory it names,
 * through `read`, `grep`, bash `cat` and `gate.fs`, and the file keeps its bytes.
 */
import { describe, expect, it } from "vitest";
import { memoryFileSystem } from "../../src/backends/memory/index.js";
import { createFsTools } from "../../src/shell/defaults.js";
import { resultText } from "../../src/tools/kit/result.js";

const SECRET = "TOKEN=DENIED-CONTENT\n";
const RULE_PATHS = ["/w/secret/", "/w/secret", "/w/x/../secret/**", "/w//secret/**", "/w/secret**", "/w/./secret/."];
const refusal = (path: string) =>
  `Permission denied: ${path} matches a deny rule for "readFile" in the permissions config.`;

describe("security: deny rule paths are normalised, and a denied directory is denied whole", () => {
  for (const rulePath of RULE_PATHS) {
    it(`readFile deny ${JSON.stringify(rulePath)}`, async () => {
      const fs = memoryFileSystem({
        files: { "/w/secret/k.txt": SECRET, "/w/secret/deep/d.txt": SECRET, "/w/public.txt": "public\n" },
      });
      const tools = createFsTools({
        fs,
        cwd: "/w",
        state: false,
        permissions: { deny: [{ tool: "readFile", path: rulePath }] },
      });
      const read = await tools.read.execute({ path: "secret/k.txt" });
      expect({ ok: read.ok, text: resultText(read) }).toEqual({ ok: false, text: refusal("/w/secret/k.txt") });
      const deep = await tools.read.execute({ path: "secret/deep/d.txt" });
      expect({ ok: deep.ok, text: resultText(deep) }).toEqual({ ok: false, text: refusal("/w/secret/deep/d.txt") });
      const cat = await tools.bash.execute({ command: "cat secret/k.txt" });
      expect({ exitCode: cat.exitCode, leaked: cat.stdout.includes("DENIED") }).toEqual({ exitCode: 1, leaked: false });
      const grep = await tools.grep.execute({ pattern: "TOKEN" });
      expect(resultText(grep).includes("DENIED")).toBe(false);
      expect(grep.denied).toEqual([
        { path: "/w/secret/deep/d.txt", tool: "readFile" },
        { path: "/w/secret/k.txt", tool: "readFile" },
      ]);
      const publicRead = await tools.read.execute({ path: "public.txt" });
      expect(resultText(publicRead)).toBe("1|public");
      expect(new TextDecoder().decode(await fs.readFile("/w/secret/k.txt"))).toBe(SECRET);
    });
  }
});
