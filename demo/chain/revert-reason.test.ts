import {
  BaseError,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  encodeErrorResult,
  parseAbi,
} from "viem";
import { describe, expect, it } from "vitest";
import { revertReason } from "./revert-reason";

const abi = parseAbi(["function pay()"]);

describe("revertReason", () => {
  it("digs the Error(string) reason out of a wrapped revert", () => {
    const data = encodeErrorResult({
      abi: parseAbi(["error Error(string)"]),
      errorName: "Error",
      args: ["FiatTokenV2_2: authorization expired"],
    });
    const reverted = new ContractFunctionRevertedError({ abi, data, functionName: "pay" });
    const wrapped = new ContractFunctionExecutionError(reverted, { abi, functionName: "pay" });
    expect(revertReason(wrapped)).toBe("FiatTokenV2_2: authorization expired");
  });

  it("is undefined for errors that are not reverts", () => {
    expect(revertReason(new BaseError("fetch failed"))).toBeUndefined();
    expect(revertReason(new Error("plain"))).toBeUndefined();
    expect(revertReason("text")).toBeUndefined();
  });
});
