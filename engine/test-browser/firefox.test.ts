import { launchFirefox } from "./engines/firefox.js";
import { describeEngine } from "./suite.js";

describeEngine("firefox", launchFirefox);
