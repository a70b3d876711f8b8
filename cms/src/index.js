'use strict';
const { validateJurisdictions } = require('./portal/jurisdictions');
const { provisionPortal } = require('./portal/provision');
const { seedDemoContent } = require('./portal/seed');

module.exports = {
  register({ strapi }) {
    // Topics may only name the portal's jurisdictions (packages/contracts/src/jurisdictions.json).
    strapi.documents.use(async (context, next) => {
      if (context.uid === 'api::topic.topic' && (context.action === 'create' || context.action === 'update')) {
        const data = context.params?.data;
        validateJurisdictions(data?.jurisdictions);
        // The admin fills the slug from the title; do the same for API-created topics. Once set it is never
        // regenerated, so links stay stable when a title changes.
        if (context.action === 'create' && data && !data.slug && data.title) {
          data.slug = await strapi.plugin('content-manager').service('uid').generateUIDField({
            contentTypeUID: context.uid,
            field: 'slug',
            data,
            locale: context.params.locale,
          });
        }
      }
      return next();
    });
  },

  async bootstrap({ strapi }) {
    await seedDemoContent(strapi);
    await provisionPortal(strapi);
  },
};
