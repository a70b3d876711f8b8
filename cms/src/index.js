'use strict';
const { validateJurisdictions } = require('./portal/jurisdictions');
const { provisionPortal } = require('./portal/provision');
const { seedDemoContent } = require('./portal/seed');

module.exports = {
  register({ strapi }) {
    // Topics may only name the portal's jurisdictions (J5A, J5B, J8A, J8B).
    strapi.documents.use(async (context, next) => {
      if (context.uid === 'api::topic.topic' && (context.action === 'create' || context.action === 'update')) {
        validateJurisdictions(context.params?.data?.jurisdictions);
      }
      return next();
    });
  },

  async bootstrap({ strapi }) {
    await seedDemoContent(strapi);
    await provisionPortal(strapi);
  },
};
