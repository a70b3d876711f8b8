'use strict';

/**
 * What the editors see in the content manager, kept in the repository and applied on every start (an edit made
 * with "Configure the view" lasts until the next start): a label and a description for every field, the list's
 * columns and its default order. The topic list's Jurisdictions column comes from src/admin/app.jsx.
 */
const field = (label, description, edit = {}) => ({ edit: { label, description, ...edit }, list: { label } });

const VIEWS = {
  'api::topic.topic': {
    settings: { mainField: 'title', defaultSortBy: 'order', defaultSortOrder: 'ASC', pageSize: 50 },
    list: ['title', 'slug', 'order'],
    fields: {
      title: field(
        'Title',
        'The page heading, the browser tab title and the link text of the home page card. Required; spaces alone are refused.',
      ),
      slug: field(
        'Address (slug)',
        'The page address, /topics/<slug>. Left empty, it is made from the title when you save. Changed after the topic is published, the new address takes effect when you publish again, and the old one keeps working: the site sends its visitors (links in emails, bookmarks) to the new one.',
      ),
      summary: field(
        'Summary',
        'The text of the topic’s card on the home page (up to 500 characters). Required to publish.',
      ),
      body: field(
        'Body',
        'The page text in Markdown. Links: https, http, mailto or a path on this site. Images from the media library, each with alternative text. Raw HTML is shown as text, not markup.',
      ),
      jurisdictions: field(
        'Jurisdictions',
        'Visitors who chose one of these jurisdictions see the topic on the home page. None ticked: every jurisdiction.',
      ),
      order: field(
        'Order on the home page',
        'Topics are listed lowest number first. Left empty, a new topic goes after the last one.',
      ),
    },
  },
  'api::home-page.home-page': {
    // 'id': the edit view is headed by the type's name (License), not by a document id.
    settings: { mainField: 'id' },
    fields: {
      heroTitle: field('Welcome heading', 'The large heading at the top of the home page.'),
      heroText: field('Welcome text', 'The paragraph under the welcome heading (Markdown).'),
      featuredTopics: field('Featured topics', 'Topics shown first on the home page.'),
      notices: field(
        'Notices',
        'Banners at the top of the home page, for every visitor (outages, deadlines). Remove a notice when it no longer applies.',
      ),
    },
  },
  'api::license.license': {
    // 'id': the edit view is headed by the type's name (License), not by a document id.
    settings: { mainField: 'id' },
    fields: {
      LicenseText: field(
        'License text',
        'The AMA license agreement a visitor accepts (or declines) in the license dialog before content with CPT codes is shown (Markdown).',
      ),
    },
  },
  'api::system-use-notice.system-use-notice': {
    // 'id': the edit view is headed by the type's name (License), not by a document id.
    settings: { mainField: 'id' },
    fields: {
      NoticeText: field(
        'System use notice',
        'The warning shown on the login page that the system is for authorized use only (Markdown). It must never be empty.',
      ),
    },
  },
  'api::error-message.error-message': {
    settings: { mainField: 'ErrorCode', defaultSortBy: 'ErrorCode', defaultSortOrder: 'ASC', pageSize: 100 },
    list: ['ErrorCode', 'WhereItAppears', 'Message'],
    fields: {
      ErrorCode: field(
        'Error code',
        'The code the portal sends with an error (packages/contracts/src/error-codes.json). Do not change it: the portal finds the message by this code.',
      ),
      WhereItAppears: field(
        'Where it appears',
        'Where visitors read this message and what causes it. Kept with the portal’s code (packages/contracts/src/error-code-places.json) and filled in at every start: it cannot be edited here.',
        { editable: false },
      ),
      Message: field(
        'Message',
        'What the visitor reads when this error happens, in the form or page that caused it. Without a published message the portal shows its own default text.',
      ),
    },
  },
  'api::security-question.security-question': {
    settings: { mainField: 'question', defaultSortBy: 'order', defaultSortOrder: 'ASC' },
    list: ['question', 'order'],
    fields: {
      key: field(
        'Key',
        'The stable name the portal stores answers under. Made from the question; never change it once people have answered.',
      ),
      question: field('Question', 'The question a user picks and answers at registration.'),
      order: field('Order', 'Questions are offered lowest number first.'),
    },
  },
};

const COMPONENT_VIEWS = {
  'content.notice': {
    fields: {
      title: field('Heading', 'The notice’s bold first line.'),
      text: field('Text', 'The notice’s text (Markdown).'),
      severity: field('Kind', 'info: a blue notice; warning: an orange one, for something a visitor must act on.'),
    },
  },
};

function merged(current, view) {
  const metadatas = { ...current.metadatas };
  for (const [name, meta] of Object.entries(view.fields)) {
    if (!metadatas[name]) continue;
    metadatas[name] = {
      edit: { ...metadatas[name].edit, ...meta.edit },
      list: { ...metadatas[name].list, ...meta.list },
    };
  }
  return {
    settings: { ...current.settings, ...view.settings },
    metadatas,
    layouts: { ...current.layouts, ...(view.list ? { list: view.list } : {}) },
  };
}

async function applyAdminViews(strapi) {
  const contentTypes = strapi.plugin('content-manager').service('content-types');
  for (const [uid, view] of Object.entries(VIEWS)) {
    const current = await contentTypes.findConfiguration({ uid });
    await contentTypes.updateConfiguration({ uid }, merged(current, view));
  }
  const components = strapi.plugin('content-manager').service('components');
  for (const [uid, view] of Object.entries(COMPONENT_VIEWS)) {
    const current = await components.findConfiguration({ uid });
    await components.updateConfiguration({ uid }, merged(current, view));
  }
}

module.exports = { VIEWS, applyAdminViews };
