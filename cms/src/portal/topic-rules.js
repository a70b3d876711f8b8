'use strict';
const { errors } = require('@strapi/utils');
const { validateJurisdictions } = require('./jurisdictions');

const TOPIC = 'api::topic.topic';

/** A ValidationError the admin shows under the field it names (details.errors[].path). */
function fieldError(field, message) {
  return new errors.ValidationError(message, { errors: [{ path: [field], message, name: 'ValidationError' }] });
}

const isBlank = (v) => typeof v !== 'string' || v.trim() === '';

/**
 * The portal's rules for a topic, applied to every create and update (admin and API alike), before Strapi's own
 * validation: the title is not blank, a whitespace-only summary (the home page card's text) counts as none, the
 * jurisdictions are a list of the portal's codes, an empty slug is filled from the title, and a new topic without
 * an order goes after the last one.
 */
async function applyTopicRules(strapi, context) {
  const { action } = context;
  const data = context.params?.data;
  if (!data) return;
  if (action === 'create' || 'title' in data) {
    if (isBlank(data.title))
      throw fieldError('title', 'Enter a title: it is the page heading and the link text on the home page.');
    data.title = data.title.trim();
  }
  if (typeof data.summary === 'string') {
    // Whitespace only counts as empty: Strapi's required check then refuses to publish without a summary.
    data.summary = data.summary.trim() === '' ? null : data.summary.trim();
  }
  if ('jurisdictions' in data) {
    // The admin sends null (or nothing) when no jurisdiction is chosen: stored as [] (every jurisdiction).
    if (data.jurisdictions === null || data.jurisdictions === '') data.jurisdictions = [];
    try {
      validateJurisdictions(data.jurisdictions);
    } catch (error) {
      throw fieldError('jurisdictions', error.message);
    }
  }
  const slugGiven = typeof data.slug === 'string' && data.slug.trim() !== '';
  if ((action === 'create' || 'slug' in data) && !slugGiven) {
    let title = data.title;
    if (!title && context.params.documentId) {
      const current = await strapi.db.query(TOPIC).findOne({ where: { documentId: context.params.documentId } });
      title = current?.title;
    }
    if (title)
      data.slug = await strapi
        .plugin('content-manager')
        .service('uid')
        .generateUIDField({
          contentTypeUID: TOPIC,
          field: 'slug',
          data: { ...data, title, id: context.params.documentId },
          locale: context.params.locale,
        });
  }
  if (action === 'create' && (data.order === undefined || data.order === null || data.order === '')) {
    const last = await strapi.db.query(TOPIC).findOne({ select: ['order'], orderBy: { order: 'desc' } });
    data.order = (last?.order ?? 0) + 1;
  }
}

module.exports = { TOPIC, applyTopicRules, fieldError };
