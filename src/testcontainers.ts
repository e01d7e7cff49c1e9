// petstore-mock/testcontainers: the mock's image as a Testcontainers module for Node. It waits on
// the readiness URL, lets the admin API answer to the address the tests reach it at, and gives
// the URLs and a remote control. testcontainers is an optional peer dependency: only this entry
// point imports it.
import { AbstractStartedContainer, GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';
import { connectMock, type RemoteMock } from './remote/connect.js';

export type { RemoteMock } from './remote/connect.js';

/** The port the image listens on. */
export const PETSTORE_MOCK_PORT = 4010;

/** The image `npm run image` builds. */
export const DEFAULT_PETSTORE_MOCK_IMAGE = 'localhost/petstore-mock:local';

/**
 * A petstore-mock container: `await new PetstoreMockContainer().start()` answers once
 * `GET /__admin/health` does. Settings are the image's `PETSTORE_MOCK_*` variables
 * (`withEnvironment`), or the shortcuts below.
 */
export class PetstoreMockContainer extends GenericContainer {
  private adminToken: string | undefined;

  constructor(image: string = DEFAULT_PETSTORE_MOCK_IMAGE) {
    super(image);
    this.withExposedPorts(PETSTORE_MOCK_PORT).withStartupTimeout(60_000);
  }

  /** Starts in a shipped scenario or one the image holds (`PETSTORE_MOCK_SCENARIO`). */
  withScenario(name: string): this {
    return this.withEnvironment({ PETSTORE_MOCK_SCENARIO: name });
  }

  /** Protects the admin API (`PETSTORE_MOCK_ADMIN_TOKEN`); the health wait and `connectMock()` send it. */
  withAdminToken(token: string): this {
    this.adminToken = token;
    return this.withEnvironment({ PETSTORE_MOCK_ADMIN_TOKEN: token });
  }

  /** Starts the container and waits until the mock's readiness URL answers 200. */
  override async start(): Promise<StartedPetstoreMockContainer> {
    // The admin API answers only to the host names it knows: add the one the tests reach it at
    // (a gateway address when they run in a container themselves).
    const { host } = (await getContainerRuntimeClient()).info.containerRuntime;
    const allowed = [this.environment.PETSTORE_MOCK_ALLOW_HOST ?? 'petstore', host].filter((h) => h !== '').join(',');
    this.withEnvironment({ PETSTORE_MOCK_ALLOW_HOST: allowed });
    const health = Wait.forHttp('/__admin/health', PETSTORE_MOCK_PORT).forStatusCode(200);
    this.withWaitStrategy(this.adminToken === undefined ? health : health.withHeaders({ authorization: `Bearer ${this.adminToken}` }));
    return new StartedPetstoreMockContainer(await super.start(), this.adminToken);
  }
}

/** A started petstore-mock container: its URLs and a remote control. */
export class StartedPetstoreMockContainer extends AbstractStartedContainer {
  constructor(
    started: StartedTestContainer,
    private readonly adminToken: string | undefined,
  ) {
    super(started);
  }

  /** `http://HOST:PORT`, where the admin API lives (`/__admin`). */
  get origin(): string {
    const host = this.getHost();
    return `http://${host.includes(':') ? `[${host}]` : host}:${this.getMappedPort(PETSTORE_MOCK_PORT)}`;
  }

  /** The API's base URL, `…/v1`: what an SDK under test is given. */
  get url(): string {
    return `${this.origin}/v1`;
  }

  /** The readiness URL: 200 while the mock accepts requests, 503 once it is stopping. */
  get healthUrl(): string {
    return `${this.origin}/__admin/health`;
  }

  /** The mock's remote control over the admin API, `connectMock(origin, { adminToken })`. */
  async connectMock(): Promise<RemoteMock> {
    return connectMock(this.origin, this.adminToken === undefined ? {} : { adminToken: this.adminToken });
  }
}
