// The client's one entry module (index.html loads it): the only module that does something
// when imported. Every other module only exports.

import { start } from "./boot.js";

start();
