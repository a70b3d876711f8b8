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
  };
};
