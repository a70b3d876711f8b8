'use strict';
const fs = require('node:fs');
const path = require('node:path');
const {
  topics,
  draftTopic,
  homePage,
  licenseText,
  securityQuestions,
  systemUseNoticeText,
} = require('../seed/content');

async function uploadImage(strapi) {
  const file = path.join(__dirname, '..', 'seed', 'assets', 'claim-flow.svg');
  const stats = fs.statSync(file);
  const [uploaded] = await strapi
    .plugin('upload')
    .service('upload')
    .upload({
      data: {
        fileInfo: {
          name: 'claim-flow.svg',
          alternativeText: 'How an electronic claim moves from your office to payment',
        },
      },
      files: { filepath: file, originalFilename: 'claim-flow.svg', mimetype: 'image/svg+xml', size: stats.size },
    });
  return uploaded;
}

/** The login page's system-use notice, also into a CMS seeded before the notice existed (it must never be missing). */
async function seedSystemUseNotice(strapi) {
  const notices = strapi.documents('api::system-use-notice.system-use-notice');
  if (await notices.findFirst({ status: 'published' })) return;
  await notices.create({ data: { NoticeText: systemUseNoticeText }, status: 'published' });
}

/**
 * Gives the seeded questions of a CMS seeded before questions had a key their key (matched by text), so the portal's
 * stored answers and demo accounts refer to them. Questions editors added get a key when next saved.
 */
async function backfillSecurityQuestionKeys(strapi) {
  const rows = await strapi.db
    .query('api::security-question.security-question')
    .findMany({ where: { key: { $null: true } }, select: ['id', 'question'] });
  for (const row of rows) {
    const seeded = securityQuestions.find((q) => q.question === row.question);
    if (seeded)
      await strapi.db.query('api::security-question.security-question').update({
        where: { id: row.id },
        data: { key: seeded.key },
      });
  }
}

/** Seeds the demo content once, on an empty database (no topic at all, drafts included). */
async function seedDemoContent(strapi) {
  await seedSystemUseNotice(strapi);
  await backfillSecurityQuestionKeys(strapi);
  const existing = await strapi.db.query('api::topic.topic').count();
  if (existing > 0) return;
  strapi.log.info('[portal] seeding demo content');

  const image = await uploadImage(strapi);
  const cmsUrl = (process.env.CMS_SEED_CMS_URL || `http://localhost:${strapi.config.get('server.port')}`).replace(
    /\/$/,
    '',
  );
  const portalUrl = (process.env.CMS_SEED_PORTAL_URL || 'http://localhost:3000').replace(/\/$/, '');
  const fill = (text) => text.replaceAll('{{IMAGE}}', `${cmsUrl}${image.url}`).replaceAll('{{PORTAL}}', portalUrl);

  const topicService = strapi.documents('api::topic.topic');
  const bySlug = {};
  for (const topic of topics) {
    const created = await topicService.create({ data: { ...topic, body: fill(topic.body) }, status: 'published' });
    bySlug[topic.slug] = created.documentId;
  }
  await topicService.create({ data: draftTopic });

  await strapi.documents('api::home-page.home-page').create({
    data: {
      heroTitle: homePage.heroTitle,
      heroText: homePage.heroText,
      featuredTopics: homePage.featured.map((slug) => bySlug[slug]),
      notices: homePage.notices,
    },
    status: 'published',
  });
  await strapi.documents('api::license.license').create({ data: { LicenseText: licenseText }, status: 'published' });
  const questions = strapi.documents('api::security-question.security-question');
  for (const [i, { key, question }] of securityQuestions.entries())
    await questions.create({ data: { key, question, order: i + 1 }, status: 'published' });
}

module.exports = { seedDemoContent };
