import { readFileSync } from 'node:fs';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { envName } from '../../src/cli/env-options.js';
import { OPTIONS } from '../../src/cli/options.js';

// The Deployment of docs/container.md#kubernetes, as printed: each object valid against the
// Kubernetes API's schemas, and saying what the page says of probes, stopping and service links.

const page = readFileSync(new URL('../../docs/container.md', import.meta.url), 'utf8');
const section = page.slice(page.indexOf('## Kubernetes'), page.indexOf('\n## ', page.indexOf('## Kubernetes') + 1));
const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
const objects = parseAllDocuments(block).map((d) => d.toJS() as { kind: string });
type DeploymentData = ConstructorParameters<typeof Deployment>[0];
type ServiceData = ConstructorParameters<typeof Service>[0];

/** The default of a flag in seconds, from the option table. */
function defaultSeconds(flag: string): number {
  const option = OPTIONS.find((o) => o.flag === flag);
  return Number(option && 'default' in option ? option.default : NaN);
}

interface Probe {
  httpGet: { path: string; port: string };
  periodSeconds: number;
  failureThreshold: number;
}

describe('the Kubernetes manifests of docs/container.md', () => {
  const deployment = new Deployment(objects.find((o) => o.kind === 'Deployment') as unknown as DeploymentData);
  const service = new Service(objects.find((o) => o.kind === 'Service') as unknown as ServiceData);
  const pod = deployment.spec?.template.spec;
  const container = pod?.containers[0];

  it('are a Deployment and a Service, each valid against the Kubernetes API schemas', () => {
    expect(objects.map((o) => o.kind)).toEqual(['Deployment', 'Service']);
    expect(() => deployment.validate()).not.toThrow();
    expect(() => service.validate()).not.toThrow();
  });

  it('would be refused by the schemas with a mistake in them (the check bites)', () => {
    // The readiness probe without its port.
    const broken = structuredClone(objects.find((o) => o.kind === 'Deployment')) as unknown as {
      spec: { template: { spec: { containers: { readinessProbe: { httpGet: Partial<Probe['httpGet']> } }[] } } };
    };
    delete (broken.spec.template.spec.containers[0] as { readinessProbe: { httpGet: Partial<Probe['httpGet']> } }).readinessProbe.httpGet.port;
    expect(() => new Deployment(broken as unknown as DeploymentData).validate()).toThrow(/must have required property port/);
  });

  it('probe /__admin/health on the named port: readiness at once, liveness not before the lame duck is over', () => {
    const readiness = container?.readinessProbe as Probe;
    const liveness = container?.livenessProbe as Probe;
    const port = container?.ports?.[0];
    expect(port).toEqual({ name: 'http', containerPort: 4010 });
    expect(readiness.httpGet).toEqual({ path: '/__admin/health', port: 'http' });
    expect(liveness.httpGet).toEqual({ path: '/__admin/health', port: 'http' });
    expect(readiness.periodSeconds * readiness.failureThreshold).toBeLessThanOrEqual(defaultSeconds('lame-duck-time'));
    expect(liveness.periodSeconds * liveness.failureThreshold).toBeGreaterThan(defaultSeconds('lame-duck-time') + defaultSeconds('drain-time'));
  });

  it('stop within the grace period: preStop, then the lame duck and the drain at their defaults', () => {
    const preStop = container?.lifecycle?.preStop?.sleep?.seconds;
    expect(preStop).toBe(5);
    expect(pod?.terminationGracePeriodSeconds).toBe(30);
    expect(Number(preStop) + defaultSeconds('lame-duck-time') + defaultSeconds('drain-time')).toBeLessThan(Number(pod?.terminationGracePeriodSeconds));
  });

  it("keep the command's own defaults within docker stop's 10 s: a lame duck of at most 5 s, and the drain", () => {
    expect(defaultSeconds('lame-duck-time')).toBeGreaterThan(0);
    expect(defaultSeconds('lame-duck-time')).toBeLessThanOrEqual(5);
    expect(defaultSeconds('lame-duck-time') + defaultSeconds('drain-time')).toBeLessThan(10);
  });

  it('turn service links off, and set only variables the mock reads', () => {
    expect(pod?.enableServiceLinks).toBe(false);
    const known = OPTIONS.map(envName);
    for (const variable of container?.env ?? []) expect(known).toContain(variable.name);
    expect(service.metadata?.name).toBe(container?.env?.find((v) => v.name === 'PETSTORE_MOCK_ALLOW_HOST')?.value);
    expect(service.spec?.ports?.[0]).toMatchObject({ port: 4010, targetPort: 'http' });
  });

  it('run the image as it expects: not root, read-only, the metrics annotated for scraping', () => {
    expect(pod?.securityContext?.runAsNonRoot).toBe(true);
    expect(container?.securityContext?.readOnlyRootFilesystem).toBe(true);
    expect(deployment.spec?.template.metadata?.annotations).toMatchObject({ 'prometheus.io/path': '/__admin/metrics', 'prometheus.io/port': '4010' });
  });
});
