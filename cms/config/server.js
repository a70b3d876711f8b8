'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { loadSecrets } = require('./secrets');

module.exports = ({ env }) => {
  // Uploaded media live in <public dir>/uploads (served at /uploads/*). Tests can point CMS_PUBLIC_DIR at a
  // temporary folder so throw-away databases do not leave seed images in cms/public/uploads.
  const publicDir = path.resolve(__dirname, '..', env('CMS_PUBLIC_DIR', 'public'));
  fs.mkdirSync(path.join(publicDir, 'uploads'), { recursive: true });
  return {
    host: env('CMS_HOST', '127.0.0.1'),
    port: env.int('CMS_PORT', 1337),
    url: env('CMS_PUBLIC_URL', ''),
    app: { keys: loadSecrets().appKeys },
    dirs: { public: publicDir },
    webhooks: { populateRelations: false },
  };
};
