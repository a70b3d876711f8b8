import type { EnvSchema } from './config';

/**
 * The settings reference, docs/configuration.md, generated from this list by `npm run docs:config`
 * (server/src/config-docs-cli.ts). A test (server/src/config.test.ts) fails when a setting of `EnvSchema` has no
 * entry here, when an entry names a setting the schema does not have, when a quoted default is not the schema's,
 * or when docs/configuration.md was not regenerated.
 *
 * A new setting: add one entry to its group, run `npm run docs:config`, commit both.
 */

type SettingName = keyof typeof EnvSchema.shape;

export interface SettingDoc {
  /** The settings this line describes (usually one; a few closely tied ones share a line). */
  readonly names: readonly SettingName[];
  /** How the names are joined on the line: `A`, `B` (the default) or `A` / `B`. */
  readonly joiner?: ', ' | ' / ';
  /** The default as a reader sees it; a value in backticks must be the schema's default. */
  readonly shown: string;
  /** What the setting does. */
  readonly text: string;
}

export interface SettingGroup {
  readonly title: string;
  readonly settings: readonly SettingDoc[];
}

export const SETTING_GROUPS: readonly SettingGroup[] = [
  {
    title: 'Server',
    settings: [
      {
        names: ['PORT', 'HOST'],
        joiner: ' / ',
        shown: '`3000` / `localhost`',
        text: 'Where the portal listens (`HOST=0.0.0.0` behind a load balancer).',
      },
      {
        names: ['PUBLIC_URL'],
        shown: '`http://localhost:$PORT`',
        text: 'The address people use; the only Origin allowed to change state; links in emails.',
      },
      {
        names: ['NODE_ENV'],
        shown: '`development`',
        text: '`production` requires `SESSION_SECRET` and `ENCRYPTION_KEY` from the environment.',
      },
      {
        names: ['WEB_DIST_DIR'],
        shown: '`web/dist`',
        text: 'The built web app the server serves, relative to the repository root.',
      },
      {
        names: ['TRUST_PROXY'],
        shown: '`false`',
        text: 'The load balancers / reverse proxies in front of the portal, as addresses or CIDR ranges separated by commas (`10.0.0.0/8,192.168.1.7`): `X-Forwarded-For` and `X-Request-Id` are believed from these peers only. `true` (any peer) is refused in production.',
      },
      {
        names: ['REQUEST_TIMEOUT_MS'],
        shown: '`15000`',
        text: 'Longest time a client may take to send a whole request, headers and body; slower clients get 408 and the connection is closed.',
      },
      {
        names: ['MAX_CONNECTIONS_PER_ADDRESS'],
        shown: '`64`',
        text: 'Open connections one client address (an IPv6 /64) may hold at once; one more is answered 429 and closed. The proxies in `TRUST_PROXY` are exempt (docs/decisions/0032). `0`: no cap.',
      },
      {
        names: ['SHUTDOWN_TIMEOUT_MS'],
        shown: '`30000`',
        text: "On SIGTERM/SIGINT: new connections are refused, every accepted request is answered (password hashes included), then the process exits 0; past this limit it exits 1. Keep it below the service manager's stop timeout.",
      },
      {
        names: ['SHUTDOWN_PROXY_IDLE_MS'],
        shown: '`6000`',
        text: "While shutting down, a request that arrives on an open connection is still served, with `Connection: close`; other clients' idle connections are closed at once, a `TRUST_PROXY` proxy's only once idle this long. Keep it above the proxy's idle time for upstream connections (`keepalive_timeout 4s` in `deploy/`), so the portal never closes a connection while the proxy sends a request on it (decision 0037).",
      },
      {
        names: ['SESSION_SECRET', 'ENCRYPTION_KEY'],
        shown: 'generated into `data/secrets.json`',
        text: 'Secrets (≥32 chars; 64 hex chars).',
      },
      {
        names: ['COOKIE_DOMAIN'],
        shown: 'parent domain of the host',
        text: 'Domain of the `region` and `amaApproved` cookies.',
      },
      {
        names: ['ANALYTICS_SCRIPT_URL', 'CHAT_SCRIPT_URL', 'SURVEY_SCRIPT_URL'],
        shown: 'unset',
        text: 'Third-party scripts, absent when unset; the CSP admits exactly these files.',
      },
      {
        names: ['ANALYTICS_SCRIPT_INTEGRITY', 'CHAT_SCRIPT_INTEGRITY', 'SURVEY_SCRIPT_INTEGRITY'],
        shown: 'unset',
        text: 'The Subresource Integrity hash a vendor publishes for its script (`sha384-…`); the browser then refuses any other file.',
      },
      {
        names: ['CHAT_SUPPORT_ADDRESS'],
        shown: 'unset',
        text: 'Handed to the chat script (as `window.portalChat.supportAddress`) when `CHAT_SCRIPT_URL` is set: where its conversations go.',
      },
      {
        names: ['JURISDICTION_IMAGE_BASE'],
        shown: '`/images/jurisdictions/`',
        text: 'Base path of the jurisdiction map images on the home page.',
      },
    ],
  },
  {
    title: 'Database',
    settings: [
      {
        names: ['DATABASE_URL'],
        shown: 'unset: embedded PGlite',
        text: '`postgres://…` to use a PostgreSQL server.',
      },
      {
        names: ['DATABASE_POOL_MAX'],
        shown: '`10`',
        text: "Connections each instance keeps open to PostgreSQL at most (1–100); with several instances, keep their sum below the server's `max_connections`.",
      },
      {
        names: ['DATA_DIR'],
        shown: '`data`',
        text: 'Embedded database, generated secrets, CMS token handover (folder 0700, files 0600).',
      },
      {
        names: ['SEED_DEMO_DATA', 'SEED_LOCATIONS'],
        shown: '`true` (`false` when `NODE_ENV=production`), `250`',
        text: 'Demo provider locations and claims on first start, imported from the sample feed files in `server/src/feeds/demo-feeds/`. The demo identifiers are public: a production instance seeds them only with an explicit `SEED_DEMO_DATA=true`.',
      },
      {
        names: ['FEED_MAX_REJECT_SHARE', 'FEED_MAX_END_DATE_SHARE'],
        shown: '`0.01`, `0.05`',
        text: 'Data feeds (`npm run import`, docs/requirements/data-feeds.md): a file with more rejected rows than the first share is refused whole; a snapshot that would end-date more than the second share of the rows in force is refused unless `--force`.',
      },
      {
        names: ['FEED_DROP_FOLDER', 'FEED_DROP_INTERVAL_MS'],
        shown: 'unset, `60000`',
        text: 'A folder the server watches for feed files (`<folder>/<kind>/`, taken once renamed into place; moved to `done/` or `rejected/`), and how often it looks.',
      },
      {
        names: ['CLAIMS_RETENTION_MARGIN_DAYS'],
        shown: '`365`',
        text: 'Paid claims older than `AUTHORITY_LOOKBACK_DAYS` plus this many days are purged hourly: they can no longer prove authority.',
      },
    ],
  },
  {
    title: 'CMS',
    settings: [
      {
        names: ['CMS_URL'],
        shown: '`http://127.0.0.1:1337`',
        text: 'The Strapi CMS.',
      },
      {
        names: ['CMS_TOKEN'],
        shown: 'read from `data/`, where the CMS hands it over',
        text: 'The API token the portal reads content with.',
      },
      {
        names: ['CMS_WEBHOOK_SECRET'],
        shown: 'read from `data/`, where the CMS hands it over',
        text: "Authenticates the CMS's publish webhook, which empties the content cache (at least 16 characters).",
      },
      {
        names: ['CMS_TIMEOUT_MS'],
        shown: '`5000`',
        text: "The server's deadline for one CMS request (the browser's 180 s content time-out is separate).",
      },
      {
        names: ['CONTENT_CACHE_TTL_MS'],
        shown: '`60000`',
        text: "How long published content is served from the portal's cache before it revalidates.",
      },
      {
        names: ['CONTENT_MISSES_PER_MINUTE'],
        shown: '`120`',
        text: 'Requests per client and minute that wait for the CMS: uncached `/api/content` reads and page renders (an unknown `/topics/…` page renders once); past it 429. Cached answers never count.',
      },
      {
        names: ['CMS_PUBLIC_URL'],
        shown: '`http://localhost:<port of CMS_URL>`',
        text: "The address editors open the CMS admin at (the CMS reads the same name): the only origin allowed to frame the editors' preview pages (`/preview/…`).",
      },
    ],
  },
  {
    title: 'Mail',
    settings: [
      {
        names: ['SMTP_URL'],
        shown: 'unset',
        text: '`smtps://user:pass@host:465` or `smtp://user:pass@host:587?requireTLS=true` (STARTTLS required): the outbox sender delivers queued email through it, retrying with backoff. Unset: email stays in the outbox. With `NODE_ENV=production` the server refuses to start with a URL that does not require TLS (plain `smtp://` only tries STARTTLS when offered, so a relay or a man in the middle offering none gets reset links in clear) or that turns off the certificate check (`tls.rejectUnauthorized=false`).',
      },
      {
        names: ['SMTP_ALLOW_PLAINTEXT'],
        shown: '`false`',
        text: '`true` lets production use an `SMTP_URL` without required TLS: a mail relay on the same host only.',
      },
      {
        names: ['MAIL_FROM'],
        shown: '`Medicare Provider Portal <no-reply@localhost>`',
        text: "Sender of the portal's email.",
      },
      {
        names: ['MAIL_VIEWER'],
        shown: '`false` (`npm start` sets `true`)',
        text: 'Shows every queued email at `/dev/mail` (reset links included): demo and development only; refused when `NODE_ENV=production`; the server logs a warning when it is on.',
      },
    ],
  },
  {
    title: 'Sessions and login',
    settings: [
      {
        names: ['SESSION_IDLE_MS', 'SESSION_ABSOLUTE_MS'],
        shown: '`1800000` (30 min), `43200000` (12 h)',
        text: 'Server session limits: idle time without a served protected call, and the longest a login lasts.',
      },
      {
        names: ['SESSION_PROMPT_BEFORE_IDLE_MS'],
        shown: '`900000` (15 min)',
        text: "The browser's inactivity timer (timeout = `SESSION_IDLE_MS`) prompts this long before the timeout; must be shorter than `SESSION_IDLE_MS`.",
      },
      {
        names: ['REAUTHENTICATION_WINDOW_MS'],
        shown: '`1200000` (20 minutes)',
        text: 'Changing the password, second factors, email, phone or security answers asks for the password again when the login is older.',
      },
      {
        names: ['PASSWORD_HASH_MEMORY_KIB', 'PASSWORD_HASH_ITERATIONS'],
        shown: '`19456`, `2`',
        text: 'argon2id cost (at least 19 MiB and 2 passes); raising them rehashes each password at its next login.',
      },
      {
        names: ['PASSWORD_HASH_CONCURRENCY'],
        shown: 'the number of cores',
        text: 'At most this many password hashes/verifications at once (the rest wait their turn): more than the cores would only crowd the event loop out of the CPU during bursts of logins or registrations (docs/decisions/0025).',
      },
      {
        names: ['PASSWORD_HASH_NICE'],
        shown: '`10`',
        text: "Password hashing runs this much below the request-serving thread's priority (Linux `nice`, 0–19; 0 = the same): requests keep a core during a burst of logins (docs/decisions/0020).",
      },
      {
        names: ['PASSWORD_HISTORY_COUNT'],
        shown: '`6`',
        text: 'How many recent passwords a user may not choose again.',
      },
      {
        names: ['PASSWORD_MAX_AGE_DAYS'],
        shown: 'empty (no maximum age)',
        text: 'Days after which a password must be changed at the next login, after the second factor. Off by default, as NIST SP 800-63B advises; for deployments whose policy requires a lifetime.',
      },
      {
        names: ['LOGIN_LOCKOUT_THRESHOLD', 'LOGIN_LOCKOUT_WINDOW_MS', 'LOGIN_LOCKOUT_DURATION_MS'],
        shown: '`5`, `7200000` (120 min), `3600000` (60 min)',
        text: 'This many failed passwords within the window lock the account for the duration (audited, emailed).',
      },
      {
        names: ['MFA_MAX_FAILURES'],
        shown: '`10`',
        text: 'Wrong codes that end a pending login (the password must be given again).',
      },
      {
        names: ['LOGIN_DAILY_FAILURE_CEILING'],
        shown: '`20`',
        text: "Wrong passwords of one account in 24 hours, counted across locks and administrators' unlocks, that lock it until the help desk unlocks it (audited, emailed).",
      },
      {
        names: ['MFA_ACCOUNT_MAX_FAILURES'],
        shown: '`20`',
        text: 'Wrong second factors (codes, recovery codes, passkeys) of one account in a row, across logins, that lock it for `LOGIN_LOCKOUT_DURATION_MS` (audited, emailed).',
      },
      {
        names: ['INACTIVITY_DISABLE_DAYS'],
        shown: '`60`',
        text: 'An hourly job disables active accounts without a login (or a password set) for this many days (`disabled_inactive`, emailed notice); they reactivate themselves at `/reactivate`.',
      },
      {
        names: ['RECERTIFICATION_DAYS'],
        shown: '`365`',
        text: "A person's access to a location is certified this long after its approval or last recertification; reminders go to the location's administrators from 45 days before, and the link is suspended after.",
      },
      {
        names: ['ADMINS_PER_LOCATION_MAX'],
        shown: '`5`',
        text: 'At most this many administrators per provider location.',
      },
      {
        names: ['AUTHORITY_LOOKBACK_DAYS'],
        shown: '`90`',
        text: 'Registration: claims paid within this many days (today included) prove authority for a location.',
      },
    ],
  },
  {
    title: 'Limits',
    settings: [
      {
        names: ['LOGIN_ATTEMPTS_PER_MINUTE'],
        shown: '`20`',
        text: 'Login and MFA attempts per client address and minute, across instances (then 429 with `Retry-After`).',
      },
      {
        names: ['LOGIN_HELP_ATTEMPTS_PER_MINUTE'],
        shown: '`10`',
        text: 'Forgot-username, forgot-password, reset and self-reactivation requests per client address and minute (then 429 with `Retry-After`).',
      },
      {
        names: ['RESET_EMAILS_PER_HOUR'],
        shown: '`20`',
        text: 'Login-help emails per account and hour; beyond it the answer stays the same and nothing is sent.',
      },
      {
        names: ['FIND_ADMIN_PER_MINUTE', 'FIND_ADMIN_PER_DAY'],
        shown: '`30`, `300`',
        text: 'Find-my-administrator lookups per client address (then 429 with `Retry-After`).',
      },
      {
        names: ['FIND_ADMIN_CONTACT_PER_CLIENT_PER_DAY'],
        shown: '`5`',
        text: '"Ask this administrator to contact me" requests per client address and day (then 429 with `Retry-After`).',
      },
      {
        names: ['FIND_ADMIN_CONTACT_PER_LOCATION_PER_DAY'],
        shown: '`10`',
        text: '"Ask this administrator to contact me" requests per provider location and day, whoever asks (then 429); one client address may use a fifth of it (2 of 10).',
      },
      {
        names: ['AUTHORITY_MAX_FAILURES', 'AUTHORITY_LOCK_MS'],
        shown: '`5`, `1800000` (30 min)',
        text: 'This many failed authority checks of one location within the time lock its authority check for that long (429 `Authority_Locked`).',
      },
      {
        names: ['AUTHORITY_CLIENT_MAX_FAILURES'],
        shown: '`20`',
        text: 'Failed authority checks per client address and hour.',
      },
      {
        names: ['REGISTRATION_ATTEMPTS_PER_MINUTE'],
        shown: '`20`',
        text: 'Registration calls (provider, authority, registration, email verification) per client address and minute, across instances.',
      },
      {
        names: ['INVITATIONS_PER_HOUR'],
        shown: '`30`',
        text: 'Invitations per hour from one client address, from one administrator (whatever address or session), and to one location (whichever administrator sends); over any → 429 with `Retry-After`.',
      },
    ],
  },
  {
    title: 'Help-desk console (docs/requirements/help-desk.md)',
    settings: [
      {
        names: ['OIDC_ISSUER'],
        shown: 'unset (no console)',
        text: "The enterprise directory's OpenID Connect issuer URL (Entra ID `https://login.microsoftonline.com/<tenant>/v2.0`, Okta `https://<org>.okta.com/oauth2/default`, Keycloak `https://<host>/realms/<realm>`). Unset: every `/ops` page and `/api/ops` route answers 404. `npm start` sets it to its demo directory.",
      },
      {
        names: ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'],
        shown: 'unset',
        text: "The portal's client registration at the directory (a confidential web client; without a secret the portal is a public client using PKCE alone). Required with `OIDC_ISSUER`.",
      },
      {
        names: ['OIDC_REDIRECT_URL'],
        shown: '`$PUBLIC_URL/api/ops/auth/callback`',
        text: 'The redirect URI registered at the directory.',
      },
      {
        names: ['OIDC_SCOPES'],
        shown: '`openid profile email`',
        text: 'Scopes asked for; add the one that releases the group claim when the directory needs it (Okta, Keycloak: `groups`).',
      },
      {
        names: ['OIDC_GROUPS_CLAIM'],
        shown: '`groups`',
        text: "The ID-token (or userinfo) claim listing the person's groups (Entra ID: `groups` or `roles`).",
      },
      {
        names: ['OIDC_HELP_DESK_GROUPS', 'OIDC_SUPERVISOR_GROUPS'],
        joiner: ' / ',
        shown: '`help-desk` / `help-desk-supervisor`',
        text: 'Comma-separated groups mapped to the help-desk and supervisor roles; someone in neither is refused.',
      },
      {
        names: ['OIDC_REQUIRE_MFA'],
        shown: 'true in production, false elsewhere',
        text: 'Refuse a sign-in the directory did not report as multi-factor (`amr` or `acr`, below).',
      },
      {
        names: ['OIDC_MFA_AMR_VALUES'],
        shown: '`mfa,otp,hwk,swk,fido,sms`',
        text: '`amr` values (RFC 8176) that count as multi-factor.',
      },
      {
        names: ['OIDC_MFA_ACR_VALUES'],
        shown: 'none',
        text: '`acr` values that count as multi-factor (e.g. Okta `phr`, Keycloak `gold`).',
      },
      {
        names: ['OIDC_ALLOW_HTTP'],
        shown: '`false`',
        text: 'Lets the portal reach the directory over plain http (the demo directory); refused in production.',
      },
      {
        names: ['OPS_SESSION_IDLE_MS', 'OPS_SESSION_ABSOLUTE_MS'],
        joiner: ' / ',
        shown: '`900000` / `28800000`',
        text: 'The console session ends after 15 minutes without a request (CMS ARS AC-11) and 8 hours after sign-in.',
      },
      {
        names: ['OPS_ROLE_RECHECK_MS'],
        shown: '`300000`',
        text: 'The first console request after this long asks the directory again (userinfo, or the refresh token): signed out there or no longer in a mapped group ends the session.',
      },
      {
        names: ['OPS_ALLOWED_ADDRESSES'],
        shown: 'unset (any address)',
        text: 'Addresses and CIDR ranges, comma-separated, allowed to open `/ops` and `/api/ops`; others get 404.',
      },
    ],
  },
  {
    title: 'Operations',
    settings: [
      {
        names: ['LOG_LEVEL'],
        shown: '`info`',
        text: 'pino level; secrets and personal data are redacted.',
      },
      {
        names: ['LOG_FORMAT'],
        shown: '`json` (`pretty` under `npm start` outside production)',
        text: '`json`: one JSON object per line (production, log collectors). `pretty`: one readable line per event (pino-pretty).',
      },
      {
        names: ['METRICS_PORT'],
        shown: '`9464`',
        text: 'Prometheus metrics at `GET /metrics` on this separate port; `0` any free port, `off` none. One port per instance on a host (`portal@.service` derives it).',
      },
      {
        names: ['METRICS_HOST'],
        shown: '`127.0.0.1`',
        text: "Interface of the metrics port; widen only to the scraper's network.",
      },
      {
        names: ['METRICS_BENCH_GC'],
        shown: '`false`',
        text: 'Benchmarks only: `POST /bench/gc` on the metrics port forces a GC (node `--expose-gc`) and answers the memory after it (bench/README.md).',
      },
      {
        names: ['API_DOCS'],
        shown: 'on outside production, off in production',
        text: 'The API reference at `/api/docs` and the OpenAPI 3.1 document at `/api/openapi.json`.',
      },
      {
        names: ['AUDIT_RETENTION_DAYS'],
        shown: '`90`',
        text: 'Audit events are kept online this long, then deleted by an hourly job in batches, each purge audited; the yearly archive is the database backups.',
      },
      {
        names: ['ONE_TIME_TOKEN_RETENTION_DAYS'],
        shown: '`7`',
        text: 'Used or expired one-time tokens (reset links, codes) are deleted this many days after use or expiry.',
      },
      {
        names: ['SENT_MAIL_RETENTION_DAYS'],
        shown: '`7`',
        text: 'Delivered emails are deleted from the outbox this many days after sending; undelivered ones stay.',
      },
    ],
  },
  {
    title: 'Tests only (refused when `NODE_ENV=production`; the server logs a warning when one is set)',
    settings: [
      {
        names: ['TEST_CLOCK_FILE'],
        shown: 'unset',
        text: 'A file holding a number of milliseconds the portal adds to the system clock (every service and job reads that clock); a change is seen within a second. Browser tests move time past a date with it (docs/decisions/0043).',
      },
      {
        names: ['TEST_JOB_INTERVAL_MS'],
        shown: 'unset',
        text: 'Every periodic job runs at this interval, its first run one interval after start, so a browser test sees reminders, notices and suspensions within seconds.',
      },
    ],
  },
];

const INTRO = [
  '# Configuration',
  '',
  '<!-- Generated by `npm run docs:config` from server/src/config-docs.ts; edit that file, not this one. -->',
  '',
  'Every setting is an environment variable; none is needed on a laptop. `.env.example` lists them all.',
  '',
  'Each line: `NAME` (default) — what it does.',
];

const OUTRO = [
  'A bad value stops the server with one line naming it, e.g.',
  '`Configuration error: PORT must be a port number (got "abc")`, and exit code 1.',
  'So does a damaged `data/secrets.json`: restore it from a backup or set `SESSION_SECRET` and `ENCRYPTION_KEY` (new',
  'secrets would sign everyone out and leave data encrypted with the old key unreadable).',
];

const WIDTH = 120;

/** A list item wrapped at WIDTH columns, continuation lines indented two spaces. */
function wrapItem(text: string): string[] {
  const lines: string[] = [];
  let line = '-';
  for (const word of text.split(' ')) {
    if (line.length + 1 + word.length > WIDTH && line.trim() !== '-') {
      lines.push(line);
      line = `  ${word}`;
    } else line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** The text of docs/configuration.md. */
export function renderConfigurationDoc(groups: readonly SettingGroup[] = SETTING_GROUPS): string {
  const out = [...INTRO];
  for (const group of groups) {
    out.push('', `## ${group.title}`, '');
    for (const setting of group.settings) {
      const names = setting.names.map((name) => `\`${name}\``).join(setting.joiner ?? ', ');
      out.push(...wrapItem(`${names} (${setting.shown}) — ${setting.text}`));
    }
  }
  out.push('', ...OUTRO);
  return `${out.join('\n')}\n`;
}
