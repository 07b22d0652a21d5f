/** Where the demo's paywalled article lives on each server that sells it. */
export const PAYWALLED_PAGE_PATH = "/article";

/** The article a paid load shows (the e2e tests look for its data-testid). */
export const PAYWALLED_ARTICLE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>Paid article</title></head>
  <body>
    <h1>Paid article</h1>
    <p data-testid="paid-article">You paid for this page: the wallet loaded it once with the payment.</p>
  </body>
</html>`;
