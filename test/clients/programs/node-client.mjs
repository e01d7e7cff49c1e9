// The Node clients the audit suite runs, each in its own process as an SDK's user would run it.
//
// Usage: node node-client.mjs LIB MODE WORKERS URL KEY SESSION
//   LIB      axios-retry | ky | got | undici | p-retry
//   MODE     good (configured as the library's docs advise for 429s) | bad (retries after 50 ms, ignoring Retry-After)
//   WORKERS  how many calls run at once (one Promise.all)
// Prints the final status of each call, comma-separated.
const [lib, mode, workers, url, key, session] = process.argv.slice(2);
const headers = { authorization: `Bearer ${key}`, 'x-mock-session': session };
const target = `${url}/pets?limit=1`;
const good = mode === 'good';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Each case imports only its library: all five in every process would double the suite's start-ups.
const clients = {
  'axios-retry': async () => {
    const { default: axios } = await import('axios');
    const { default: axiosRetry } = await import('axios-retry');
    const client = axios.create({ headers });
    // exponentialDelay waits at least the Retry-After the answer gave.
    axiosRetry(client, { retries: 3, retryCondition: (error) => error.response?.status === 429, retryDelay: good ? axiosRetry.exponentialDelay : () => 50 });
    return () =>
      client.get(target).then(
        (r) => r.status,
        (error) => error.response?.status ?? 0,
      );
  },
  ky: async () => {
    const { default: ky } = await import('ky');
    const retry = good ? { limit: 3 } : { limit: 3, afterStatusCodes: [], delay: () => 50 };
    return () =>
      ky.get(target, { headers, retry }).then(
        (r) => r.status,
        (error) => error.response?.status ?? 0,
      );
  },
  got: async () => {
    const { default: got } = await import('got');
    const retry = good ? { limit: 3 } : { limit: 3, calculateDelay: ({ computedValue }) => (computedValue > 0 ? 50 : 0) };
    return () =>
      got(target, { headers, retry }).then(
        (r) => r.statusCode,
        (error) => error.response?.statusCode ?? 0,
      );
  },
  undici: async () => {
    const { Agent, RetryAgent, request } = await import('undici');
    const options = { statusCodes: [429], maxRetries: 3 };
    // The default retry honours Retry-After; a retry function of one's own that does not is the fault.
    const badRetry = (error, { state }, callback) => (state.counter > 3 ? callback(error) : setTimeout(() => callback(null), 50));
    const dispatcher = new RetryAgent(new Agent(), good ? options : { ...options, retry: badRetry });
    return () =>
      request(target, { headers, dispatcher }).then(
        async (r) => {
          await r.body.dump();
          return r.statusCode;
        },
        (error) => error.statusCode ?? 0,
      );
  },
  'p-retry': async () => {
    const { default: pRetry } = await import('p-retry');
    const attempt = async () => {
      const res = await fetch(target, { headers });
      await res.arrayBuffer();
      if (res.status !== 429) return res.status;
      const error = new Error('429');
      error.retryAfter = Number(res.headers.get('retry-after'));
      throw error;
    };
    const options = good
      ? // The readme's way to wait for the server: sleep in onFailedAttempt, which p-retry awaits.
        { retries: 3, minTimeout: 100, factor: 2, onFailedAttempt: ({ error }) => sleep((error.retryAfter || 1) * 1000) }
      : { retries: 3, minTimeout: 50, factor: 1, randomize: false };
    return () => pRetry(attempt, options).catch(() => 429);
  },
};

const call = await clients[lib]();
const statuses = await Promise.all(Array.from({ length: Number(workers) }, () => call()));
console.log(statuses.join(','));
