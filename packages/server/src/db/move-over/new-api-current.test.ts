import { newApiCurrentModels } from './__fixtures__/new-api-current.ts';
import { moveOverSuite } from './testing/move-over-suite.ts';

moveOverSuite('new-api-current', newApiCurrentModels, { unknownSchema: ['next_release_feature', 'users.next_release_column'] });
