import type { NewTodo, TodoPatch } from "../models/todo.js";

export const MAX_TITLE_LENGTH = 200;

export function validateNewTodo(body: unknown): NewTodo {
  if (typeof body !== "object" || body === null) throw new Error("body must be an object");
  const { title } = body as { title?: unknown };
  if (typeof title !== "string" || title.trim() === "") throw new Error("title is required");
  // TODO: reject titles longer than MAX_TITLE_LENGTH
  return { title: title.trim() };
}

export function validatePatch(body: unknown): TodoPatch {
  if (typeof body !== "object" || body === null) throw new Error("body must be an object");
  const { title, done } = body as { title?: unknown; done?: unknown };
  const patch: { title?: string; done?: boolean } = {};
  if (title !== undefined) {
    if (typeof title !== "string" || title.trim() === "") throw new Error("title must be a non-empty string");
    patch.title = title.trim();
  }
  if (done !== undefined) {
    if (typeof done !== "boolean") throw new Error("done must be a boolean");
    patch.done = done;
  }
  return patch;
}
