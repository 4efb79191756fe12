import { launchWebKit } from "./engines/webkit.js";
import { describeEngine } from "./suite.js";

describeEngine("webkit", launchWebKit);
