import { StipendexError } from "../lib/errors";
import type { DemoPorts } from "./server";

export class InvalidPortError extends StipendexError {
  override name = "InvalidPortError";
  constructor(source: string, value: string) {
    super("invalid-port", `${source} must be a port number 0–65535, got ${JSON.stringify(value)}`);
  }
}

/** Default ports of `npm start`, so printed URLs stay the same from run to run. */
export const DEFAULT_PORTS: Required<DemoPorts> = {
  stipendex: 4021,
  x402v1: 4022,
  x402v2: 4023,
  facilitator: 4024,
  agent: 4020,
  chain: 4025,
};

const ENV_NAMES: Record<keyof DemoPorts, string> = {
  stipendex: "DEMO_PORT_STIPENDEX",
  x402v1: "DEMO_PORT_X402V1",
  x402v2: "DEMO_PORT_X402V2",
  facilitator: "DEMO_PORT_FACILITATOR",
  agent: "DEMO_PORT_AGENT",
  chain: "DEMO_PORT_CHAIN",
};

function port(source: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65_535) throw new InvalidPortError(source, value);
  return n;
}

/**
 * Ports from flags (`--port-agent 5000` or `--port-agent=5000`), then environment
 * (`DEMO_PORT_AGENT`), then DEFAULT_PORTS. Also `--no-browser` and `--skip-build`.
 */
export function parseStartOptions(
  argv: readonly string[],
  env: Record<string, string | undefined>,
) {
  const ports: Required<DemoPorts> = { ...DEFAULT_PORTS };
  for (const key of Object.keys(ENV_NAMES) as (keyof DemoPorts)[]) {
    const fromEnv = env[ENV_NAMES[key]];
    if (fromEnv !== undefined) ports[key] = port(ENV_NAMES[key], fromEnv);
  }
  let browser = true;
  let build = true;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--no-browser") browser = false;
    else if (arg === "--skip-build") build = false;
    else if (arg.startsWith("--port-")) {
      const [flag = "", inline] = arg.split("=", 2);
      const key = flag.slice("--port-".length) as keyof DemoPorts;
      if (!(key in ports)) throw new InvalidPortError(flag, "(unknown flag)");
      const value = inline ?? argv[++i] ?? "";
      ports[key] = port(flag, value);
    }
  }
  return { ports, browser, build };
}
