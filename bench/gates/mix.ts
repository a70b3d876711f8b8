// The request mix of the gates (docs/decisions/0037-bench-gates.md): autocannon's programmatic API, one run per
// request type at its own fixed rate, all at once, through nginx. Stateful flows are autocannon request sequences
// (login → TOTP; provider → authority → registration) whose context carries the cookie or token from one step to the
// next; every write carries an id the gate records (DDE idempotency key, registration username), so its answer can
// be checked against the database row by row. Each caller comes from its own client address (X-Forwarded-For, which
// nginx appends to and TRUST_PROXY=loopback believes), as real users do: the per-client budgets count per person.
import { createHmac, randomUUID } from 'node:crypto';
import autocannonModule from 'autocannon';
import { REGISTRATION_ROUTES } from '@portal/contracts/registration';
import type { Postgres } from './stack';

/** The token a registration step answers under `data[name]`, or undefined when the step was refused. */
function tokenOf(status: number, body: string, name: 'validationToken' | 'registrationToken'): string | undefined {
  return status === 200 ? (JSON.parse(body) as { data: Record<string, string | undefined> }).data[name] : undefined;
}

// The demo account the bench users are copies of (server/src/modules/auth/demo-accounts.ts, README: Demo accounts).
const DEMO_USER = 'demo.admin.j5';
export const DEMO_PASSWORD = 'Harbor lantern quartz meadow';
const DEMO_TOTP_SECRET = 'DEMOPORTALJ5ADMINTOTPSECRET23456';
const TOPIC_PAGE = '/topics/rendering-examples';
const REGISTRATION_PASSWORD = 'violet tugboat ember 42 prairie';

/** The current 6-digit TOTP code (RFC 6238: SHA-1, 30 s steps) of a base32 secret, at time step `step`. */
export function totp(base32: string, step = Math.floor(Date.now() / 30_000)): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of base32.replace(/[\s=]/g, '').toUpperCase())
    bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const hmac = createHmac('sha1', key).update(counter).digest();
  const offset = hmac[hmac.length - 1]! & 0xf;
  return String((hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** The TOTP step each login user last logged in with, over every run of this process. */
const lastStep = new Map<string, number>();
let loginCursor = 0;

let addressSerial = 0;
/** Another client address for each caller: 10.x.y.z, never the same twice in a run of < 16 million requests. */
function clientAddress(): string {
  const n = ++addressSerial;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

interface Location {
  id: string;
  npi: string;
  ptan: string;
  tin: string;
  jurisdiction: string;
  line_of_business: string;
  claim_number?: string;
}

export interface MixData {
  /** Logged-in sessions of bench users (cookie `name=value`), for `GET /api/session` and DDE submissions. */
  sessions: string[];
  /** The location every bench user is linked to (the demo administrator's). */
  ddeLocationId: string;
  /** Users that log in during the mix, each at most once per 30 s TOTP step (a code is accepted once). */
  loginUsers: string[];
  locations: Location[];
  /** Locations with no administrator and a recent claim, one registration each. */
  registrationTargets: Location[];
  loginUser: string;
}

/**
 * Bench users: `count` copies of the demo J5 administrator (same password hash and TOTP secret, same location link),
 * made once in SQL; logged in through nginx for the sessions. Also the locations the validation and find-admin
 * requests ask about.
 */
export async function prepareMixData(postgres: Postgres, base: string, sessionCount = 40): Promise<MixData> {
  const loginUsers = 600;
  const total = sessionCount + loginUsers + 1;
  await postgres.query(
    `insert into users (username, email, first_name, last_name, phone, dob, password_hash, status,
       totp_secret_encrypted, mfa_enrolled_at)
     select 'bench.user.' || g, 'bench.user.' || g || '@example.com', first_name, last_name, phone, dob,
       password_hash, status, totp_secret_encrypted, mfa_enrolled_at
     from users, generate_series(1, $1::int) g where username = $2
     on conflict do nothing`,
    [total, DEMO_USER],
  );
  await postgres.query(
    `insert into user_locations (user_id, location_id, role, status)
     select u.id, ul.location_id, 'user', 'active'
     from users u, user_locations ul join users d on d.id = ul.user_id and d.username = $1
     where u.username like 'bench.user.%'
     on conflict do nothing`,
    [DEMO_USER],
  );
  const [link] = await postgres.query<{ location_id: string }>(
    `select ul.location_id from user_locations ul join users d on d.id = ul.user_id where d.username = $1 limit 1`,
    [DEMO_USER],
  );
  const locations = await postgres.query<Location>(
    `select id, npi, ptan, tin, jurisdiction, line_of_business from provider_locations order by id limit 500`,
  );
  const registrationTargets = await postgres.query<Location>(
    `select l.id, l.npi, l.ptan, l.tin, l.jurisdiction, l.line_of_business, c.claim_number
     from provider_locations l
     join lateral (select claim_number from claims c where c.location_id = l.id and c.paid_date >= current_date - 80
                   order by c.paid_date desc limit 1) c on true
     where not exists (select 1 from user_locations ul where ul.location_id = l.id)
     order by l.id`,
  );
  const sessions: string[] = [];
  for (let i = 1; i <= sessionCount; i++) sessions.push(await logIn(base, `bench.user.${i}`));
  return {
    sessions,
    ddeLocationId: link!.location_id,
    loginUsers: Array.from({ length: loginUsers }, (_, i) => `bench.user.${sessionCount + 1 + i}`),
    loginUser: `bench.user.${total}`,
    locations,
    registrationTargets,
  };
}

export function portalHeaders(base: string): Record<string, string> {
  return { 'x-portal-request': '1', origin: base, 'content-type': 'application/json' };
}

function sessionCookieOf(setCookie: string | string[] | undefined): string | undefined {
  for (const c of [setCookie ?? []].flat()) {
    const match = /^((?:__Host-)?portal_session=[^;]+)/.exec(c);
    if (match) return match[1];
  }
  return undefined;
}

/** Password and TOTP through the front door; answers the session cookie. */
async function logIn(base: string, username: string): Promise<string> {
  const headers = { ...portalHeaders(base), 'x-forwarded-for': clientAddress() };
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  const pending = sessionCookieOf(login.headers.getSetCookie());
  if (login.status !== 200 || !pending) throw new Error(`log in ${username}: ${login.status} ${await login.text()}`);
  const mfa = await fetch(`${base}/api/auth/mfa`, {
    method: 'POST',
    headers: { ...headers, cookie: pending },
    // The code of the step now: on a loaded machine the 40 logins take longer than a step (a code fixed before the
    // first was refused as Mfa_Code_Invalid once the setup ran past the server's window).
    body: JSON.stringify({ code: totp(DEMO_TOTP_SECRET) }),
  });
  const cookie = sessionCookieOf(mfa.headers.getSetCookie());
  if (mfa.status !== 200 || !cookie) throw new Error(`TOTP ${username}: ${mfa.status} ${await mfa.text()}`);
  return cookie;
}

/** Requests per second of each type at rate scale 1 (BENCH_RATE_SCALE multiplies them). */
export const MIX_RATES = {
  page: 20,
  session: 15,
  provider: 8,
  findAdmin: 5,
  login: 6, // requests: 3 logins/s, each two requests (password, TOTP)
  dde: 4,
  registration: 0, // the kill fault turns it on: three requests per registration
} as const;
export type RouteName = keyof typeof MIX_RATES;

export interface RouteResult {
  name: RouteName;
  requests: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers by status code. */
  statuses: Record<string, number>;
  /** Connection errors and time-outs seen by the client. */
  errors: number;
}

export interface MixResult {
  routes: RouteResult[];
  /** DDE idempotency keys sent, with the status answered (undefined: no answer). */
  dde: Map<string, number | undefined>;
  /** Registration usernames sent (the last step), with the status answered. */
  registrations: Map<string, number | undefined>;
  /** Logins completed (TOTP step answered 200). */
  logins: number;
  seconds: number;
  /**
   * Sends each DDE request left unanswered (autocannon stops at the end of the run with requests in flight) again
   * with its idempotency key, as the form does on a retry; records the answer. Answers how many were sent.
   */
  retryUnansweredDde(): Promise<number>;
}

export interface MixOptions {
  base: string;
  data: MixData;
  seconds: number;
  /** Multiplies every rate (0.5: the soak's half rate). */
  scale?: number;
  rates?: Partial<Record<RouteName, number>>;
  /** Called once a second while the mix runs (the soak's samples, the faults' timelines). */
  onTick?: (second: number) => void | Promise<void>;
}

type Request = { method?: string; path?: string; body?: string; headers?: Record<string, string> };
type Context = Record<string, unknown>;
interface SequenceStep {
  method?: string;
  path?: string;
  setupRequest?: (request: Request, context: Context) => Request | undefined;
  onResponse?: (status: number, body: string, context: Context, headers: Record<string, string | string[]>) => void;
}

/** The mix at its rates for `seconds`; every type runs at once, each in its own autocannon run. */
export async function runMix(options: MixOptions): Promise<MixResult> {
  const { base, data, seconds } = options;
  const scale = options.scale ?? Number(process.env.BENCH_RATE_SCALE ?? 1);
  const rates = { ...MIX_RATES, ...options.rates };
  const headers = portalHeaders(base);
  const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
  const withClient = (request: Request, extra: Record<string, string> = {}): Request => ({
    ...request,
    headers: { ...request.headers, 'x-forwarded-for': clientAddress(), ...extra },
  });
  const dde = new Map<string, number | undefined>();
  const ddeSent = new Map<string, { body: string; cookie: string }>();
  const registrations = new Map<string, number | undefined>();
  let logins = 0;
  // Each login user at most once per TOTP step (across runs: a code is accepted once): the next one whose last step
  // is older than the current one.
  const nextLoginUser = () => {
    const step = Math.floor(Date.now() / 30_000);
    for (let i = 0; i < data.loginUsers.length; i++) {
      const user = data.loginUsers[(loginCursor++ + i) % data.loginUsers.length]!;
      if ((lastStep.get(user) ?? -1) < step) {
        lastStep.set(user, step);
        return { user, step };
      }
    }
    return undefined; // every user logged in this step: the sequence restarts
  };
  const targets = [...data.registrationTargets];
  let registrationSerial = 0;

  const sequences: Record<RouteName, SequenceStep[]> = {
    page: [{ method: 'GET', path: TOPIC_PAGE, setupRequest: (r) => withClient(r) }],
    session: [
      { method: 'GET', path: '/api/session', setupRequest: (r) => withClient(r, { cookie: pick(data.sessions) }) },
    ],
    provider: [
      {
        method: 'POST',
        path: REGISTRATION_ROUTES.validateProvider,
        setupRequest: (r) => {
          const l = pick(data.locations);
          return withClient({
            ...r,
            body: JSON.stringify({
              npi: l.npi,
              ptan: l.ptan,
              tin: l.tin,
              jurisdiction: l.jurisdiction,
              lineOfBusiness: l.line_of_business,
              passthroughResponse: true,
            }),
          });
        },
      },
    ],
    findAdmin: [
      {
        method: 'POST',
        path: '/api/locations/public-find-admin',
        setupRequest: (r) => {
          const l = pick(data.locations);
          return withClient({ ...r, body: JSON.stringify({ npi: l.npi, ptan: l.ptan, tin: l.tin }) });
        },
      },
    ],
    login: [
      {
        method: 'POST',
        path: '/api/auth/login',
        setupRequest: (r, context) => {
          const next = nextLoginUser();
          if (!next) return undefined;
          context.step = next.step;
          context.address = clientAddress();
          return {
            ...r,
            body: JSON.stringify({ username: next.user, password: DEMO_PASSWORD }),
            headers: { ...r.headers, 'x-forwarded-for': context.address as string },
          };
        },
        onResponse: (status, _body, context, h) => {
          context.cookie = status === 200 ? sessionCookieOf(h['set-cookie']) : undefined;
        },
      },
      {
        method: 'POST',
        path: '/api/auth/mfa',
        setupRequest: (r, context) =>
          context.cookie
            ? {
                ...r,
                body: JSON.stringify({ code: totp(DEMO_TOTP_SECRET, context.step as number) }),
                headers: {
                  ...r.headers,
                  cookie: context.cookie as string,
                  'x-forwarded-for': context.address as string,
                },
              }
            : undefined,
        onResponse: (status) => {
          if (status === 200) logins++;
        },
      },
    ],
    dde: [
      {
        method: 'POST',
        path: '/api/dde-access/submit',
        setupRequest: (r, context) => {
          const key = randomUUID();
          context.key = key;
          dde.set(key, undefined);
          const body = JSON.stringify({
            idempotencyKey: key,
            locationId: data.ddeLocationId,
            requestType: 'new',
            ddeAccessType: 'inquiry',
            submitterId: 'BENCH01',
            networkServiceVendor: 'Bench Network Services',
          });
          const cookie = pick(data.sessions);
          ddeSent.set(key, { body, cookie });
          return withClient({ ...r, body }, { cookie });
        },
        onResponse: (status, _body, context) => dde.set(context.key as string, status),
      },
    ],
    registration: [
      {
        method: 'POST',
        path: REGISTRATION_ROUTES.validateProvider,
        setupRequest: (r, context) => {
          const l = targets.shift();
          if (!l) return undefined;
          context.location = l;
          context.address = clientAddress();
          return {
            ...r,
            headers: { ...r.headers, 'x-forwarded-for': context.address as string },
            body: JSON.stringify({
              npi: l.npi,
              ptan: l.ptan,
              tin: l.tin,
              jurisdiction: l.jurisdiction,
              lineOfBusiness: l.line_of_business,
              passthroughResponse: true,
            }),
          };
        },
        onResponse: (status, body, context) => {
          context.validationToken = tokenOf(status, body, 'validationToken');
        },
      },
      {
        method: 'POST',
        path: REGISTRATION_ROUTES.validateAuthority,
        setupRequest: (r, context) => {
          const l = context.location as Location;
          if (!context.validationToken) return undefined;
          return {
            ...r,
            headers: { ...r.headers, 'x-forwarded-for': context.address as string },
            body: JSON.stringify({
              npi: l.npi,
              validationToken: context.validationToken,
              financialLookupSelector: 'claim',
              claimNumber: l.claim_number,
              passthroughResponse: true,
            }),
          };
        },
        onResponse: (status, body, context) => {
          context.registrationToken = tokenOf(status, body, 'registrationToken');
        },
      },
      {
        method: 'POST',
        path: REGISTRATION_ROUTES.selfRegistration,
        setupRequest: (r, context) => {
          if (!context.registrationToken) return undefined;
          const n = ++registrationSerial;
          const username = `bench.reg.${process.pid}.${n}`;
          context.username = username;
          registrations.set(username, undefined);
          return {
            ...r,
            headers: { ...r.headers, 'x-forwarded-for': context.address as string },
            body: JSON.stringify({
              registrationToken: context.registrationToken,
              firstName: 'Robin',
              lastName: 'Quill',
              email: `${username}@example.org`,
              emailConfirmation: `${username}@example.org`,
              phone: '(410) 555-0123',
              dob: '1975-06-15',
              username,
              password: REGISTRATION_PASSWORD,
              securityQuestions: [
                { questionId: 'first-car', answer: 'Blue Honda' },
                { questionId: 'first-school', answer: 'Lincoln' },
                { questionId: 'childhood-nickname', answer: 'Bee' },
              ],
            }),
          };
        },
        onResponse: (status, _body, context) => registrations.set(context.username as string, status),
      },
    ],
  };

  const names = (Object.keys(rates) as RouteName[]).filter((name) => rates[name] * scale > 0);
  const ticker = options.onTick
    ? (() => {
        let second = 0;
        const timer = setInterval(() => void options.onTick!(++second), 1_000);
        return () => clearInterval(timer);
      })()
    : () => {};
  try {
    const results = await Promise.all(
      names.map(async (name): Promise<RouteResult> => {
        const rate = rates[name] * scale;
        const result = await autocannonModule({
          url: base,
          headers,
          // Enough connections that a slow answer (a login's hash) does not hold the rate down; the rate is the limit.
          connections: name === 'login' || name === 'registration' ? 8 : Math.max(2, Math.ceil(rate / 4)),
          overallRate: rate,
          // Each answer's own latency. autocannon 9's correction for coordinated omission records every answer of R ms
          // as R samples spaced by ceil(1 / rate) ms, which is 1 ms at our per-connection rates (the unit is off by
          // 1000): one 700 ms answer outweighed 100 fast ones and moved the median (bench/results/, soak). The rate
          // is held (each route's count is its rate × seconds), so no request goes unsent for a slow one.
          ignoreCoordinatedOmission: true,
          duration: seconds,
          // nginx's proxy_read_timeout: a slower answer is nginx's 504, seen in its log.
          timeout: 30,
          requests: sequences[name] as never,
        });
        const statuses: Record<string, number> = {};
        for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count ?? 0;
        return {
          name,
          rate,
          requests: result.requests.total,
          p50: result.latency.p50,
          p99: result.latency.p99,
          max: result.latency.max,
          statuses,
          errors: result.errors + result.timeouts,
        };
      }),
    );
    return {
      routes: results,
      dde,
      registrations,
      logins,
      seconds,
      async retryUnansweredDde() {
        const unanswered = [...dde].filter(([, status]) => status === undefined).map(([key]) => key);
        for (const key of unanswered) {
          const { body, cookie } = ddeSent.get(key)!;
          const res = await fetch(`${base}/api/dde-access/submit`, {
            method: 'POST',
            headers: { ...headers, cookie, 'x-forwarded-for': clientAddress() },
            body,
          });
          await res.arrayBuffer();
          dde.set(key, res.status);
        }
        return unanswered.length;
      },
    };
  } finally {
    ticker();
  }
}

/** One line per request type: requests, statuses, p50/p99/max latency. */
export function printMix(label: string, mix: MixResult) {
  console.log(`  ${label}: ${mix.seconds} s`);
  for (const r of mix.routes) {
    const statuses = Object.entries(r.statuses)
      .map(([code, n]) => `${code}×${n}`)
      .join(' ');
    console.log(
      `    ${r.name.padEnd(12)} ${String(r.requests).padStart(6)} requests at ${r.rate.toFixed(1)}/s  p50 ${r.p50} ms  p99 ${r.p99} ms  max ${r.max} ms  [${statuses}]${r.errors ? `  errors ${r.errors}` : ''}`,
    );
  }
}

export const count5xx = (mix: MixResult) =>
  mix.routes.reduce(
    (n, r) => n + Object.entries(r.statuses).reduce((m, [code, c]) => m + (code >= '500' ? c : 0), 0),
    0,
  );
export const countErrors = (mix: MixResult) => mix.routes.reduce((n, r) => n + r.errors, 0);
export const countRequests = (mix: MixResult) => mix.routes.reduce((n, r) => n + r.requests, 0);

/** DDE rows per idempotency key sent in this mix. */
export async function ddeRows(postgres: Postgres, keys: Iterable<string>): Promise<Map<string, number>> {
  const rows = await postgres.query<{ key: string; n: number }>(
    `select idempotency_key::text as key, count(*)::int as n from dde_requests where idempotency_key = any($1::uuid[]) group by 1`,
    [[...keys]],
  );
  return new Map(rows.map((r) => [r.key, r.n]));
}

/** Each registration sent: its user row, its location link and its three security answers, all or none. */
export async function registrationRows(
  postgres: Postgres,
  usernames: Iterable<string>,
): Promise<Map<string, { users: number; links: number; answers: number }>> {
  const rows = await postgres.query<{ username: string; users: number; links: number; answers: number }>(
    `select u.username, count(distinct u.id)::int as users,
       (select count(*) from user_locations ul where ul.user_id = u.id)::int as links,
       (select count(*) from security_answers sa where sa.user_id = u.id)::int as answers
     from users u where u.username = any($1::text[]) group by u.username, u.id`,
    [[...usernames]],
  );
  return new Map(rows.map((r) => [r.username, { users: r.users, links: r.links, answers: r.answers }]));
}
