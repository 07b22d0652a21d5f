/** Buttons of the console: label (accessible name), result test id, what it does. */
export const BUTTONS = [
  ["List tools", "result-tools"],
  ["Search (Stipendex)", "result-stipendex-http"],
  ["Search (x402 v1)", "result-x402-v1"],
  ["Search (x402 v2)", "result-x402-v2"],
  ["Call web_search (JSON)", "result-mcp-json"],
  ["Call web_search (SSE)", "result-mcp-sse"],
  ["Call web_search (SSE, the server closes the stream; the client resumes it)", "result-mcp-poll"],
  ["Call x402 tool", "result-mcp-x402"],
  ["Call confirmed tool", "result-mcp-confirmed"],
  ["Call confirmed tool (client without elicitation)", "result-mcp-confirmed-plain"],
  ["Call confirmed tool (JSON, asks on the session stream)", "result-mcp-confirmed-json"],
  ["Call confirmed tool (server waits 4 s for the confirmation)", "result-mcp-confirmed-impatient"],
  ["Call deep_research (L2)", "result-mcp-l2"],
  ["Call free tool", "result-mcp-free"],
  ["Call surge-priced tool (SSE)", "result-mcp-surge"],
  ["Call verify_agent (HTTP 402, seed 004)", "result-mcp-402"],
] as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The agent console page; `config` is embedded as JSON the script reads. */
export function agentPageHtml(config: Record<string, string>): string {
  const rows = BUTTONS.map(
    ([label, testId]) => `
    <section aria-labelledby="${testId}-label">
      <button type="button" data-testid="button-${testId.slice("result-".length)}" data-result="${testId}">${escapeHtml(label)}</button>
      <pre id="${testId}-label" role="status" aria-label="${escapeHtml(label)} result" data-testid="${testId}" data-state="idle"></pre>
    </section>`,
  ).join("");
  // "<" is escaped so no value can close the script element.
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Stipendex demo agent</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 2rem; max-width: 60rem; }
  section { border-top: 1px solid #ddd; padding: .5rem 0; }
  pre { background: #f6f6f6; padding: .5rem; white-space: pre-wrap; word-break: break-all; max-height: 20rem; overflow: auto; }
  pre:empty { display: none; }
</style>
<script type="application/json" id="agent-config">${json}</script>
</head>
<body>
<h1>Demo agent console</h1>
<p>Calls paid HTTP APIs with plain <code>fetch</code> and a paid MCP server with the official MCP client.
Without the wallet you see the raw 402 / -32402 answers; with the wallet the calls are paid.</p>
<pre data-testid="result-elicitation" aria-label="Elicitation"></pre>
${rows}
<script type="module" src="/agent.js"></script>
</body>
</html>`;
}
