// A fake planning system (the contract of README "Planning system"): GET /customers/{n}
// answers the company and its contacts as JSON. Started by scripts/e2e.sh; prints one line
// `FAKE_PLANNING <base_url>` once it listens.
//
// Customer numbers with a meaning for the tests:
// - 400001, 400002: known companies with contacts (below);
// - 499998: answers after 30 s (slower than the portal waits);
// - 499999: answers 500;
// - any other: 404 (unknown customer).
import http from 'node:http';

export const CUSTOMERS = {
  400001: {
    customerNumber: 400001,
    companyName: 'Planungs GmbH',
    contacts: [
      { salutation: 2, firstname: 'Paul', lastname: 'Plan', email: 'paul.plan@planung.example' },
      { salutation: 3, firstname: 'Petra', lastname: 'Plan', email: 'petra.plan@planung.example' },
    ],
  },
  400002: {
    customerNumber: 400002,
    companyName: 'Zweite Planung KG',
    contacts: [{ salutation: 1, firstname: 'Zentrale', lastname: 'Einkauf', email: 'einkauf@zweite.example' }],
  },
};

export function startFakePlanning(port = 0) {
  const server = http.createServer((req, res) => {
    const match = /^\/customers\/(\d+)$/.exec(new URL(req.url, 'http://x').pathname);
    if (req.method !== 'GET' || !match) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
      return;
    }
    const number = Number(match[1]);
    if (number === 499998) {
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 30_000);
      return;
    }
    if (number === 499999) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('kaputt');
      return;
    }
    const customer = CUSTOMERS[number];
    if (!customer) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"unknown customer"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(customer));
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startFakePlanning();
  process.stdout.write(`FAKE_PLANNING http://127.0.0.1:${server.address().port}\n`);
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
