// @vitest-environment happy-dom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Sentence } from "./controls";

afterEach(cleanup);

describe("Sentence", () => {
  it("puts each element where the translation places its $n, in the translation's order", () => {
    const { container } = render(
      <Sentence
        text="sur $2, l'outil $1 ($1)"
        parts={[<b key="tool">search</b>, <i key="server">mcp.example</i>]}
      />,
    );
    expect(container.innerHTML).toBe(
      "sur <i>mcp.example</i>, l'outil <b>search</b> (<b>search</b>)",
    );
  });
});
