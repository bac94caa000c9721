/**
 * Yielding to the event loop without a timer's clamp (nested `setTimeout(0)` waits at least 4 ms).
 *
 * @module
 */

/**
 * Resolves in a task of its own: after the microtasks queued now and the tasks queued before it
 * (a `MessageChannel` message, so no timer clamp applies).
 *
 * @returns a promise that resolves with nothing.
 * @example
 * ```ts
 * for (const chunk of chunks) {
 *   await nextTask(); // what waits (a search on the main thread, a request in the Worker) goes first
 *   replay(chunk);
 * }
 * ```
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}
