import type { BrowserContext, CDPSession, Page } from 'playwright-core';

/**
 * Chromium's virtual platform authenticator on this page (CDP WebAuthn domain): it holds the passkeys created here.
 * `replace()` swaps it for a new one (a device of its own: one authenticator holds one passkey per account).
 */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  let { authenticatorId } = await addOne(cdp);
  return {
    replace: async () => {
      await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
      ({ authenticatorId } = await addOne(cdp));
    },
  };
}

function addOne(cdp: CDPSession) {
  return cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}
