/**
 * Bounded concurrency: the one helper behind every "at most N backend calls in flight" (list,
 * apply_patch, hashFiles). Slow backends (OPFS) are several times faster with many calls in
 * flight; the bound keeps memory and open handles in check.
 *
 * @module
 */

/**
 * Map `items` through `task` with at most `concurrency` tasks running, results in input order.
 *
 * @param items - the inputs; read once, in order.
 * @param concurrency - most tasks in flight (below 1, or NaN, counts as 1; `Infinity` runs all at once).
 * @param task - called with each item and its index; its promise counts against the bound until it settles.
 * @returns the results, `results[i]` from `items[i]`.
 * @throws the first rejection of a task; no new task starts after it (those already running
 *   finish; to keep going past failures, catch inside `task`).
 * @example
 * ```ts
 * const sizes = await mapConcurrent(paths, 32, async (path) => (await fs.stat(path)).size);
 * ```
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  async function worker(): Promise<void> {
    while (!failed && next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await task(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  }
  const workers = Math.min(concurrency >= 1 ? Math.floor(concurrency) : 1, items.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
