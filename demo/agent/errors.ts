import { StipendexError } from "../../lib/errors";

export class AgentBundleError extends StipendexError {
  override name = "AgentBundleError";
  constructor(entry: string) {
    super("agent-bundle-empty", `esbuild produced no output for the agent page script ${entry}`);
  }
}
