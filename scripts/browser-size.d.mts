/** Bundles a small app against the built `petstore-mock/browser` and gives its bytes, minified and gzipped. */
export function measureBrowserBuild(bundle?: string): Promise<{ minified: number; gzip: number }>;
/** The same app bundled from the sources: the minified bytes of each part, largest first. */
export function browserBuildParts(): Promise<[string, number][]>;
/** The same app bundled from the sources: each input file (or virtual module) and its minified bytes. */
export function browserBuildInputs(): Promise<[string, number][]>;
