/**
 * Several tabs on one mirror root: the messages they exchange on a `BroadcastChannel` named after
 * the root, and how an error crosses it.
 *
 * One instance per root holds the root's Web Lock and is the writer: it owns the Worker and the
 * journal. Every other instance is a reader: it loads a snapshot of the durable copy from the
 * writer, then applies each batch of journal records the writer broadcasts once they are
 * flushed, and sends its own mutations to the writer, which runs them and answers. Each instance
 * also waits for the lock; when the writer goes away (tab closed, `close()`, its Worker failed)
 * the next instance in the lock's queue takes over as writer from the disk.
 *
 * Positions: a journal position is the generation and the journal's length in bytes after a
 * batch; positions only grow (a compaction starts generation `g + 1` at 0), so a reader applies
 * a batch only when it ends after the position it has.
 *
 * @module
 */
import { FsError, isFsErrorCode, type FsErrorCode } from "../../contract/errors.js";

/** Where the durable copy stands: generation and journal length in bytes. */
export interface JournalPosition {
  readonly generation: number;
  readonly end: number;
}

/** True when `a` lies after `b`. */
export function isAfter(a: JournalPosition, b: JournalPosition): boolean {
  return a.generation > b.generation || (a.generation === b.generation && a.end > b.end);
}

/** True when `a` and `b` are the same position. */
export function samePosition(a: JournalPosition, b: JournalPosition): boolean {
  return a.generation === b.generation && a.end === b.end;
}

/** A mutation a reader sends to the writer (the backend call and its arguments), or a `sync`. */
export type ForwardedCall =
  | { readonly op: "writeFile"; readonly path: string; readonly data: Uint8Array }
  | { readonly op: "mkdir"; readonly path: string; readonly options: { readonly recursive?: boolean } | undefined }
  | {
      readonly op: "rm";
      readonly path: string;
      readonly options: { readonly recursive?: boolean; readonly force?: boolean } | undefined;
    }
  | { readonly op: "rename"; readonly path: string; readonly dest: string }
  /**
   * No change: the writer answers after every batch it has flushed so far, so a reader whose
   * `sync` resolved holds the writer's tree as of that moment (the mirror's `locks` use it).
   */
  | { readonly op: "sync" };

/** An error as it crosses the channel: an `FsError`'s fields and message, or another error's name and message. */
export type WireError =
  | {
      readonly kind: "fs";
      readonly code: FsErrorCode;
      readonly syscall: string;
      readonly path: string | undefined;
      readonly dest: string | undefined;
      readonly message: string;
    }
  | { readonly kind: "other"; readonly name: string; readonly message: string };

/** Messages on the root's channel. `from`/`to`/`writer` are instance ids. */
export type TabMessage =
  /** A writer is loaded and serving at `position` (sent when it starts and when it takes over). */
  | { readonly kind: "writer"; readonly writer: string; readonly position: JournalPosition }
  /** Records flushed to the journal; `position` is where the journal ends after them. */
  | { readonly kind: "batch"; readonly writer: string; readonly position: JournalPosition; readonly bytes: Uint8Array }
  /** The journal was compacted: generation `position.generation` starts, empty. */
  | { readonly kind: "compacted"; readonly writer: string; readonly position: JournalPosition }
  /** A reader asks the writer for the durable copy. */
  | { readonly kind: "snapshot-request"; readonly from: string }
  /** The durable copy at `position`, for reader `to`. */
  | {
      readonly kind: "snapshot";
      readonly to: string;
      readonly writer: string;
      readonly position: JournalPosition;
      readonly segment: Uint8Array | undefined;
      readonly journal: Uint8Array;
    }
  /** A reader's mutation, for writer `to`; `id` is the reader's. */
  | {
      readonly kind: "call";
      readonly from: string;
      readonly to: string;
      readonly id: number;
      readonly call: ForwardedCall;
    }
  /** The writer's answer to call `id` of reader `to`: no error once the change is durable and broadcast. */
  | { readonly kind: "reply"; readonly to: string; readonly id: number; readonly error?: WireError };

/** The channel (and the lock) of a root: the prefix and the root's label. */
export function channelName(prefix: string, label: string): string {
  return prefix + label;
}

/**
 * An error as it crosses the channel.
 *
 * @param error - what the writer's call rejected with.
 * @returns its fields (an `FsError`'s code, syscall, paths and message; else its name and message).
 */
export function toWireError(error: unknown): WireError {
  if (FsError.isInstance(error)) {
    return {
      kind: "fs",
      code: error.code,
      syscall: error.syscall,
      path: error.path,
      dest: error.dest,
      message: error.message,
    };
  }
  if (error instanceof Error) return { kind: "other", name: error.name, message: error.message };
  return { kind: "other", name: "Error", message: String(error) };
}

/**
 * The error a reader rejects with: the writer's error rebuilt from its fields, with the writer's
 * message as it was (detail included).
 *
 * @param wire - from {@link toWireError}.
 * @returns an `FsError` (same code, syscall, path, dest and message), a `TypeError`, or an `Error`.
 */
export function fromWireError(wire: WireError): Error {
  if (wire.kind === "fs" && isFsErrorCode(wire.code)) {
    const error = new FsError(wire.code, {
      syscall: wire.syscall,
      ...(wire.path === undefined ? {} : { path: wire.path }),
      ...(wire.dest === undefined ? {} : { dest: wire.dest }),
    });
    error.message = wire.message;
    return error;
  }
  if (wire.kind === "other" && wire.name === "TypeError") return new TypeError(wire.message);
  return new Error(wire.message);
}
