import type { NewTodo, Todo, TodoPatch } from "../models/todo.js";

/** Where todos live. The server uses the memory store; tests use it too. */
export interface TodoStore {
  all(): Promise<Todo[]>;
  add(todo: NewTodo): Promise<Todo>;
  update(id: string, patch: TodoPatch): Promise<Todo>;
  remove(id: string): Promise<void>;
}

export class TodoNotFoundError extends Error {
  constructor(readonly id: string) {
    super(`todo ${id} not found`);
  }
}
