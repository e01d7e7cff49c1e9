// The OCI labels of the image (org.opencontainers.image.*), as build arguments: filled from
// package.json and the git revision of the working tree the image is built from, so a registry,
// a scanner or `docker inspect` can tell what an image holds and where it came from.
import { execFileSync } from 'node:child_process';

/** The repository's web address from package.json's `repository` (a string or `{url}`, `git+…`, `.git`). */
export function sourceUrl(repository) {
  const url = typeof repository === 'string' ? repository : repository?.url;
  if (typeof url !== 'string' || url === '') return '';
  return url
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/\.git$/, '');
}

/** The commit the working tree is at, or `unknown` outside a git checkout (a tarball, say). */
export function gitRevision(cwd = process.cwd()) {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

/** The build arguments the Dockerfile turns into labels, by name. */
export function labelArgs(pkg, revision) {
  return {
    OCI_TITLE: pkg.name,
    OCI_DESCRIPTION: pkg.description ?? '',
    OCI_VERSION: pkg.version,
    OCI_REVISION: revision,
    OCI_SOURCE: sourceUrl(pkg.repository),
    OCI_LICENSES: pkg.license ?? '',
  };
}

/** `--build-arg NAME=VALUE` for each, as the build command takes them. */
export function buildArgs(args) {
  return Object.entries(args).flatMap(([name, value]) => ['--build-arg', `${name}=${value}`]);
}

/** The label each build argument fills in the Dockerfile's LABEL. */
export const LABEL_OF_ARG = {
  OCI_TITLE: 'org.opencontainers.image.title',
  OCI_DESCRIPTION: 'org.opencontainers.image.description',
  OCI_VERSION: 'org.opencontainers.image.version',
  OCI_REVISION: 'org.opencontainers.image.revision',
  OCI_SOURCE: 'org.opencontainers.image.source',
  OCI_LICENSES: 'org.opencontainers.image.licenses',
};

/**
 * `--label NAME=VALUE` for each, set on the image itself: podman (4.3) reuses a cached LABEL step
 * when only the build argument it reads changed, so a commit that changed nothing the image
 * holds got the previous commit's revision label from the Dockerfile's LABEL alone.
 */
export function labelFlags(args) {
  return Object.entries(args).flatMap(([name, value]) => ['--label', `${LABEL_OF_ARG[name]}=${value}`]);
}
