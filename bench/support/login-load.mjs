// Flat-out password logins spread over several accounts, for bench/login.ts with BENCH_LOGIN_ACCOUNTS > 1: each
// request names the next account in turn (the autocannon command line sends one body only). Run as a child process,
// like the autocannon command, so that the load generator's work stays out of the measured server's process; prints
// the result as `autocannon --json` does.
// Arguments: url connections seconds headers-json usernames-json password
import autocannon from 'autocannon';

const [url, connections, seconds, headers, usernames, password] = process.argv.slice(2);
const names = JSON.parse(usernames);
let next = 0;
const result = await autocannon({
  url,
  connections: Number(connections),
  duration: Number(seconds),
  method: 'POST',
  headers: JSON.parse(headers),
  requests: [
    {
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify({ username: names[next++ % names.length], password }),
      }),
    },
  ],
});
process.stdout.write(JSON.stringify(result));
