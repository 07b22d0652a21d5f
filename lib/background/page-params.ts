import { z } from "zod";
import { field, isObject } from "../hook/jsonrpc";
import { PAGE_LIMITS } from "../hook/wallet-link";
import {
  type McpServerReport,
  type McpToolPricing,
  type PageMethod,
  type PageParams,
  UNANSWERED,
} from "../messages";
import { invalidParams } from "./rpc-error";

/*
 * The one place a page's params are checked. Everything a page sends is
 * untrusted and ends up in memory, in storage.session or in the ledger, so
 * each field has a type and a size (PAGE_LIMITS); what does not fit is refused
 * before any handler sees it.
 */

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/**
 * JSON values only (what runtime messaging carries from Chrome; Firefox's
 * structured clone could carry more), at most `maxChars` serialized and
 * `PAGE_LIMITS.jsonDepth` deep.
 */
const json = (maxChars: number) =>
  z.unknown().superRefine((value, context) => {
    const problem = jsonProblem(value, maxChars);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });

/** Why `value` is not JSON within the limits, or undefined when it is. Iterative: no stack to blow. */
export function jsonProblem(value: unknown, maxChars: number): string | undefined {
  const tooBig = `must be at most ${maxChars} characters as JSON`;
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  // Every value takes at least one character, which bounds the walk (shared references included).
  let budget = maxChars;
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    budget -= 1;
    if (budget < 0) return tooBig;
    const v = next.value;
    if (v === null || typeof v === "string" || typeof v === "boolean") continue;
    if (typeof v === "number" && Number.isFinite(v)) continue;
    if (typeof v !== "object") return "must be JSON";
    if (next.depth >= PAGE_LIMITS.jsonDepth) {
      return `must nest at most ${PAGE_LIMITS.jsonDepth} levels deep`;
    }
    let children: unknown[];
    if (Array.isArray(v)) {
      children = v;
    } else {
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return "must be JSON";
      children = Object.values(v);
    }
    if (children.length > budget) return tooBig;
    for (const child of children) stack.push({ value: child, depth: next.depth + 1 });
  }
  return JSON.stringify(value).length > maxChars ? tooBig : undefined;
}

const url = text(PAGE_LIMITS.url);

/** Whether `value` is a URL that names a user or a password (which a page's fetch cannot send). */
function hasCredentials(value: string): boolean {
  try {
    const parsed = new URL(value);
    return parsed.username !== "" || parsed.password !== "";
  } catch {
    // Not a URL: reading the price says what is wrong with it.
    return false;
  }
}

/**
 * The URL a page asked: shown to the person, so one with a user part
 * ("https://api.example.com@attacker.example/") is refused, not shown.
 */
const requestUrl = url.refine((value) => !hasCredentials(value), {
  message: "must not carry a user name or password",
});

/** An HTTP method as fetch and XHR send it: a token (RFC 9110), never words or spaces to show. */
const httpMethod = text(PAGE_LIMITS.name).regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, {
  message: "must be an HTTP method",
});
const rpcError = z.object({
  code: z.number().int(),
  // An HTTP refusal carries the whole 402 body here.
  message: text(PAGE_LIMITS.challenge),
  data: json(PAGE_LIMITS.json).optional(),
});

const challenge = z.discriminatedUnion("transport", [
  z.object({
    transport: z.literal("http"),
    url: requestUrl,
    method: httpMethod,
    body: text(PAGE_LIMITS.challenge),
    paymentRequiredHeader: text(PAGE_LIMITS.challenge).nullable(),
    // Only shown, never paid by: one the wallet would not take is left out, the price still read.
    call: z
      .object({ tool: text(PAGE_LIMITS.name), arguments: json(PAGE_LIMITS.json).optional() })
      .optional()
      .catch(undefined),
  }),
  z
    .object({
      transport: z.literal("mcp"),
      server: requestUrl,
      tool: text(PAGE_LIMITS.name),
      // Absent when the page's MCP client sent none (JSON drops undefined).
      arguments: json(PAGE_LIMITS.mcpArguments).optional(),
      error: rpcError.optional(),
      result: json(PAGE_LIMITS.json).optional(),
    })
    .transform((mcp) => ({ ...mcp, arguments: mcp.arguments })),
]);

/**
 * What a server declared, read leniently: a hint the wallet could not show
 * (not a string, or longer than a label) is left out rather than refusing
 * the server's other hints. The page's message as a whole stays bounded.
 */
const label = (value: unknown) =>
  typeof value === "string" && value.length <= PAGE_LIMITS.label ? value : undefined;

const mcpSighting = z
  .object({
    server: url,
    stipendexPayments: json(PAGE_LIMITS.json).optional(),
    tools: json(PAGE_LIMITS.json)
      .pipe(
        z.array(z.unknown()).max(PAGE_LIMITS.tools, `must have at most ${PAGE_LIMITS.tools} items`),
      )
      .optional(),
  })
  .transform(({ server, stipendexPayments, tools }): McpServerReport => {
    const version = label(field(stipendexPayments, "version"));
    const declared = isObject(stipendexPayments);
    return {
      server,
      ...(declared ? { stipendexPayments: version === undefined ? {} : { version } } : {}),
      ...(tools ? { tools: tools.flatMap(toolPricing) } : {}),
    };
  });

function toolPricing(tool: unknown): McpToolPricing[] {
  const name = field(tool, "name");
  if (typeof name !== "string" || name.length > PAGE_LIMITS.name) return [];
  const pricing = field(tool, "pricing");
  if (!isObject(pricing)) return [{ name, pricing: undefined }];
  const model = label(field(pricing, "model"));
  const estimate = label(field(pricing, "estimate"));
  return [
    {
      name,
      pricing: {
        ...(model === undefined ? {} : { model }),
        ...(estimate === undefined ? {} : { estimate }),
      },
    },
  ];
}

/**
 * Each page method's params. Unknown keys are dropped, so nothing a page adds
 * (an `origin`, say) reaches a handler. Typed by the message types of
 * lib/messages.ts (which the hook shares), so schemas and messages stay in step.
 */
const schemas: { [M in PageMethod]: z.ZodType<PageParams<M>> } = {
  // Takes nothing; whatever a page passes is dropped.
  stipendex_status: z.unknown().transform(() => undefined),
  stipendex_pay: z.object({ requestId: text(PAGE_LIMITS.requestId), challenge }),
  stipendex_withdraw: z.object({ requestId: text(PAGE_LIMITS.requestId) }),
  stipendex_receipt: z.object({
    paymentId: text(PAGE_LIMITS.name),
    status: z.number().int().min(0).max(999),
    receipt: json(PAGE_LIMITS.json),
    error: rpcError.optional(),
    resultHash: text(64).optional(),
    unanswered: z.enum(UNANSWERED).optional(),
    answerError: z.object({ code: z.number().int(), message: text(PAGE_LIMITS.name) }).optional(),
  }),
  stipendex_reportMcpServer: mcpSighting,
  stipendex_getPricing: z.object({ server: url }),
  stipendex_loadMcp: z.unknown().transform(() => undefined),
  stipendex_elicit: z.object({
    server: url,
    call: z
      .object({ tool: text(PAGE_LIMITS.name), arguments: json(PAGE_LIMITS.mcpArguments) })
      .optional(),
    requestId: text(PAGE_LIMITS.requestId).optional(),
    params: z.object({
      message: text(PAGE_LIMITS.challenge).optional(),
      requestedSchema: json(PAGE_LIMITS.json).optional(),
      // Bounded as a whole: a record may have any number of keys.
      _meta: json(PAGE_LIMITS.json).pipe(z.record(z.string(), z.unknown())).optional(),
    }),
  }),
};

/** The params of a page request, checked; throws InvalidParams naming the field and its limit. */
export function parsePageParams<M extends PageMethod>(method: M, params: unknown): PageParams<M> {
  const result = schemas[method].safeParse(params, { error: plainMessage });
  if (result.success) return result.data;
  throw invalidParams(method, result.error.issues[0]);
}

/** Type errors in words a page's developer reads at once; zod's own text for the rest. */
function plainMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== "invalid_type") return undefined;
  return issue.input === undefined ? "is required" : `expected ${issue.expected}`;
}
