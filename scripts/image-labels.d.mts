/** The repository's web address from package.json's `repository`. */
export function sourceUrl(repository: unknown): string;
/** The commit the working tree is at, or `unknown` outside a git checkout. */
export function gitRevision(cwd?: string): string;
/** The build arguments the Dockerfile turns into OCI labels, by name. */
export function labelArgs(
  pkg: { name: string; version: string; description?: string; license?: string; repository?: unknown },
  revision: string,
): Record<'OCI_TITLE' | 'OCI_DESCRIPTION' | 'OCI_VERSION' | 'OCI_REVISION' | 'OCI_SOURCE' | 'OCI_LICENSES', string>;
/** `--build-arg NAME=VALUE` for each. */
export function buildArgs(args: Record<string, string>): string[];
/** The label each build argument fills in the Dockerfile's LABEL. */
export const LABEL_OF_ARG: Record<'OCI_TITLE' | 'OCI_DESCRIPTION' | 'OCI_VERSION' | 'OCI_REVISION' | 'OCI_SOURCE' | 'OCI_LICENSES', string>;
/** `--label NAME=VALUE` for each, set on the image itself (a cached LABEL step keeps old values). */
export function labelFlags(args: Record<string, string>): string[];
