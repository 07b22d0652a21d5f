import { describe, expect, it } from "vitest";
import { agentPageHtml, BUTTONS } from "./page-html";

describe("agentPageHtml", () => {
  it("has a labelled button and a result element per action, and embeds the config safely", () => {
    const html = agentPageHtml({ mcpJson: "http://127.0.0.1:1/mcp", evil: "</script><b>" });
    for (const [label, testId] of BUTTONS) {
      expect(html).toContain(`>${label}</button>`);
      expect(html).toContain(`data-testid="${testId}"`);
    }
    expect(html).not.toContain("</script><b>");
    expect(html).toContain("\\u003c/script>");
  });
});
