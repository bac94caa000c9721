// Run by chromium.test.ts in a child process whose PATH has no Chromium and no CHROMIUM_PATH:
// resolves the browser, launches it, writes and reads a file in OPFS on a page served from
// 127.0.0.1, and prints what it saw as one line of JSON.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium, resolveChromium } from "../../scripts/chromium.mjs";
import { serveStatic } from "../../scripts/static-server.mjs";

const site = await mkdtemp(join(tmpdir(), "bft-chromium-fallback-"));
await writeFile(join(site, "index.html"), "<!doctype html><meta charset=utf-8><title>fallback</title>");
const { url, close } = await serveStatic(site);
const { source, executablePath } = await resolveChromium();
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(url);
  const opfs = await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const directory = await root.getDirectoryHandle("docs", { create: true });
    const handle = await directory.getFileHandle("note.txt", { create: true });
    const writable = await handle.createWritable();
    await writable.write("written in OPFS");
    await writable.close();
    const file = await (await root.getDirectoryHandle("docs")).getFileHandle("note.txt");
    const names = [];
    for await (const name of root.keys()) names.push(name);
    return { text: await (await file.getFile()).text(), size: (await file.getFile()).size, names };
  });
  process.stdout.write(
    `${JSON.stringify({ source, executablePath, secure: await page.evaluate(() => isSecureContext), opfs })}\n`,
  );
} finally {
  await browser.close();
  await close();
  await rm(site, { recursive: true, force: true });
}
