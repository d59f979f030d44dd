// Entry of the Electron main process (built to out/main/index.cjs, package.json "main").
import { runDesktopApp } from './lifecycle';

runDesktopApp(__dirname);
