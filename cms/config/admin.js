'use strict';
const { loadSecrets } = require('./secrets');
const { portalUrl, previewUrl } = require('../src/portal/preview');

module.exports = () => {
  const secrets = loadSecrets();
  return {
    auth: { secret: secrets.adminJwtSecret },
    apiToken: { salt: secrets.apiTokenSalt },
    transfer: { token: { salt: secrets.transferTokenSalt } },
    secrets: { encryptionKey: secrets.encryptionKey },
    flags: { nps: false, promoteEE: false },
    // Strapi's preview opens the portal's own page for the draft in the admin (a link signed for that document,
    // cms/src/portal/preview.js); the portal's origin may be framed by the admin. Types without a page answer null.
    preview: {
      enabled: true,
      config: { allowedOrigins: [portalUrl()], handler: previewUrl },
    },
  };
};
