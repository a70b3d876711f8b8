'use strict';

// Off Strapi's unsafe defaults: CORS answers only the editors' origin (the CMS's own public address; the default
// reflects any Origin with credentials), and no X-Powered-By header (strapi::poweredBy is left out).
module.exports = ({ env }) => {
  const editorsOrigin = new URL(env('CMS_PUBLIC_URL', '') || `http://localhost:${env.int('CMS_PORT', 1337)}`).origin;
  return [
    'strapi::logger',
    'strapi::errors',
    'strapi::security',
    { name: 'strapi::cors', config: { origin: [editorsOrigin] } },
    'strapi::query',
    'strapi::body',
    'strapi::session',
    'strapi::favicon',
    'strapi::public',
  ];
};
