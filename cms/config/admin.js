'use strict';
const { loadSecrets } = require('./secrets');

module.exports = () => {
  const secrets = loadSecrets();
  return {
    auth: { secret: secrets.adminJwtSecret },
    apiToken: { salt: secrets.apiTokenSalt },
    transfer: { token: { salt: secrets.transferTokenSalt } },
    secrets: { encryptionKey: secrets.encryptionKey },
    flags: { nps: false, promoteEE: false },
    // Strapi's preview is not wired to the portal yet: off, so the entry's side panel does not offer a "Set up
    // preview" button that opens Strapi's developer documentation.
    preview: { enabled: false },
  };
};
