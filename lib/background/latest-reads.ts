import { ErrorCode } from "../messages";
import { RpcError } from "./rpc-error";

/**
 * One long read per wallet page at a time. A page that asks again (a new
 * filter, a reload in the same tab) stops its previous read at the read's next
 * piece, instead of leaving it to run to the end for nobody while every write
 * and read after it waits its turn in the worker.
 */
export class LatestReads {
  private readonly running = new Map<string, AbortController>();

  /** Runs `read` as the latest of `key`'s, stopping the one before it. */
  async run<T>(key: string, read: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.running.get(key)?.abort(
      new RpcError(ErrorCode.Internal, "The same page asked for this again; this read stopped", {
        reason: "superseded",
      }),
    );
    const controller = new AbortController();
    this.running.set(key, controller);
    try {
      return await read(controller.signal);
    } finally {
      if (this.running.get(key) === controller) this.running.delete(key);
    }
  }
}
