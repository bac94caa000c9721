import { describe, expect, it } from "vitest";
import { MemoryTodoStore } from "../src/store/memory-store.js";
import { TodoNotFoundError } from "../src/store/todo-store.js";

describe("MemoryTodoStore", () => {
  it("adds and lists todos in creation order", async () => {
    const store = new MemoryTodoStore();
    await store.add({ title: "one" });
    await store.add({ title: "two" });
    expect((await store.all()).map((todo) => todo.title)).toEqual(["one", "two"]);
  });
  it("updates a todo", async () => {
    const store = new MemoryTodoStore();
    const todo = await store.add({ title: "one" });
    expect((await store.update(todo.id, { done: true })).done).toBe(true);
  });
  it("throws for an unknown id", async () => {
    await expect(new MemoryTodoStore().remove("nope")).rejects.toBeInstanceOf(TodoNotFoundError);
  });
});
