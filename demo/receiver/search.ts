/** One hit of the demo search: the thing the paid endpoints sell. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

const CORPUS: readonly SearchHit[] = [
  {
    title: "HTTP 402 Payment Required",
    url: "https://developer.mozilla.org/docs/Web/HTTP/Status/402",
    snippet: "A nonstandard response status code reserved for future use, now used by x402.",
  },
  {
    title: "EIP-3009: Transfer With Authorization",
    url: "https://eips.ethereum.org/EIPS/eip-3009",
    snippet:
      "A contract interface that enables transferring of fungible assets via a signed authorization.",
  },
  {
    title: "Model Context Protocol",
    url: "https://modelcontextprotocol.io",
    snippet: "An open protocol that connects AI applications to tools and data.",
  },
  {
    title: "RFC 8785: JSON Canonicalization Scheme",
    url: "https://www.rfc-editor.org/rfc/rfc8785",
    snippet: "A canonical form of JSON so that hashes and signatures are repeatable.",
  },
];

/**
 * Deterministic results for a query, so a test can compare what it paid for with what it got:
 * hits whose text contains any query word, or all hits when none match.
 */
export function search(query: string, limit = 3): { query: string; results: SearchHit[] } {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matching = CORPUS.filter((hit) =>
    words.some((w) => `${hit.title} ${hit.snippet}`.toLowerCase().includes(w)),
  );
  return { query, results: (matching.length > 0 ? matching : CORPUS).slice(0, limit) };
}
