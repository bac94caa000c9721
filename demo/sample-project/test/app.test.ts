import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { MemoryTodoStore } from "../src/store/memory-store.js";

const server = createServer(createApp({ store: new MemoryTodoStore() }));
let base = "";

beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("app", () => {
  it("creates then lists a todo", async () => {
    const created = await fetch(`${base}/todos`, { method: "POST", body: JSON.stringify({ title: "Buy milk" }) });
    expect(created.status).toBe(201);
    const list = (await (await fetch(`${base}/todos`)).json()) as Array<{ title: string }>;
    expect(list.map((todo) => todo.title)).toEqual(["Buy milk"]);
  });
  it("answers 404 for an unknown route", async () => {
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });
});
