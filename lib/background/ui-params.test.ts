import { describe, expect, it } from "vitest";
import { ErrorCode } from "../messages";
import { defaultPolicy } from "./policy-store";
import { RpcError } from "./rpc-error";
import { parseUiParams } from "./ui-params";

describe("parseUiParams", () => {
  it("passes what the wallet's pages send, dropping what a method takes nothing of", () => {
    expect(parseUiParams("ui_unlock", { password: "pw" })).toEqual({ password: "pw" });
    expect(parseUiParams("ui_status", { anything: 1 })).toBeUndefined();
    expect(
      parseUiParams("ui_listPayments", { filter: { state: "signed" }, offset: 0, limit: 200 }),
    ).toEqual({ filter: { state: "signed" }, offset: 0, limit: 200 });
    expect(parseUiParams("ui_setPolicy", defaultPolicy())).toEqual(defaultPolicy());
  });

  it.each([
    ["ui_decide", { approvalId: "a", decision: "maybe" }, "decision"],
    [
      "ui_decide",
      { approvalId: "a", decision: "approve", alwaysAllowPerDay: "1.5" },
      "alwaysAllowPerDay",
    ],
    ["ui_listPayments", { filter: {}, offset: -1, limit: 10 }, "offset"],
    ["ui_listPayments", { filter: { state: "stolen" }, offset: 0, limit: 10 }, "filter.state"],
    ["ui_deleteHistory", { confirm: "yes" }, "confirm"],
    ["ui_unlock", undefined, "params"],
  ] as const)("refuses %s %j, naming %s", (method, params, field) => {
    let thrown: unknown;
    try {
      parseUiParams(method, params);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RpcError);
    expect((thrown as RpcError).rpcCode).toBe(ErrorCode.InvalidParams);
    expect((thrown as RpcError).message).toMatch(
      new RegExp(`^Invalid ${method} params: ${field}:`),
    );
  });
});
