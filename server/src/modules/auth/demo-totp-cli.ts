import { DEMO_TOTP_SECRETS } from './demo-accounts';
import { currentTotp } from '../../identity/mfa/totp';

/** `npm run demo:totp -- <username>`: the current TOTP code of a demo account enrolled with a published secret. */
const usage = `Usage: npm run demo:totp -- <username>   (demo accounts: ${Object.keys(DEMO_TOTP_SECRETS).join(', ')})`;

if (process.env.NODE_ENV === 'production') {
  console.error('demo:totp refuses to run with NODE_ENV=production: demo accounts do not belong in production.');
  process.exit(1);
}
const username = process.argv[2]?.trim().toLowerCase();
const secret = username ? DEMO_TOTP_SECRETS[username] : undefined;
if (!secret) {
  console.error(username ? `${username} is not a demo account with a fixed TOTP secret.\n${usage}` : usage);
  process.exit(1);
}
const now = new Date();
const secondsLeft = 30 - (Math.floor(now.getTime() / 1000) % 30);
console.log(`${await currentTotp(secret, now)}  (valid for ${secondsLeft} more seconds; each code works once)`);
