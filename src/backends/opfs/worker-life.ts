/**
 * Knowing when a Worker has ended: a Worker that is terminated (by its owner, or by the browser)
 * fires no `error` event and its message ports say nothing, so calls sent to it would wait
 * forever. Each session's Worker holds a Web Lock of the session's own name for as long as it
 * lives; the page asks for the same lock once the Worker holds it (after the first reply), and is
 * granted it only when the Worker has ended. Used by the OPFS backend's Worker and the mirror's.
 */

/** The Web Lock name prefix of a session's life lock. */
export const WORKER_LIFE_LOCK_PREFIX = "better-fs-tools:worker-life:";

/** A fresh life-lock name for one session, or `undefined` where Web Locks do not exist. */
export function workerLifeLockName(): string | undefined {
  if (typeof navigator === "undefined" || navigator.locks === undefined) return undefined;
  return `${WORKER_LIFE_LOCK_PREFIX}${crypto.randomUUID()}`;
}

/**
 * Worker side: take the life lock `name` and keep it while this Worker lives, then `serve`
 * (so any reply the page receives comes after the lock is held). Without a name (no Web Locks),
 * serve at once.
 */
export function holdWorkerLife(name: string | undefined, serve: () => void): void {
  if (name === undefined || typeof navigator === "undefined" || navigator.locks === undefined) {
    serve();
    return;
  }
  void navigator.locks.request(name, () => {
    serve();
    return new Promise<void>(() => undefined);
  });
}

/**
 * Page side: once `port` has received its first message (the Worker holds the lock by then), ask
 * for the life lock `name`; `onEnded` runs when it is granted, that is when the Worker has ended.
 *
 * @returns a function that stops watching (call it when the session closes normally).
 */
export function watchWorkerLife(name: string | undefined, port: MessagePort, onEnded: () => void): () => void {
  if (name === undefined) return () => undefined;
  const stop = new AbortController();
  const start = () => {
    port.removeEventListener("message", start);
    if (stop.signal.aborted) return;
    navigator.locks
      .request(name, { signal: stop.signal }, () => {
        if (!stop.signal.aborted) onEnded();
      })
      .catch(() => undefined);
  };
  port.addEventListener("message", start);
  return () => {
    port.removeEventListener("message", start);
    stop.abort();
  };
}
