import { describe, expect, it } from "vitest";
import { PendingLimiter } from "./pending-limit";

/** A task that runs until `finish()`. */
function task() {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { run: () => done, finish: () => finish() };
}

describe("PendingLimiter", () => {
  it("holds perKey requests per key; a request id already in flight joins without a slot", async () => {
    const pending = new PendingLimiter({ perKey: 2, maxKeys: 10, keysPerGroup: 10 });
    const a = task();
    const b = task();
    const running = [pending.run("k", "a", a.run), pending.run("k", "b", b.run)];
    expect(pending.refusal("k", "c")).toBe("key-full");
    expect(pending.refusal("other", "c")).toBeUndefined();
    expect(pending.refusal("k", "a")).toBeUndefined();
    expect(pending.has("k", "a")).toBe(true);
    const joined = pending.run("k", "a", a.run);
    a.finish();
    await Promise.all([running[0], joined]);
    expect(pending.has("k", "a")).toBe(false);
    expect(pending.refusal("k", "c")).toBeUndefined();
    b.finish();
    await running[1];
  });

  it("runs a request id already in flight once: who joins it gets that run's answer", async () => {
    const pending = new PendingLimiter({ perKey: 2, maxKeys: 10, keysPerGroup: 10 });
    const runs: ((answer: string) => void)[] = [];
    const run = () =>
      new Promise<string>((resolve) => {
        runs.push(resolve);
      });
    const first = pending.run("k", "a", run);
    const joined = pending.run("k", "a", run);
    expect(runs).toHaveLength(1);
    for (const [i, finish] of runs.entries()) finish(`run ${i}`);
    expect(await Promise.all([first, joined])).toEqual(["run 0", "run 0"]);
    expect(pending.has("k", "a")).toBe(false);
  });

  it("frees a slot when a request fails, too", async () => {
    const pending = new PendingLimiter({ perKey: 1, maxKeys: 10, keysPerGroup: 10 });
    await expect(
      pending.run("k", "a", () => Promise.reject(new Error("declined"))),
    ).rejects.toThrow();
    expect(pending.refusal("k", "b")).toBeUndefined();
  });

  it("holds requests for at most maxKeys keys, and forgets a key once it has none in flight", async () => {
    const pending = new PendingLimiter({ perKey: 5, maxKeys: 2, keysPerGroup: 2 });
    const t = task();
    const running = [pending.run("a", "1", t.run), pending.run("b", "1", t.run)];
    expect(pending.refusal("c", "1")).toBe("too-many-keys");
    expect(pending.refusal("a", "2")).toBeUndefined();
    t.finish();
    await Promise.all(running);
    expect(pending.refusal("c", "1")).toBeUndefined();
  });

  it("holds requests for at most keysPerGroup keys per group; the other groups keep room", async () => {
    const pending = new PendingLimiter({ perKey: 5, maxKeys: 10, keysPerGroup: 2 });
    const t = task();
    const running = [pending.run("a", "1", t.run, "tab 1"), pending.run("b", "1", t.run, "tab 1")];
    expect(pending.refusal("c", "1", "tab 1")).toBe("group-full");
    expect(pending.refusal("a", "2", "tab 1")).toBeUndefined();
    expect(pending.refusal("c", "1", "tab 2")).toBeUndefined();
    expect(pending.refusal("c", "1")).toBeUndefined();
    t.finish();
    await Promise.all(running);
    expect(pending.refusal("c", "1", "tab 1")).toBeUndefined();
  });
});
