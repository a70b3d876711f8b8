'use strict';
const { TOPIC } = require('./topic-rules');

const ADDRESS = 'api::topic-address.topic-address';

/**
 * Every address a topic has been published under (docs/requirements/public-site.md#topic-page): a topic's links in
 * emails and bookmarks keep working after an editor changes its slug, because the portal answers an address no
 * topic has now with a permanent redirect to the current address of the topic that last had it. An address taken
 * by another topic later points to that one.
 */
async function recordAddress(strapi, slug, documentId) {
  if (typeof slug !== 'string' || slug === '' || !documentId) return;
  const addresses = strapi.documents(ADDRESS);
  const [known] = await addresses.findMany({ filters: { slug }, fields: ['topicDocumentId'], limit: 1 });
  if (!known) await addresses.create({ data: { slug, topicDocumentId: documentId } });
  else if (known.topicDocumentId !== documentId)
    await addresses.update({ documentId: known.documentId, data: { topicDocumentId: documentId } });
}

/**
 * Records the address of every topic version published from now on (a published version is a new row: the admin's
 * Publish, and a create or update with status published alike), in the publishing transaction, and the addresses
 * of the topics published before this started (an existing CMS, the demo content).
 */
async function keepTopicAddresses(strapi) {
  strapi.db.lifecycles.subscribe({
    models: [TOPIC],
    async afterCreate({ result }) {
      if (result?.publishedAt) await recordAddress(strapi, result.slug, result.documentId);
    },
  });
  const published = await strapi.db
    .query(TOPIC)
    .findMany({ where: { publishedAt: { $notNull: true } }, select: ['slug', 'documentId'] });
  for (const topic of published) await recordAddress(strapi, topic.slug, topic.documentId);
}

module.exports = { ADDRESS, keepTopicAddresses };
