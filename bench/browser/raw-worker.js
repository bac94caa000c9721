// Raw OPFS in a dedicated Worker for bench/opfs.bench.mjs and bench/opfs-mirror.bench.mjs: sync
// access handles opened once and kept open, no library in between (the floor for the Worker
// path). `rmw` and `read` do no flush() per write (an fsync each; handles are flushed when they
// close); `rmw-flush` flushes after every write and `write-flush` writes one file then flushes:
// the durable floors the mirror (flushed before each call returns) is held against.
async function dirAt(path) {
  let handle = await navigator.storage.getDirectory();
  for (const part of path.split("/").filter(Boolean)) handle = await handle.getDirectoryHandle(part);
  return handle;
}

self.onmessage = async (event) => {
  const message = event.data;
  const dir = await dirAt(message.root);
  if (message.op === "rmw" || message.op === "rmw-flush") {
    const flush = message.op === "rmw-flush";
    const handles = [];
    const started = performance.now();
    for (let index = 0; index < message.files; index++) {
      handles.push(await (await dir.getFileHandle(`f${index}.txt`)).createSyncAccessHandle());
    }
    for (let round = 0; round < message.rounds; round++) {
      for (const access of handles) {
        const data = new Uint8Array(access.getSize());
        access.read(data, { at: 0 });
        data[round % data.length] ^= 1;
        access.write(data, { at: 0 });
        access.truncate(data.length);
        if (flush) access.flush();
      }
    }
    const elapsedMs = performance.now() - started;
    for (const access of handles) access.close();
    self.postMessage({ elapsedMs });
    return;
  }
  if (message.op === "write-flush") {
    // `message.bytes` came over by transfer; timed from the open to the end of the flush.
    const started = performance.now();
    const access = await (await dir.getFileHandle(message.name, { create: true })).createSyncAccessHandle();
    access.truncate(0);
    let at = 0;
    while (at < message.bytes.byteLength) at += access.write(message.bytes.subarray(at), { at });
    access.flush();
    access.close();
    self.postMessage({ elapsedMs: performance.now() - started });
    return;
  }
  if (message.op === "read") {
    const started = performance.now();
    const access = await (await dir.getFileHandle(message.name)).createSyncAccessHandle();
    const data = new Uint8Array(access.getSize());
    access.read(data, { at: 0 });
    access.close();
    self.postMessage({ elapsedMs: performance.now() - started, bytes: data.byteLength });
  }
};
