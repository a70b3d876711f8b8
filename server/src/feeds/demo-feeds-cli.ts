import { DEMO_FEED_LOCATIONS, demoFeedFolder, writeDemoFeeds } from './demo-feeds';

// Rewrites the committed sample feed files from the demo generator (docs/requirements/data-feeds.md#demo-data).
const files = await writeDemoFeeds(demoFeedFolder, DEMO_FEED_LOCATIONS);
for (const file of Object.values(files)) console.log(`wrote ${file}`);
