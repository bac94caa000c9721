import { describe, expect, test } from "vitest";
import { mapConcurrent } from "../../src/contract/concurrency.js";

/** A task whose promises the test settles by hand, recording what runs. */
function gatedTasks() {
  const started: number[] = [];
  const release = new Map<number, { resolve: (value: string) => void; reject: (error: Error) => void }>();
  const task = (item: number) =>
    new Promise<string>((resolve, reject) => {
      started.push(item);
      release.set(item, { resolve, reject });
    });
  return { started, release, task };
}

/** Let pending promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("mapConcurrent", () => {
  test("keeps at most `concurrency` tasks running and returns results in input order", async () => {
    const { started, release, task } = gatedTasks();
    const done = mapConcurrent([0, 1, 2, 3, 4], 2, task);
    await settle();
    expect(started).toEqual([0, 1]);
    release.get(1)!.resolve("one");
    await settle();
    expect(started).toEqual([0, 1, 2]);
    release.get(0)!.resolve("zero");
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const item of [4, 3, 2]) {
      release.get(item)?.resolve(String(item));
      await settle();
    }
    release.get(4)!.resolve("4");
    expect(await done).toEqual(["zero", "one", "2", "3", "4"]);
  });

  test("passes the index; an empty list gives []; a bound below 1 runs one at a time", async () => {
    expect(await mapConcurrent(["a", "b"], 8, async (item, index) => `${index}:${item}`)).toEqual(["0:a", "1:b"]);
    expect(await mapConcurrent([], 4, async () => 1)).toEqual([]);
    const { started, release, task } = gatedTasks();
    const done = mapConcurrent([0, 1], 0, task);
    await settle();
    expect(started).toEqual([0]);
    release.get(0)!.resolve("a");
    await settle();
    release.get(1)!.resolve("b");
    expect(await done).toEqual(["a", "b"]);
  });

  test("rejects with the first failure and starts no task after it", async () => {
    const { started, release, task } = gatedTasks();
    const done = mapConcurrent([0, 1, 2, 3], 2, task);
    await settle();
    release.get(0)!.reject(new Error("boom"));
    await expect(done).rejects.toThrow("boom");
    await settle();
    expect(started).toEqual([0, 1]);
  });
});
