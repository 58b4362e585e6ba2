/** `npm run build` (with the console): the server as a prebuilt JavaScript bundle in packages/server/dist. */
import { buildServerBundle, bundledMain } from '../packages/server/src/entry/bundle/build-server-bundle.ts';

await buildServerBundle();
console.log(`Server bundle built: ${bundledMain}`);
