'use strict';
const { loadSecrets } = require('./secrets');

module.exports = () => ({
  'users-permissions': { config: { jwtSecret: loadSecrets().jwtSecret } },
});
