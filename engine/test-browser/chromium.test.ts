import { launchChromium } from "./engines/chromium.js";
import { describeEngine } from "./suite.js";

describeEngine("chromium", launchChromium);
