// A client whose connections are pooled across sessions, as one SDK instance serving many tasks
// is: it warms two pooled connections in session WARM, is refused in SESSION, sends a slow request
// of WARM on the pool, and retries 85 ms after the 429 on the pool's other connection.
//
// Usage: node pooled-client.mjs LIB URL KEY SESSION WARM
//   LIB  fetch (undici's fetch over one shared Agent) | axios (one keep-alive http.Agent)
// Prints the statuses of the refused request and of the retry, comma-separated.
const [lib, url, key, session, warm] = process.argv.slice(2);
const target = `${url}/pets?limit=1`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function client() {
  if (lib === 'fetch') {
    const { Agent, fetch } = await import('undici');
    const dispatcher = new Agent({ connections: 2 });
    return async (sid) => {
      const res = await fetch(target, { dispatcher, headers: { authorization: `Bearer ${key}`, 'x-mock-session': sid } });
      await res.arrayBuffer();
      return res.status;
    };
  }
  const { default: axios } = await import('axios');
  const { Agent } = await import('node:http');
  const http = axios.create({ httpAgent: new Agent({ keepAlive: true, maxSockets: 2 }), validateStatus: () => true });
  return async (sid) => (await http.get(target, { headers: { authorization: `Bearer ${key}`, 'x-mock-session': sid } })).status;
}

const get = await client();
await Promise.all([get(warm), get(warm)]);
const refused = await get(session);
// Another task of the same process, a moment later: undici frees a connection on the next tick.
await sleep(5);
const slow = get(warm);
await sleep(85);
const retried = await get(session);
await slow;
console.log(`${refused},${retried}`);
process.exit(0);
