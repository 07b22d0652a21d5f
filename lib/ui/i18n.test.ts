import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { builtManifest } from "@/tests/unit-support/manifest";
import { loadLocaleMessages } from "@/tests/unit-support/ui/locale-messages";

/** Attributes a person reads (or hears from a screen reader). */
const READ_ATTRIBUTES = new Set(["aria-label", "title", "placeholder", "alt"]);

/**
 * Text that may stay in the code because it is not a word in any language:
 * separators and marks a translation keeps as they are.
 */
const NOT_WORDS = new Set<string>([
  // The private-key field's placeholder: the hex prefix every key starts with.
  "0x…",
]);

const HAS_LETTER = /\p{L}/u;

function sourceFiles(dir: string, ending: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(ending) && !file.endsWith(`.test${ending}`))
    .map((file) => join(dir, file));
}

/**
 * The written text an expression can put on screen: a string literal, a
 * template's static parts, and so either branch of `a ? "x" : "y"`, `a ?? "x"`, `a && "x"`.
 */
function writtenText(node: ts.Expression): string[] {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isTemplateExpression(node))
    return [[node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(" ")];
  if (ts.isParenthesizedExpression(node)) return writtenText(node.expression);
  if (ts.isConditionalExpression(node))
    return [...writtenText(node.whenTrue), ...writtenText(node.whenFalse)];
  if (ts.isBinaryExpression(node)) {
    const operator = node.operatorToken.kind;
    if (operator === ts.SyntaxKind.AmpersandAmpersandToken) return writtenText(node.right);
    if (operator === ts.SyntaxKind.QuestionQuestionToken || operator === ts.SyntaxKind.BarBarToken)
      return [...writtenText(node.left), ...writtenText(node.right)];
  }
  return [];
}

function isWords(text: string): boolean {
  const trimmed = text.trim();
  return HAS_LETTER.test(trimmed) && !NOT_WORDS.has(trimmed);
}

/** Every piece of text in a .tsx file that reaches the screen without t(), as "file:line: text". */
function untranslatedText(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const found: string[] = [];
  const report = (node: ts.Node, text: string) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push(`${file}:${line}: ${text.trim()}`);
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && isWords(node.text)) report(node, node.text);
    const parent = node.parent;
    if (
      ts.isJsxExpression(node) &&
      node.expression &&
      (ts.isJsxElement(parent) || ts.isJsxFragment(parent))
    ) {
      for (const text of writtenText(node.expression)) if (isWords(text)) report(node, text);
    }
    if (
      ts.isJsxAttribute(node) &&
      READ_ATTRIBUTES.has(node.name.getText(source)) &&
      node.initializer
    ) {
      const value = ts.isJsxExpression(node.initializer)
        ? node.initializer.expression
        : node.initializer;
      for (const text of value ? writtenText(value) : []) if (isWords(text)) report(node, text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("every word on the wallet's screens comes from locales/en.yml", () => {
  it("no component renders text or a read attribute written in the code", () => {
    const files = [...sourceFiles("components", ".tsx"), ...sourceFiles("entrypoints", ".tsx")];
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap(untranslatedText)).toEqual([]);
  });

  it("no page's HTML names itself in English", () => {
    const titles = sourceFiles("entrypoints", ".html").flatMap((file) => {
      const title = /<title>([^<]*)<\/title>/.exec(readFileSync(file, "utf8"))?.[1] ?? "";
      return isWords(title) ? [`${file}: ${title}`] : [];
    });
    expect(titles).toEqual([]);
  });
});

describe("the browser names the wallet from locales/en.yml", () => {
  it("the manifest's name, description and toolbar title are its messages", async () => {
    const messages = await loadLocaleMessages("locales/en.yml");
    // What the browser shows for a manifest string: a __MSG_key__ is replaced, anything else stays English.
    const shown = (text: string | undefined) => {
      const key = /^__MSG_(\w+)__$/.exec(text ?? "")?.[1];
      return key ? messages[key] : `not a message: ${text}`;
    };
    for (const browser of ["chrome", "firefox"] as const) {
      const manifest = await builtManifest(browser);
      expect({
        name: shown(manifest?.name),
        description: shown(manifest?.description),
        title: shown(manifest?.action?.default_title),
      }).toEqual({
        name: "Stipendex Wallet",
        description:
          "Pay for AI agents' API and MCP tool calls (Stipendex, x402) with budgets you set and approvals you give.",
        title: "Stipendex Wallet",
      });
    }
  });
});
