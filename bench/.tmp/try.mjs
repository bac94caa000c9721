const m = await import("/work/h-grep/dist/index.js");
for (const f of [() => m.createFsTools({ fs: "/tmp" }), () => m.createReadTool({ fs: "/tmp" }), () => m.createFsTools({ fs: "/tmp", cwd: "/tmp" })]) {
  try { f(); console.log("no throw"); } catch (e) { console.log(e.constructor.name, e.message); }
}
const o = await import("/work/h-grep/dist/backends/opfs/index.js");
try { const fs = o.opfsFileSystem(); console.log("created", typeof fs); await fs.readFile("/x"); } catch (e) { console.log(e.constructor.name, e.message); }
const mi = await import("/work/h-grep/dist/backends/opfs-mirror/index.js");
try { const fs = mi.opfsMirrorFileSystem?.() ; console.log("created", typeof fs); await fs.readFile("/x"); } catch (e) { console.log(e.constructor.name, e.message); }
try { const t = m.createBashTool({ fs: (await import("/work/h-grep/dist/backends/memory/index.js")).memoryFileSystem() }); console.log(Object.keys(t)); } catch (e) { console.log(e.constructor.name, e.message); }
