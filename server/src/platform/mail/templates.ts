import { PAGE_PATHS, tokenLinkPath, wizardStepPath } from '@portal/contracts/paths';
import { INVITATION_TTL_MS } from '@portal/contracts/invitations';
import { REACTIVATION_CODE_TTL_MS, RESET_TOKEN_TTL_MS } from '@portal/contracts/login-help';
import { z } from 'zod';

/** The product's name as emails show it. */
export const PRODUCT_NAME = 'Medicare Provider Portal';

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** A link into the portal, always built from PUBLIC_URL (never the request's Host header). */
export function portalLink(publicUrl: string, path: string): string {
  return new URL(path.startsWith('/') ? path : `/${path}`, `${publicUrl}/`).toString();
}

/**
 * A time span as people read it in an email ("30 minutes", "1 hour", "2 hours"): never a clock time, whose time zone
 * (the server's GMT) would not be the reader's.
 */
export function durationText(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 60 || minutes % 60 !== 0) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = minutes / 60;
  return `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}

/**
 * Text someone outside the portal wrote (the contact relay's visitor), shown fenced: a marked, quoted block whose
 * every line starts with "> " in the plain-text part and a blockquote in the HTML part, so nothing in it (a fake
 * footer, a "security notice") can read as the portal's own words; its links are made inert (`inertText`).
 */
interface QuotedText {
  /** The line above the block, naming who wrote it (not the portal). */
  heading: string;
  quoted: string;
}

interface Body {
  subject: string;
  /** Paragraphs of plain text, each escaped for the HTML part; a quoted block is fenced (`QuotedText`). */
  paragraphs: (string | QuotedText)[];
  link?: { label: string; path: string };
}

/** Where a quoted block ends, in the plain-text part; how it looks in the HTML part (a grey bar on its left). */
const QUOTE_END = '[End of the quoted text]';
const QUOTE_STYLE = 'margin:0 0 1em;padding:0.5em 1em;border-left:4px solid #888;background:#f3f3f3';

/**
 * Text from outside made link-free, as security teams "defang" addresses they quote (docs/decisions/0048): a scheme
 * loses its meaning (`https://` → `hxxps://`, `ftp://` → `fxp://`), and the dots of anything a mail program would
 * turn into a link by itself (a host name such as `portal-renewal.example.net`, `www.…`, an email address's domain,
 * an IPv4 address) become `[.]`. Mail programs link neither, and the reader still sees what was written.
 */
export function inertText(text: string): string {
  return text
    .replace(/\bh(tt)(?=ps?:)|\bf(t)(?=p:)/gi, (scheme: string) => scheme.replace(/t/g, 'x').replace(/T/g, 'X'))
    .replace(/[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu, (name) =>
      // Host names (the last label at least two letters: not "e.g") and dotted IPv4 addresses; "3.5" stays.
      /\.\p{L}[\p{L}\p{N}-]+$/u.test(name) || /^\d{1,3}(\.\d{1,3}){3}$/.test(name) ? name.replaceAll('.', '[.]') : name,
    );
}

const isQuote = (p: string | QuotedText): p is QuotedText => typeof p !== 'string';
const quotedLines = (q: QuotedText) => inertText(q.quoted).split(/\r\n|[\r\n\u2028\u2029]/);

function render(publicUrl: string, body: Body): RenderedEmail {
  const url = body.link ? portalLink(publicUrl, body.link.path) : undefined;
  const textOf = (p: string | QuotedText) =>
    isQuote(p) ? [p.heading, ...quotedLines(p).map((line) => `> ${line}`.trimEnd()), QUOTE_END].join('\n') : p;
  const htmlOf = (p: string | QuotedText) =>
    isQuote(p)
      ? `<p>${escapeHtml(p.heading)}</p>\n<blockquote style="${QUOTE_STYLE}">${quotedLines(p).map(escapeHtml).join('<br>\n')}</blockquote>`
      : `<p>${escapeHtml(p)}</p>`;
  const text =
    [...body.paragraphs.map(textOf), ...(url ? [`${body.link!.label}: ${url}`] : []), `— ${PRODUCT_NAME}`].join(
      '\n\n',
    ) + '\n';
  const html = [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(body.subject)}</title></head><body>`,
    `<h1>${escapeHtml(PRODUCT_NAME)}</h1>`,
    ...body.paragraphs.map(htmlOf),
    ...(url ? [`<p><a href="${escapeHtml(url)}">${escapeHtml(body.link!.label)}</a></p>`] : []),
    '</body></html>',
  ].join('\n');
  return { subject: `${PRODUCT_NAME}: ${body.subject}`, text, html };
}

/** Every notice of a credential change says this (docs/requirements/session.md#credential-changes). */
const TOKENS_CANCELLED =
  'Links and codes we emailed you before this change no longer work, and an email address change that was not yet confirmed was cancelled: ask again if you still need one.';

/** The most people or requests one email lists (the rest are counted). */
export const LISTED_MAX = 50;

/** Each template: the data it needs (checked when the email is queued) and how it reads. */
export const emailTemplates = {
  'account-locked': {
    data: z.union([
      z.strictObject({
        firstName: z.string().max(100),
        unlockAt: z.iso.datetime({ offset: true }),
        /** How long the lock lasts (emails queued before this field existed say "later"). */
        lockMinutes: z.number().int().positive().optional(),
      }),
      /** The daily ceiling of wrong passwords was reached: only the help desk unlocks the account. */
      z.strictObject({ firstName: z.string().max(100), helpDesk: z.literal(true) }),
    ]),
    body: (d: { firstName: string; unlockAt?: string; lockMinutes?: number; helpDesk?: true }): Body => ({
      subject: 'Your account is locked',
      paragraphs: [
        `Hello ${d.firstName},`,
        d.helpDesk
          ? 'Your account was locked after too many failed login attempts in one day. Only the help desk can unlock it now: call the provider contact center.'
          : `Your account was locked after several failed login attempts. ${d.lockMinutes ? `You can try again in ${durationText(d.lockMinutes * 60_000)}.` : 'You can try again later.'}`,
        'If this was not you, reset your password and contact the help desk.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'password-changed': {
    data: z.strictObject({
      firstName: z.string().max(100),
      /** The passkeys the account keeps (a password change does not remove them): the owner checks the list. */
      passkeys: z.array(z.string().max(100)).max(20).optional(),
    }),
    body: (d: { firstName: string; passkeys?: string[] }): Body => ({
      subject: 'Your password was changed',
      paragraphs: [
        `Hello ${d.firstName},`,
        'The password of your account was just changed. If this was not you, contact the help desk at once.',
        TOKENS_CANCELLED,
        ...(d.passkeys?.length
          ? [
              `Your account keeps its passkeys: ${d.passkeys.map((name) => `"${name}"`).join(', ')}. A passkey never replaces the password, but if you do not recognise one, remove it on My account and contact the help desk.`,
            ]
          : []),
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'passkey-changed': {
    data: z.strictObject({
      firstName: z.string().max(100),
      change: z.enum(['added', 'removed']),
      name: z.string().max(100),
    }),
    body: (d: { firstName: string; change: 'added' | 'removed'; name: string }): Body => ({
      subject: d.change === 'added' ? 'A passkey was added to your account' : 'A passkey was removed from your account',
      paragraphs: [
        `Hello ${d.firstName},`,
        d.change === 'added'
          ? `A passkey named "${d.name}" was just added to your account. It can be used instead of your authenticator app at login.`
          : `The passkey named "${d.name}" was just removed from your account: it no longer works at login.`,
        'Every other session of your account was logged out.',
        TOKENS_CANCELLED,
        'If this was not you, log in, change your password, replace your authenticator app (this also removes every passkey) and contact the help desk at once.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  // Login help (docs/requirements/portal.md#login-help).
  'username-reminder': {
    data: z.strictObject({ usernames: z.array(z.string().max(64)).min(1).max(20) }),
    body: (d: { usernames: string[] }): Body => ({
      subject: 'Your username',
      paragraphs: [
        'Someone asked for the username of the account that uses this email address.',
        `${d.usernames.length === 1 ? 'Your username is' : 'Your usernames are'}: ${d.usernames.join(', ')}`,
        'If this was not you, you can ignore this email: nothing was changed.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'password-reset-link': {
    data: z.strictObject({
      firstName: z.string().max(100),
      token: z.string().max(256),
      expiresAt: z.iso.datetime({ offset: true }),
    }),
    body: (d: { firstName: string; token: string; expiresAt: string }): Body => ({
      subject: 'Reset your password',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Someone asked to reset the password of your account. The link below works once, within ${durationText(RESET_TOKEN_TTL_MS)} of this email. You will be asked one of your security questions.`,
        'If this was not you, ignore this email: your password stays as it is.',
      ],
      // The token travels in the fragment, so it never reaches server logs or Referer headers.
      link: { label: 'Reset your password', path: tokenLinkPath(PAGE_PATHS.resetPassword, d.token) },
    }),
  },
  'reactivation-code': {
    data: z.strictObject({
      firstName: z.string().max(100),
      code: z.string().max(32),
      expiresAt: z.iso.datetime({ offset: true }),
      /**
       * `disabled_inactive`: the code reactivates; otherwise the account cannot be reactivated online (`internal`:
       * contractor staff, whose password belongs to the enterprise directory).
       */
      status: z.enum(['disabled_inactive', 'locked', 'disabled_admin', 'internal']),
    }),
    body: (d: { firstName: string; code: string; expiresAt: string; status: string }): Body => ({
      subject: 'Your account reactivation code',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Your reactivation code is ${d.code}. Enter it within ${durationText(REACTIVATION_CODE_TTL_MS)} of this email.`,
        d.status === 'disabled_inactive'
          ? 'Enter it on the reactivation page, then answer one of your security questions and choose a new password.'
          : d.status === 'internal'
            ? 'Your account is a contractor staff account: its password belongs to the enterprise directory, so it cannot be reactivated here. Reset your password through the enterprise directory, or contact your IT service desk.'
            : d.status === 'locked'
              ? 'Your account is locked and cannot be reactivated online: contact the provider contact center (help desk).'
              : "Your account was disabled by an administrator and cannot be reactivated online: contact your location's administrator.",
        'If this was not you, ignore this email: nothing was changed.',
      ],
      // The code step: the person gave the username and date of birth already (a new tab asks for the username).
      link: { label: 'Reactivate your account', path: wizardStepPath(PAGE_PATHS.reactivate, 'code') },
    }),
  },
  'account-reactivated': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): Body => ({
      subject: 'Your account is active again',
      paragraphs: [
        `Hello ${d.firstName},`,
        'Your account was reactivated and its password changed. Log in with the new password and your authenticator app.',
        'If this was not you, contact the help desk at once.',
        TOKENS_CANCELLED,
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'account-disabled-inactive': {
    data: z.strictObject({ firstName: z.string().max(100), days: z.number().int() }),
    body: (d: { firstName: string; days: number }): Body => ({
      subject: 'Your account was disabled after inactivity',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Your account was disabled because nobody logged in to it for ${d.days} days. You can reactivate it yourself: you will need your username, date of birth, this email address and one of your security answers.`,
      ],
      // The code step: the person gave the username and date of birth already (a new tab asks for the username).
      link: { label: 'Reactivate your account', path: wizardStepPath(PAGE_PATHS.reactivate, 'code') },
    }),
  },
  // DDE access (docs/requirements/portal.md#dde-access-request).
  'dde-request-received': {
    data: z.strictObject({
      firstName: z.string().max(100),
      referenceNumber: z.string().max(32),
      legalName: z.string().max(200),
    }),
    body: (d: { firstName: string; referenceNumber: string; legalName: string }): Body => ({
      subject: `DDE access request ${d.referenceNumber} received`,
      paragraphs: [
        `Hello ${d.firstName},`,
        `We received your direct data entry (DDE) access request for ${d.legalName}. Its reference number is ${d.referenceNumber}: quote it when you contact us about it.`,
      ],
    }),
  },
  'recovery-codes-renewed': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): Body => ({
      subject: 'New recovery codes were made for your account',
      paragraphs: [
        `Hello ${d.firstName},`,
        'New recovery codes were made for your account on My account; the old codes no longer work. Your authenticator app is unchanged. If this was not you, contact the help desk at once.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'mfa-changed': {
    data: z.strictObject({
      firstName: z.string().max(100),
      /** How many passkeys the replacement removed (docs/decisions/0030-passkeys-and-credential-changes.md). */
      passkeysRemoved: z.number().int().min(0).optional(),
    }),
    body: (d: { firstName: string; passkeysRemoved?: number }): Body => ({
      subject: 'Your authenticator app was replaced',
      paragraphs: [
        `Hello ${d.firstName},`,
        'A new authenticator app was set up for your account and new recovery codes were issued; the old app and codes no longer work. If this was not you, contact the help desk at once.',
        ...(d.passkeysRemoved
          ? [
              `Your ${d.passkeysRemoved === 1 ? 'passkey was' : `${d.passkeysRemoved} passkeys were`} removed with the old app: add your passkeys again on My account if you want to use them.`,
            ]
          : []),
        TOKENS_CANCELLED,
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'verify-email': {
    data: z.strictObject({
      firstName: z.string().max(100),
      token: z.string().regex(/^[A-Za-z0-9_-]{20,200}$/),
      /** `user`: an end user's registration (docs/requirements/staff-accounts.md#end-users); default administrator. */
      role: z.enum(['administrator', 'user']).optional(),
    }),
    body: (d: { firstName: string; token: string; role?: 'administrator' | 'user' }): Body => ({
      subject: 'Confirm your email address',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Thank you for registering ${d.role === 'user' ? 'to ask for access to your provider locations' : 'as the administrator of your provider location'}. Confirm your email address to activate your account. The link works once and expires in 72 hours; after that the registration is removed and you can register again.`,
        'At your first login you will set up an authenticator app for the second login step.',
        'If you did not register, ignore this email.',
      ],
      // The token travels in the fragment, so it never reaches server logs or Referer headers.
      link: { label: 'Confirm my email address', path: tokenLinkPath(PAGE_PATHS.verifyEmail, d.token) },
    }),
  },
  'registration-email-in-use': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): Body => ({
      subject: 'Someone tried to register with your email address',
      paragraphs: [
        `Hello ${d.firstName},`,
        'Someone just tried to register a new administrator account with this email address, which already belongs to an account. No new account was activated.',
        'If it was you, log in with your existing account instead (use Login help if you forgot your username or password). Ask the administrator of another location to give your account access to it.',
        'If it was not you, you can ignore this email.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  // Find my administrator (docs/requirements/portal.md#find-my-administrator): a visitor's request, relayed.
  'find-admin-contact-request': {
    data: z.strictObject({
      firstName: z.string().max(100),
      legalName: z.string().max(200),
      npi: z.string().max(10),
      ptan: z.string().max(10),
      name: z.string().max(100),
      email: z.string().max(254),
      phone: z.string().max(10),
      message: z.string().max(500),
    }),
    body: (d: {
      firstName: string;
      legalName: string;
      npi: string;
      ptan: string;
      name: string;
      email: string;
      phone: string;
      message: string;
    }): Body => ({
      subject: 'Someone asks you to contact them',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Someone looked up the administrator of ${d.legalName} (NPI ${d.npi}, PTAN ${d.ptan}) on the portal's "Find my administrator" page and asks you to contact them. Your email address was not shown to them.`,
        `Name: ${inertText(d.name)}`,
        `Email: ${d.email}`,
        `Phone: ${d.phone.slice(0, 3)}-${d.phone.slice(3, 6)}-${d.phone.slice(6)}`,
        {
          heading: `Their message, quoted as they typed it (the visitor wrote it, not the ${PRODUCT_NAME}; links in it are disabled):`,
          quoted: d.message,
        },
        'The portal did not check who they are: confirm it before you give anyone access to your location. If the request looks unwanted, ignore this email.',
      ],
    }),
  },
  // My account (docs/requirements/session.md#my-account).
  'email-change-link': {
    data: z.strictObject({ firstName: z.string().max(100), token: z.string().regex(/^[A-Za-z0-9_-]{20,200}$/) }),
    body: (d: { firstName: string; token: string }): Body => ({
      subject: 'Confirm your new email address',
      paragraphs: [
        `Hello ${d.firstName},`,
        'You asked to use this email address for your account. Open the link below to confirm it; until then your account keeps its current address. The link works once and expires in 72 hours.',
        'If you did not ask for this, ignore this email: nothing changes.',
      ],
      // The token travels in the fragment, so it never reaches server logs or Referer headers.
      link: { label: 'Confirm my new email address', path: tokenLinkPath(PAGE_PATHS.confirmEmail, d.token) },
    }),
  },
  'email-change-requested': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): Body => ({
      subject: 'A change of your email address was asked for',
      paragraphs: [
        `Hello ${d.firstName},`,
        'Someone logged in to your account asked to change its email address. The address changes only when the link sent to the new address is opened; until then this address stays on the account.',
        'If this was not you, log in, change your password and contact the help desk at once.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'email-change-in-use': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): Body => ({
      subject: 'Someone tried to use your email address',
      paragraphs: [
        `Hello ${d.firstName},`,
        'Someone asked to move another portal account to this email address, which already belongs to your account. Nothing was changed.',
        'If it was you, log in with your existing account instead. If it was not you, you can ignore this email.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'email-changed': {
    data: z.strictObject({ firstName: z.string().max(100) }),
    body: (d: { firstName: string }): Body => ({
      subject: 'Your email address was changed',
      paragraphs: [
        `Hello ${d.firstName},`,
        'The email address of your account was changed: from now on, emails about your account go to the new address, not to this one.',
        'If this was not you, contact the help desk at once.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'account-details-changed': {
    data: z.strictObject({ firstName: z.string().max(100), change: z.enum(['phone', 'security-answers']) }),
    body: (d: { firstName: string; change: 'phone' | 'security-answers' }): Body => ({
      subject: d.change === 'phone' ? 'Your phone number was changed' : 'Your security questions were changed',
      paragraphs: [
        `Hello ${d.firstName},`,
        d.change === 'phone'
          ? 'The phone number of your account was just changed.'
          : 'The security questions and answers of your account were just replaced.',
        'If this was not you, change your password and contact the help desk at once.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  // Staff accounts (docs/requirements/staff-accounts.md#the-administrators-console).
  'access-request-decided': {
    data: z.strictObject({
      firstName: z.string().max(100),
      legalName: z.string().max(200),
      decision: z.enum(['approved', 'denied']),
      role: z.enum(['administrator', 'user']).optional(),
      /** The denying administrator's reason, when they gave one. */
      reason: z.string().max(500).optional(),
    }),
    body: (d: {
      firstName: string;
      legalName: string;
      decision: 'approved' | 'denied';
      role?: 'administrator' | 'user';
      reason?: string;
    }): Body =>
      d.decision === 'approved'
        ? {
            subject: `Your access to ${d.legalName} was approved`,
            paragraphs: [
              `Hello ${d.firstName},`,
              `An administrator of ${d.legalName} approved your request: you now have access to this provider location${d.role === 'administrator' ? ' as one of its administrators' : ''}. Log in to use it.`,
            ],
            link: { label: 'Log in', path: PAGE_PATHS.login },
          }
        : {
            subject: `Your request for access to ${d.legalName} was denied`,
            paragraphs: [
              `Hello ${d.firstName},`,
              `An administrator of ${d.legalName} denied your request for access to this provider location.`,
              ...(d.reason ? [`The reason they gave: ${d.reason}`] : []),
              'If you think this is a mistake, contact the administrator of the location.',
            ],
          },
  },
  'account-changed-by-admin': {
    data: z.strictObject({
      firstName: z.string().max(100),
      change: z.enum(['disabled', 'enabled', 'unlocked', 'mfa-reset', 'sessions-ended', 'made-administrator']),
      /** Who acted: an administrator of the person's location (the default) or the contractor's help desk. */
      by: z.enum(['administrator', 'help-desk']).optional(),
      /** The location, for `made-administrator`. */
      location: z.string().max(300).optional(),
    }),
    body: (d: {
      firstName: string;
      change: 'disabled' | 'enabled' | 'unlocked' | 'mfa-reset' | 'sessions-ended' | 'made-administrator';
      by?: 'administrator' | 'help-desk';
      location?: string;
    }): Body => {
      const helpDesk = d.by === 'help-desk';
      const who = helpDesk ? 'The help desk' : 'An administrator of your provider location';
      const what = {
        disabled: {
          subject: 'Your account was disabled',
          text: `${who} disabled your account: you cannot log in until ${helpDesk ? 'the help desk' : 'an administrator'} enables it again.`,
        },
        enabled: {
          subject: 'Your account was enabled',
          text: `${who} enabled your account again: you can log in.`,
        },
        unlocked: {
          subject: 'Your account was unlocked',
          text: `${who} unlocked your account: you can log in again.`,
        },
        'mfa-reset': {
          subject: 'Your authenticator app was reset',
          text: `${who} reset the second step of your login: your authenticator app, recovery codes and passkeys no longer work, and you were logged out. At your next login you set up an authenticator app again.`,
        },
        'sessions-ended': {
          subject: 'You were logged out',
          text: `${who} ended every session of your account: log in again to continue.`,
        },
        'made-administrator': {
          subject: 'You are now an administrator',
          text: `${who} made you an administrator of ${d.location ?? 'your provider location'}: you approve its access requests and recertify its people.`,
        },
      }[d.change];
      return {
        subject: what.subject,
        paragraphs: [`Hello ${d.firstName},`, what.text, 'If you did not expect this, contact the help desk.'],
        ...(d.change === 'disabled' ? {} : { link: { label: 'Log in', path: PAGE_PATHS.login } }),
      };
    },
  },
  // Staff accounts (docs/requirements/staff-accounts.md#invitations).
  invitation: {
    data: z.strictObject({
      inviterName: z.string().max(201),
      locationName: z.string().max(300),
      role: z.enum(['administrator', 'user']),
      token: z.string().regex(/^[A-Za-z0-9_-]{20,200}$/),
    }),
    body: (d: { inviterName: string; locationName: string; role: 'administrator' | 'user'; token: string }): Body => ({
      subject: `You are invited to ${d.locationName}`,
      paragraphs: [
        'Hello,',
        `${d.inviterName || 'An administrator'} invited you to use the ${PRODUCT_NAME} for ${d.locationName}, as ${d.role === 'administrator' ? 'an administrator' : 'a user'} of that provider location.`,
        `Open the link below to create your account with this email address, or, if you already have an account with it, to log in and add the location. The link works once, within ${Math.round(INVITATION_TTL_MS / 86_400_000)} days of this email.`,
        'If you did not expect this invitation, ignore this email: nothing happens without the link.',
      ],
      // The token travels in the fragment, so it never reaches server logs or Referer headers.
      link: { label: 'Open the invitation', path: tokenLinkPath(PAGE_PATHS.invitation, d.token) },
    }),
  },
  // Staff accounts (docs/requirements/staff-accounts.md): recertification and request notices to administrators.
  'recertification-due': {
    data: z.strictObject({
      firstName: z.string().max(100),
      people: z
        .array(z.strictObject({ name: z.string().max(201), location: z.string().max(300), daysLeft: z.number().int() }))
        .min(1)
        .max(LISTED_MAX),
      /** People due beyond the listed ones. */
      more: z.number().int().min(0).default(0),
    }),
    body: (d: {
      firstName: string;
      people: { name: string; location: string; daysLeft: number }[];
      more?: number;
    }): Body => ({
      subject: 'Recertification due for people of your locations',
      paragraphs: [
        `Hello ${d.firstName},`,
        'The access of these people to your provider locations must be recertified: keep it or remove it, or it is suspended on its date.',
        ...d.people.map((p) => `${p.name}, ${p.location}: due in ${p.daysLeft} ${p.daysLeft === 1 ? 'day' : 'days'}.`),
        ...(d.more ? [`And ${d.more} more.`] : []),
      ],
      link: { label: 'Recertify', path: PAGE_PATHS.recertify },
    }),
  },
  'location-access-suspended': {
    data: z.strictObject({
      firstName: z.string().max(100),
      locations: z.array(z.string().max(300)).min(1).max(LISTED_MAX),
    }),
    body: (d: { firstName: string; locations: string[] }): Body => ({
      subject: 'Your access to a provider location was suspended',
      paragraphs: [
        `Hello ${d.firstName},`,
        `Your access to ${d.locations.join('; ')} was not recertified by an administrator of the location in time, so it is suspended.`,
        'Ask an administrator of the location to recertify it. Your account itself still works.',
      ],
      link: { label: 'Log in', path: PAGE_PATHS.login },
    }),
  },
  'access-requests-pending': {
    data: z.strictObject({
      firstName: z.string().max(100),
      /** `new`: the hourly notice of requests that arrived; `digest`: the weekly list of those still pending. */
      kind: z.enum(['new', 'digest']),
      requests: z
        .array(
          z.strictObject({ name: z.string().max(201), username: z.string().max(64), location: z.string().max(300) }),
        )
        .min(1)
        .max(LISTED_MAX),
      more: z.number().int().min(0).default(0),
    }),
    body: (d: {
      firstName: string;
      kind: 'new' | 'digest';
      requests: { name: string; username: string; location: string }[];
      more?: number;
    }): Body => ({
      subject:
        d.kind === 'new' ? 'New requests for access to your locations' : 'Requests still waiting for your decision',
      paragraphs: [
        `Hello ${d.firstName},`,
        d.kind === 'new'
          ? 'These people asked for access to your provider locations:'
          : 'These requests for access to your provider locations are still waiting for a decision:',
        ...d.requests.map((r) => `${r.name} (${r.username}), ${r.location}.`),
        ...(d.more ? [`And ${d.more} more.`] : []),
        // "Staff accounts": the one name of the administrator's pages (portal home, page title, emails).
        'Approve or deny each one on Staff accounts.',
      ],
      link: { label: 'Open Staff accounts', path: PAGE_PATHS.recertify.replace(/\/recertify$/, '') },
    }),
  },
} as const;

export type EmailTemplateName = keyof typeof emailTemplates;
export type EmailTemplateData<T extends EmailTemplateName> = z.input<(typeof emailTemplates)[T]['data']>;

export function renderEmail(publicUrl: string, template: string, data: unknown): RenderedEmail {
  const entry = emailTemplates[template as EmailTemplateName];
  if (!entry) throw new Error(`unknown email template ${template}`);
  return render(publicUrl, entry.body(entry.data.parse(data) as never));
}
