// In-page side of bench/opfs-tabs.bench.mjs: one tab's instance of the mirrored OPFS backend
// (built package, dist/), and a probe that notes when a change reaches this tab. Times are
// performance.timeOrigin + performance.now() in milliseconds, comparable between tabs of one browser.
import { OPFS_MIRROR_LOCK_PREFIX, opfsMirrorFileSystem } from "/dist/backends/opfs-mirror/index.browser.js";

const now = () => performance.timeOrigin + performance.now();
const decoder = new TextDecoder();
let fs;
let raw;
/** The change this tab waits for: `{ path, text, seen }`. */
let expected;
/** Raw BroadcastChannel arrivals by sequence number. */
const rawArrivals = new Map();

/** Fill a 4 KiB payload that starts with `text`. */
function payload(text) {
  const bytes = new Uint8Array(4096).fill(0x2e);
  bytes.set(new TextEncoder().encode(text));
  return bytes;
}

async function check() {
  if (expected === undefined || expected.seenAt !== undefined) return;
  const bytes = await fs.readFile(expected.path).catch(() => undefined);
  if (bytes !== undefined && decoder.decode(bytes.subarray(0, expected.text.length)) === expected.text) {
    expected.seenAt = now();
    expected.resolve(expected.seenAt);
  }
}

window.opfsTabsBench = {
  async open(root) {
    fs = opfsMirrorFileSystem({ root });
    await fs.ready();
    // Created after the instance's own channel: BroadcastChannel delivers to a context's channels in
    // creation order, so this one hears a batch after the instance has applied it.
    const probe = new BroadcastChannel(OPFS_MIRROR_LOCK_PREFIX + root);
    probe.onmessage = () => void check();
    raw = new BroadcastChannel("bench-raw-broadcast");
    raw.onmessage = (event) => rawArrivals.set(event.data.sequence, now());
    return fs.role;
  },
  role: () => fs.role,
  /** Wait for `path` to start with `text`; resolves with the time it was first seen. */
  expect(path, text) {
    let resolve;
    const seen = new Promise((done) => (resolve = done));
    expected = { path, text, resolve, seenAt: undefined, seen };
    void check();
  },
  seen: () => expected.seen,
  /** Write one change; resolves with the call's start and end. */
  async write(path, text) {
    const start = now();
    await fs.writeFile(path, payload(text));
    return { start, end: now() };
  },
  /** Post a raw 4 KiB message, the floor of any BroadcastChannel propagation. */
  postRaw(sequence) {
    const start = now();
    raw.postMessage({ sequence, bytes: payload(String(sequence)) });
    return start;
  },
  async rawArrival(sequence) {
    while (!rawArrivals.has(sequence)) await new Promise((resolve) => setTimeout(resolve, 1));
    return rawArrivals.get(sequence);
  },
  async close() {
    await fs.close();
    raw.close();
  },
  async wipe(name) {
    const origin = await navigator.storage.getDirectory();
    await origin.removeEntry(name, { recursive: true }).catch((error) => {
      if (error.name !== "NotFoundError") throw error;
    });
  },
};
window.opfsTabsBenchReady = true;
