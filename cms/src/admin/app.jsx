import { Typography } from '@strapi/design-system';
import jurisdictions from '../../../packages/contracts/src/jurisdictions.json';

const known = new Set(jurisdictions.map((j) => j.value));

/** The topic list's Jurisdictions column: the codes chosen, or "All" when none is (the topic is for everyone). */
function JurisdictionsCell({ jurisdictions: value }) {
  const list = Array.isArray(value) ? value.filter((v) => known.has(v)) : [];
  return <Typography textColor="neutral800">{list.length ? list.join(', ') : 'All'}</Typography>;
}

export default {
  config: {
    locales: [],
    tutorials: false,
    notifications: { releases: false },
  },
  register(app) {
    // Strapi's guided tour (a developer's tour of the Content-Type Builder and API tokens) is off for editors: it
    // starts when the browser has no stored tour state, so a first visit stores one with the tours switched off.
    try {
      if (!window.localStorage.getItem('STRAPI_GUIDED_TOUR'))
        window.localStorage.setItem(
          'STRAPI_GUIDED_TOUR',
          JSON.stringify({ enabled: false, hidden: false, completedActions: [] }),
        );
      // The admin's announcement of its new media library (a banner above every page, with a link to Strapi's blog),
      // stored as dismissed: the key is the one the admin reads for this project (no `strapi.uuid` in package.json).
      window.localStorage.setItem('STRAPI_MEDIA_LIBRARY_BANNER_DISMISSED_FOR_false:false', 'true');
    } catch {
      // Storage blocked: the tour and the banner show, and the editor can skip or close them.
    }
    app.customFields.register({
      name: 'jurisdictions',
      type: 'json',
      intlLabel: { id: 'portal.jurisdictions.label', defaultMessage: 'Jurisdictions' },
      intlDescription: {
        id: 'portal.jurisdictions.description',
        defaultMessage: 'The jurisdictions a topic is for (none chosen: every jurisdiction)',
      },
      components: { Input: async () => import('./jurisdictions-input') },
    });
  },
  bootstrap(app) {
    app.registerHook('Admin/CM/pages/ListView/inject-column-in-table', ({ displayedHeaders, layout }) => {
      // Only types whose schema asks for it (pluginOptions.portal.jurisdictionsColumn): the topics.
      if (!layout?.options?.portal?.jurisdictionsColumn) return { displayedHeaders, layout };
      return {
        displayedHeaders: [
          ...displayedHeaders,
          {
            attribute: { type: 'string' },
            label: { id: 'portal.jurisdictions.column', defaultMessage: 'Jurisdictions' },
            searchable: false,
            sortable: false,
            name: 'jurisdictions',
            cellFormatter: (row) => <JurisdictionsCell jurisdictions={row.jurisdictions} />,
          },
        ],
        layout,
      };
    });
  },
};
