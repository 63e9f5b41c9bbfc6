import { smokeSuite } from './journeys.ts';

// WebKitGTK (Debian's webkit2gtk-driver: WebKitWebDriver and MiniBrowser under Xvfb) driven by selenium-webdriver;
// media plays only from a tap, as on an iPhone; a console error fails a test. Reactions are recorded in Firefox.
smokeSuite('webkit', 'WebKit', 'just play');
