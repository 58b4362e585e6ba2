import { describeRootSettings } from './settings-root.suite.ts';

describeRootSettings('zh');
