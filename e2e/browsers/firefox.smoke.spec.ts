import { smokeSuite } from './journeys.ts';

// Firefox ESR (Debian's firefox-esr) driven by puppeteer-core over WebDriver BiDi; a console error fails a test.
smokeSuite('firefox', 'Firefox', 'record');
