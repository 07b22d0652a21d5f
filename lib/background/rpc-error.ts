import { StipendexError } from "../errors";
import { ErrorCode, type WireError } from "../messages";

/** An error meant for the caller across the message boundary, with its EIP-1193-style number. */
export class RpcError extends StipendexError {
  override name = "RpcError";
  readonly rpcCode: ErrorCode;
  readonly data: unknown;

  constructor(rpcCode: ErrorCode, message: string, data?: unknown) {
    super(`rpc-${rpcCode}`, message);
    this.rpcCode = rpcCode;
    this.data = data;
  }
}

/** Turns anything thrown by a handler into a wire error; unexpected errors keep only their message. */
export function toWireError(error: unknown): WireError {
  if (error instanceof RpcError) {
    return error.data === undefined
      ? { code: error.rpcCode, message: error.message }
      : { code: error.rpcCode, message: error.message, data: error.data };
  }
  if (error instanceof StipendexError) {
    return { code: ErrorCode.Internal, message: error.message, data: { reason: error.code } };
  }
  return {
    code: ErrorCode.Internal,
    message: error instanceof Error ? error.message : "Internal error",
  };
}
