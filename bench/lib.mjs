// Shared by the bench files: the median, and side-by-side timing of contenders.

/** The median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Time each contender `iterations` times per round, back to back, for `rounds` rounds after
 * `warmup` rounds, alternating their order each round (so garbage one leaves is not always
 * collected in the other's time). Returns the median time per call of each, in milliseconds,
 * and `ratio(a, b)`: the median over rounds of a's time ÷ b's time in the same round (robust
 * to load that drifts between rounds).
 */
export async function compare(contenders, { rounds, iterations, warmup }) {
  const entries = Object.entries(contenders);
  const times = Object.fromEntries(entries.map(([name]) => [name, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    for (const [name, run] of round % 2 === 0 ? entries : [...entries].reverse()) {
      const started = performance.now();
      for (let i = 0; i < iterations; i++) await run(i);
      if (round >= warmup) times[name].push((performance.now() - started) / iterations);
    }
  }
  const result = Object.fromEntries(Object.entries(times).map(([name, list]) => [name, median(list)]));
  result.ratio = (a, b) => median(times[a].map((value, i) => value / times[b][i]));
  return result;
}
