'use strict';
const { AsyncLocalStorage } = require('node:async_hooks');
const MarkdownIt = require('markdown-it');

/**
 * What the site would not show as the editor wrote it, found when a text is saved so the editor sees it on the
 * field (docs/requirements/public-site.md#content-in-the-cms). The site renders CMS text as GitHub Flavored
 * Markdown, shows raw HTML as literal text, drops links whose scheme is not allowed and reduces every image
 * address to a path on its own origin, where only the media library's /uploads/ files exist.
 */
const ALLOWED_SCHEMES = ['http:', 'https:', 'mailto:', 'irc:', 'ircs:', 'xmpp:'];
const IMAGE_FILE_NAME = /\.(png|jpe?g|gif|svg|webp|avif|bmp|tiff?)$/i;

// linkify: bare addresses become links, as remark-gfm's autolinks do on the site. validateLink is opened so a
// `javascript:` link is parsed as a link (and reported) instead of being left as text.
const md = new MarkdownIt({ html: true, linkify: true });
md.validateLink = () => true;

/** Whether an address is one of the CMS's own: relative, or on a host name of this CMS at its port. */
function cmsOwnHost(url, cms) {
  return cms.origins.has(url.origin) || (cms.hostNames.has(url.hostname) && url.port === String(cms.port));
}

function schemeOf(href) {
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(href.trim());
  return m ? `${m[1].toLowerCase()}:` : undefined;
}

/** The problems of one markdown text, each a sentence for the editor; [] when the site shows it as written. */
function contentProblems(text, cms) {
  if (typeof text !== 'string' || text.trim() === '') return [];
  const problems = [];
  const add = (message) => {
    if (!problems.includes(message)) problems.push(message);
  };
  const walk = (tokens) => {
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (token.type === 'html_block' || token.type === 'html_inline') {
        // Comments are HTML too, but harmless; anything else shows up on the site as literal text.
        if (!/^\s*<!--/.test(token.content) && !problems.some((p) => p.startsWith('Remove the HTML')))
          add(
            `Remove the HTML ${JSON.stringify(token.content.trim().slice(0, 40))}: the site shows HTML as text. Use Markdown (**bold**, [link](https://…)).`,
          );
      } else if (token.type === 'link_open') {
        const href = token.attrGet('href') ?? '';
        const scheme = schemeOf(href);
        if (href.trim() === '') add('A link has no address: write it as [text](https://…) or remove the brackets.');
        else if (scheme && !ALLOWED_SCHEMES.includes(scheme))
          add(
            `The link to "${href.slice(0, 40)}" would be shown as plain text: a link starts with https:, http:, mailto: or / (a page of this site).`,
          );
        // The link's text: the tokens up to its link_close. No text (and no image) leaves nothing to click.
        let j = i + 1;
        let hasText = false;
        while (j < tokens.length && tokens[j].type !== 'link_close') {
          if ((tokens[j].type === 'text' && tokens[j].content.trim()) || tokens[j].type === 'image') hasText = true;
          if (tokens[j].type === 'code_inline' && tokens[j].content.trim()) hasText = true;
          j++;
        }
        if (!hasText && href.trim() !== '')
          add(
            `The link to "${href.slice(0, 40)}" has no text to click: write it as [words to click](${href.slice(0, 40)}).`,
          );
      } else if (token.type === 'image') {
        const src = token.attrGet('src') ?? '';
        const alt = token.content.trim();
        let url;
        try {
          url = new URL(src, cms.baseUrl);
        } catch {
          url = undefined;
        }
        if (!url || !cmsOwnHost(url, cms) || !url.pathname.startsWith('/uploads/'))
          add(
            `The image "${src.slice(0, 60)}" is not in the media library, so the site cannot show it: upload it to the media library and insert it from there.`,
          );
        if (!alt || IMAGE_FILE_NAME.test(alt))
          add(
            `The image "${src.slice(0, 60)}" needs alternative text that says what it shows, for people who cannot see it: ![what the image shows](address).`,
          );
      }
      if (token.children) walk(token.children);
    }
  };
  walk(md.parse(text, {}));
  return problems;
}

/** The CMS's own addresses (its /uploads/ files), from its configuration. */
function cmsAddresses(strapi) {
  const port = strapi.config.get('server.port');
  const publicUrl = strapi.config.get('server.url') || `http://localhost:${port}`;
  const origins = new Set([new URL(publicUrl).origin]);
  if (process.env.CMS_SEED_CMS_URL) origins.add(new URL(process.env.CMS_SEED_CMS_URL).origin);
  const hostNames = new Set(['localhost', '127.0.0.1', strapi.config.get('server.host')]);
  return { baseUrl: publicUrl, origins, hostNames, port };
}

const unchecked = new AsyncLocalStorage();

/** Runs `fn` without the checks: the demo content keeps a `javascript:` link to show the site's own defence. */
function withoutContentChecks(fn) {
  return unchecked.run(true, fn);
}

/**
 * The markdown (richtext) fields of `uid` in `data`, components included, as [path, text] pairs: the path is the
 * one the admin shows an error under (['notices', 0, 'text']).
 */
function markdownFields(strapi, uid, data, path = []) {
  const schema = strapi.getModel(uid);
  const found = [];
  if (!schema || !data || typeof data !== 'object') return found;
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    const value = data[name];
    if (value === undefined || value === null) continue;
    if (attribute.type === 'richtext') found.push([[...path, name], value]);
    else if (attribute.type === 'component') {
      const items = attribute.repeatable ? (Array.isArray(value) ? value : []) : [value];
      items.forEach((item, index) =>
        found.push(
          ...markdownFields(
            strapi,
            attribute.component,
            item,
            attribute.repeatable ? [...path, name, index] : [...path, name],
          ),
        ),
      );
    }
  }
  return found;
}

/** The ValidationError details of the problems in `data`'s markdown fields ([] when there are none). */
function markdownErrors(strapi, uid, data) {
  if (unchecked.getStore()) return [];
  const cms = cmsAddresses(strapi);
  const errors = [];
  for (const [path, text] of markdownFields(strapi, uid, data)) {
    const problems = contentProblems(text, cms);
    if (problems.length) errors.push({ path, message: problems.join(' '), name: 'ValidationError' });
  }
  return errors;
}

module.exports = { contentProblems, markdownErrors, withoutContentChecks, ALLOWED_SCHEMES };
