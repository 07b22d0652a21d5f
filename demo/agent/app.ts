import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import express, { type Express } from "express";
import { AgentBundleError } from "./errors";
import { agentPageHtml } from "./page-html";

const PAGE_SCRIPT = fileURLToPath(new URL("./page.ts", import.meta.url));

/** Bundles the page script (MCP SDK client included) for the browser, in memory. */
export async function bundleAgentScript(): Promise<string> {
  const result = await build({
    entryPoints: [PAGE_SCRIPT],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (!output) throw new AgentBundleError(PAGE_SCRIPT);
  return output.text;
}

/** The agent page on its own origin: HTML with the endpoints, and the bundled script. */
export async function agentApp(config: Record<string, string>): Promise<Express> {
  const script = await bundleAgentScript();
  const app = express();
  app.get("/", (_req, res) => {
    res.type("html").send(agentPageHtml(config));
  });
  app.get("/agent.js", (_req, res) => {
    res.type("application/javascript").send(script);
  });
  return app;
}
