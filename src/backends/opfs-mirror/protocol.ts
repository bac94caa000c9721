/**
 * Messages between the mirrored OPFS backend (main thread) and its Worker: one `MessagePort`
 * per backend, one request at a time in order, replies matched by id.
 *
 * @module
 */
import type { FsErrorCode } from "../../contract/errors.js";

/** The `kind` of the message that hands the Worker a port to serve. */
export const OPFS_MIRROR_CONNECT_KIND = "better-fs-tools/opfs-mirror:connect";

/** Sent on the Worker itself to open a session. */
export interface MirrorConnectMessage {
  readonly kind: typeof OPFS_MIRROR_CONNECT_KIND;
  readonly port: MessagePort;
  /** A path under the origin's OPFS root, or a directory handle. */
  readonly root: string | FileSystemDirectoryHandle;
  /** The session's life lock, held by the Worker while it lives (see `../opfs/worker-life.ts`). */
  readonly lifeLock?: string;
}

/** Requests, served one after the other. */
export type MirrorRequest =
  | { readonly id: number; readonly kind: "open" }
  | { readonly id: number; readonly kind: "journal" }
  | { readonly id: number; readonly kind: "chunk"; readonly at: number }
  | { readonly id: number; readonly kind: "record"; readonly offset: number; readonly bytes: number }
  | { readonly id: number; readonly kind: "release" }
  | { readonly id: number; readonly kind: "truncate"; readonly length: number }
  | {
      readonly id: number;
      readonly kind: "append";
      readonly bytes: Uint8Array;
      /**
       * The bytes are a WRITE_FLUSHED record's head, and this many bytes of its data were sent
       * after it by `stage` requests: they are flushed first, then the head is written and flushed.
       */
      readonly staged?: number;
    }
  /**
   * Part of the data of the WRITE_FLUSHED record whose `append` follows: written (not flushed)
   * `at` bytes past the journal's end.
   */
  | { readonly id: number; readonly kind: "stage"; readonly at: number; readonly bytes: Uint8Array }
  | { readonly id: number; readonly kind: "compact"; readonly bytes: Uint8Array; readonly seal: Uint8Array }
  | { readonly id: number; readonly kind: "read" }
  | { readonly id: number; readonly kind: "close" };

/**
 * What `read` answers: the current generation's segment (if any) and journal contents, the
 * durable copy as it is now, for a reader tab's snapshot (nothing is changed).
 */
export interface MirrorOpened {
  readonly generation: number;
  readonly segment: Uint8Array | undefined;
  readonly journal: Uint8Array;
}

/**
 * What `open` answers: the generation in use and its sealed segment, if any (the journal comes
 * with the next request, `journal`, so the main thread replays the segment while the Worker
 * reads and checks the journal).
 */
export interface MirrorSegment {
  readonly generation: number;
  /** The segment file's size in bytes (0 without one). */
  readonly segmentBytes: number;
  /** The whole segment, when it has no index (written by an earlier version). */
  readonly segment: Uint8Array | undefined;
  /**
   * The segment's INDEX record (checked), when it has one: its other records then come in
   * chunks (`chunk` from offset 0), and single records can be read before (`record`).
   */
  readonly index: Uint8Array | undefined;
}

/**
 * How much of an indexed segment one `chunk` answer carries, at most (more only for one record
 * larger than this), in bytes: 8 MiB, so records reach the main thread while the rest is read.
 */
export const SEGMENT_CHUNK_BYTES = 8 * 1024 * 1024;

/** How much of a WRITE_FLUSHED record's data one `stage` request carries, in bytes: 4 MiB. */
export const STAGE_CHUNK_BYTES = 4 * 1024 * 1024;

/** What `chunk` answers: whole records of the indexed segment, and where the next chunk starts. */
export interface MirrorChunk {
  readonly bytes: Uint8Array;
  /** Where the next chunk starts. */
  readonly next: number;
  /** This chunk ends the segment's records (the Worker has closed the segment). */
  readonly last: boolean;
}

/** What `journal` answers (after `open`): the journal's bytes and how many of them are whole, checked records. */
export interface MirrorJournal {
  readonly journal: Uint8Array;
  readonly checkedBytes: number;
}

/**
 * What `append` and `compact` answer: the journal's length after the call, in bytes; `append`
 * also hands back the bytes it wrote (they come over without a copy and go back the same way).
 */
export interface MirrorAppended {
  readonly journalBytes: number;
  readonly bytes?: Uint8Array;
}

/** An error as it crosses the port. */
export interface MirrorError {
  readonly code: FsErrorCode;
  readonly detail: string;
}

/** A request the Worker refused, as the main thread receives it: the code and the words after it. */
export class MirrorFault extends Error {
  override readonly name = "MirrorFault";
  constructor(
    readonly code: FsErrorCode,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

export type MirrorReply =
  | {
      readonly id: number;
      readonly value: MirrorOpened | MirrorSegment | MirrorJournal | MirrorChunk | MirrorAppended | undefined;
    }
  | { readonly id: number; readonly error: MirrorError };

/** File names in the mirror's directory. */
export function journalName(generation: number): string {
  return `journal-${generation}.log`;
}
export function segmentName(generation: number): string {
  return `segment-${generation}.seg`;
}
/** The generation a file name belongs to, or undefined for a name that is not ours. */
export function generationOf(name: string): { kind: "journal" | "segment"; generation: number } | undefined {
  const match = /^(journal|segment)-(\d+)\.(log|seg)$/.exec(name);
  if (match === null) return undefined;
  return { kind: match[1] as "journal" | "segment", generation: Number(match[2]) };
}
