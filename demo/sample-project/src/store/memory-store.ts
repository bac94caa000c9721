import { newId } from "../lib/id.js";
import type { NewTodo, Todo, TodoPatch } from "../models/todo.js";
import { TodoNotFoundError, type TodoStore } from "./todo-store.js";

// TODO: persist todos to disk between restarts (see docs/architecture.md)
export class MemoryTodoStore implements TodoStore {
  readonly #todos = new Map<string, Todo>();

  async all(): Promise<Todo[]> {
    return [...this.#todos.values()].sort((a, b) => a.createdAt - b.createdAt);
  }

  async add({ title }: NewTodo): Promise<Todo> {
    const todo: Todo = { id: newId(), title, done: false, createdAt: Date.now() };
    this.#todos.set(todo.id, todo);
    return todo;
  }

  async update(id: string, patch: TodoPatch): Promise<Todo> {
    const todo = this.#todos.get(id);
    if (!todo) throw new TodoNotFoundError(id);
    const next = { ...todo, ...patch };
    this.#todos.set(id, next);
    return next;
  }

  async remove(id: string): Promise<void> {
    if (!this.#todos.delete(id)) throw new TodoNotFoundError(id);
  }
}
