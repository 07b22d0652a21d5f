import { describe, expect, it } from "vitest";
import { DEFAULT_PORTS, InvalidPortError, parseStartOptions } from "./start-options";

describe("parseStartOptions", () => {
  it("uses defaults, then env, then flags (both spellings)", () => {
    expect(parseStartOptions([], {}).ports).toEqual(DEFAULT_PORTS);
    const options = parseStartOptions(
      ["--port-agent", "5000", "--port-x402v1=5001", "--no-browser"],
      {
        DEMO_PORT_AGENT: "6000",
        DEMO_PORT_STIPENDEX: "6001",
      },
    );
    expect(options.ports).toMatchObject({ agent: 5000, x402v1: 5001, stipendex: 6001 });
    expect(options.browser).toBe(false);
    expect(options.build).toBe(true);
    expect(parseStartOptions(["--skip-build"], {}).build).toBe(false);
  });
  it("refuses a bad port or an unknown port flag", () => {
    expect(() => parseStartOptions(["--port-agent", "99999"], {})).toThrow(InvalidPortError);
    expect(() => parseStartOptions([], { DEMO_PORT_AGENT: "x" })).toThrow(/DEMO_PORT_AGENT/);
    expect(() => parseStartOptions(["--port-nope=1"], {})).toThrow(InvalidPortError);
  });
});
