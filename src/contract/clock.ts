/**
 * The clock the tools read (injectable for tests).
 *
 * @module
 */

/** Milliseconds since the epoch; injectable for tests. */
export type Clock = () => number;

/** The system clock (`Date.now`). */
export const systemClock: Clock = () => Date.now();
