/** A running static server: its base URL (ends with "/") and how to stop it. */
export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}
/** Serves the files under root (absolute) on 127.0.0.1 at a free port. */
export declare function serveStatic(root: string): Promise<StaticServer>;
