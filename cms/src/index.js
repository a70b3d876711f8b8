'use strict';
const { provisionPortal } = require('./portal/provision');
const { seedDemoContent } = require('./portal/seed');
const { applyAdminViews } = require('./portal/admin-views');
const { keepTopicAddresses } = require('./portal/topic-addresses');
const { TOPIC, applyTopicRules } = require('./portal/topic-rules');
const { markdownErrors, withoutContentChecks } = require('./portal/content-rules');
const { errors } = require('@strapi/utils');

module.exports = {
  register({ strapi }) {
    // The topics' jurisdictions: stored as JSON (the list of codes the portal reads), edited as a labelled
    // group of checkboxes (src/admin/jurisdictions-input.jsx).
    strapi.customFields.register({ name: 'jurisdictions', type: 'json' });
    // The users-permissions plugin's User type (end users of Strapi's own API) holds nothing the portal uses: the
    // CMS has no end users (sign-up is off), so editors never see it beside the content.
    const user = strapi.contentType('plugin::users-permissions.user');
    if (user) user.pluginOptions = { ...user.pluginOptions, 'content-manager': { visible: false } };
    strapi.documents.use(async (context, next) => {
      if (context.action !== 'create' && context.action !== 'update') return next();
      if (context.uid === TOPIC) await applyTopicRules(strapi, context);
      // Every markdown field of the portal's content (src/portal/content-rules.js), each problem on its field.
      if (context.uid.startsWith('api::')) {
        const found = markdownErrors(strapi, context.uid, context.params?.data);
        if (found.length) throw new errors.ValidationError(found.map((e) => e.message).join(' '), { errors: found });
      }
      return next();
    });
  },

  async bootstrap({ strapi }) {
    // The demo content keeps a `javascript:` link on purpose: it shows the site's own defence.
    await withoutContentChecks(() => seedDemoContent(strapi));
    await keepTopicAddresses(strapi);
    await provisionPortal(strapi);
    await applyAdminViews(strapi);
  },
};
