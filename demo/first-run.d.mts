export const BROWSERS: { pkg: string; path: string }[];
export function dependenciesStale(root: string): boolean;
export function missingBrowsers(browsers?: { pkg: string; path: string }[]): string[];
