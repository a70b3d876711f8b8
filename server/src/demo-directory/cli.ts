import { DEMO_DIRECTORY_PASSWORD, DEMO_OPERATORS, startDemoDirectory } from './provider';

/**
 * `npm start`'s demo enterprise directory (docs/requirements/help-desk.md): a real OpenID provider on
 * DEMO_DIRECTORY_PORT (default 3001) whose client is the portal at PUBLIC_URL (or http://localhost:$PORT), with the
 * client secret `npm start` hands both (OIDC_CLIENT_SECRET). Never part of a production deployment.
 */
const port = Number(process.env.DEMO_DIRECTORY_PORT ?? 3001);
const portal = (process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
const directory = await startDemoDirectory({
  port,
  host: process.env.DEMO_DIRECTORY_HOST ?? '127.0.0.1',
  publicHost: 'localhost',
  redirectUris: [`${portal}/api/ops/auth/callback`],
  clientSecret: process.env.OIDC_CLIENT_SECRET,
});
console.log(`demo directory at ${directory.issuer} (password for every account: ${DEMO_DIRECTORY_PASSWORD})`);
for (const account of DEMO_OPERATORS) console.log(`  ${account.username.padEnd(11)} ${account.groups.join(', ')}`);
const stop = () => void directory.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
