import { describe, expect, it } from "vitest";
import { LatestReads } from "./latest-reads";

/** A read that runs until its signal is aborted, then fails with the signal's reason. */
function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason));
  });
}

describe("LatestReads", () => {
  it("stops a key's running read when the same key asks again, with a superseded error", async () => {
    const reads = new LatestReads();
    const first = reads.run("tab 1", untilAborted);
    const other = reads.run("tab 2", untilAborted);
    const second = reads.run("tab 1", async () => "second");
    await expect(first).rejects.toMatchObject({ name: "RpcError", code: "superseded" });
    await expect(second).resolves.toBe("second");
    const third = reads.run("tab 2", async (signal) => signal.aborted);
    await expect(other).rejects.toMatchObject({ code: "superseded" });
    await expect(third).resolves.toBe(false);
  });

  it("leaves a finished read's key free: the next read starts unaborted and stops nothing", async () => {
    const reads = new LatestReads();
    await expect(reads.run("k", async () => 1)).resolves.toBe(1);
    await expect(reads.run("k", () => Promise.reject(new Error("failed")))).rejects.toThrow(
      "failed",
    );
    await expect(reads.run("k", async (signal) => signal.aborted)).resolves.toBe(false);
  });
});
