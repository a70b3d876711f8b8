'use strict';
const { provisionPortal } = require('./portal/provision');
const { seedDemoContent } = require('./portal/seed');
const { TOPIC, applyTopicRules } = require('./portal/topic-rules');

module.exports = {
  register({ strapi }) {
    // The topics' jurisdictions: stored as JSON (the list of codes the portal reads), edited as a labelled
    // group of checkboxes (src/admin/jurisdictions-input.jsx).
    strapi.customFields.register({ name: 'jurisdictions', type: 'json' });
    strapi.documents.use(async (context, next) => {
      if (context.uid === TOPIC && (context.action === 'create' || context.action === 'update'))
        await applyTopicRules(strapi, context);
      return next();
    });
  },

  async bootstrap({ strapi }) {
    await seedDemoContent(strapi);
    await provisionPortal(strapi);
  },
};
