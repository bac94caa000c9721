/**
 * The README's search example (list, glob, grep) as a new user would run it on the OPFS mirror:
 * the same output as on memory, on a fresh root and on the same root after a reload (answered
 * while the load runs).
 */
import { describe, expect, it } from "vitest";
import { createFsTools, resultText } from "better-fs-tools";
import { opfsMirrorFileSystem } from "better-fs-tools/opfs-mirror";
import { wipe } from "../opfs/wipe.js";

const ROOT = "test-opfs-mirror-readme";
const README_OUTPUT = [
  "README.md (11 bytes)",
  "src/",
  "src/a.ts",
  "src/util/b.ts",
  "README.md:1:todo: docs",
  "src/util/b.ts:1:// TODO: b",
  "src/a.ts:1:export const a = 1;",
  "src/util/b.ts:2:export const b = 2;",
];

async function search(fs: Parameters<typeof createFsTools>[0]["fs"]): Promise<string[]> {
  const tools = createFsTools({ fs, cwd: "/w" });
  return [
    resultText(await tools.list.execute({})),
    resultText(await tools.glob.execute({ pattern: "**/*.ts" })),
    resultText(await tools.grep.execute({ pattern: "todo", ignoreCase: true })),
    resultText(await tools.grep.execute({ pattern: "export const (\\w+)", glob: "*.ts" })),
  ].flatMap((block) => block.split("\n"));
}

describe("the README's search example on the OPFS mirror", () => {
  it("prints the README's output on a fresh root, and again after a reload (during the load)", async () => {
    await wipe(ROOT);
    const fs = opfsMirrorFileSystem({ root: `/${ROOT}`, compactMinBytes: 1 });
    const files: Record<string, string> = {
      "/w/src/a.ts": "export const a = 1;\n",
      "/w/src/util/b.ts": "// TODO: b\nexport const b = 2;\n",
      "/w/README.md": "todo: docs\n",
    };
    for (const [path, content] of Object.entries(files)) await fs.writeFile(path, new TextEncoder().encode(content));
    // a few chunks after /w, so the load is still under way while the search runs
    for (let index = 0; index < 3; index++) await fs.writeFile(`/x/${index}.bin`, new Uint8Array(8 << 20));
    const fresh = await search(fs);
    await fs.close();
    const again = opfsMirrorFileSystem({ root: `/${ROOT}` });
    const early = await search(again);
    await again.ready();
    const loaded = await search(again);
    await again.close();
    expect({ fresh, early, loaded }).toEqual({ fresh: README_OUTPUT, early: README_OUTPUT, loaded: README_OUTPUT });
  });
});
