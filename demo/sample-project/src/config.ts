export interface Config {
  /** TCP port the server listens on. */
  readonly port: number;
  /** Largest request body accepted, in bytes. */
  readonly maxBodyBytes: number;
}

export const DEFAULT_PORT = 3000;
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export function loadConfig(env: Record<string, string | undefined>): Config {
  const port = Number(env.PORT ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port <= 0) {
    throw new Error(`PORT must be a positive integer, got ${env.PORT}`);
  }
  return { port, maxBodyBytes: DEFAULT_MAX_BODY_BYTES };
}
