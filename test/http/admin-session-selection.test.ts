// Every admin call selects its session by X-Mock-Session or ?session=, in memory.
import { afterAll, beforeAll } from 'vitest';
import { startMock, type RunningMock } from '../../src/index.js';
import { describeSessionSelection } from '../support/session-selection.js';

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(async () => {
  await mock?.close();
});

describeSessionSelection('in memory', () => mock.origin);
