// The room page's script (views/room.njk), bundled into public/built/room.js by
// scripts/build-assets.ts.
import { browserEnvironment } from './environment.js';
import { Room } from './room.js';

const root = document.getElementById('room');
if (root) new Room(root, browserEnvironment()).start();
