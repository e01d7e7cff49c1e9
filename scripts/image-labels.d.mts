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
