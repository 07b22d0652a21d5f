import { describe, expect, it } from "vitest";
import { parseCliArgs } from "./cli-args";
import { InvalidCliArgumentError } from "./errors";
import { BASE_SEPOLIA } from "./index";

describe("parseCliArgs", () => {
  it("reads port, chain id and payers", () => {
    expect(parseCliArgs(["--port", "8545", "--chain-id", "1337", "--payers", "5"])).toEqual({
      port: 8545,
      chainId: 1337,
      payers: 5,
    });
    expect(parseCliArgs([])).toEqual({ port: undefined, chainId: undefined, payers: undefined });
  });

  it("turns --base-sepolia into the Base Sepolia preset", () => {
    expect(parseCliArgs(["--base-sepolia", "--port", "9000"])).toEqual({
      ...BASE_SEPOLIA,
      port: 9000,
      payers: undefined,
    });
    expect(parseCliArgs(["--base-sepolia", "--chain-id", "84532"]).chainId).toBe(84532);
  });

  it("rejects bad numbers, unknown flags and contradictions, naming the value", () => {
    expect(() => parseCliArgs(["--port", "80x"])).toThrow(InvalidCliArgumentError);
    expect(() => parseCliArgs(["--port", "70000"])).toThrow(
      '--port got "70000": expected an integer from 0 to 65535',
    );
    expect(() => parseCliArgs(["--payers", "8"])).toThrow(/--payers got "8"/);
    expect(() => parseCliArgs(["--chain-id", "0"])).toThrow(/--chain-id got "0"/);
    expect(() => parseCliArgs(["--verbose"])).toThrow(/--verbose[\s\S]*Usage/);
    expect(() => parseCliArgs(["--base-sepolia", "--chain-id", "1"])).toThrow(
      '--chain-id got "1": expected 84532 with --base-sepolia',
    );
  });
});
